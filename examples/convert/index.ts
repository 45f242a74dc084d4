// Converts an HTML document to Markdown with the platform's conversion service: no model, no server.
// From the repository root, after a build: node --import tsx examples/convert/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
});
const html = "<h1>Quarterly report</h1><p>Revenue grew <b>12%</b>.</p><ul><li>EMEA</li><li>APAC</li></ul>";
const { documents, errors } = await groundwork.conversion.convert(
  [{ kind: "bytes", filename: "report.html", mimeType: null, content: new TextEncoder().encode(html) }],
  { options: { outputFormats: ["MD"] } },
);
console.log(documents[0]?.mdContent ?? errors);
await groundwork.close();
// #endregion readme
