// Extracts an invoice with a JSON Schema and reads the report: validation, rules, grounding, confidence.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/extract/index.ts
// (the built-in model names go to OPENAI_BASE_URL; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork, extractionResult } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
  config: {
    builtin: {
      baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      apiKey: process.env.OPENAI_API_KEY ?? "",
    },
  },
});
const me = await groundwork.principal("acme");
const schema = await groundwork.schemas.create(me.organizationId, { name: "invoice" });
await groundwork.schemas.commitVersion(me.organizationId, schema.id, {
  jsonSchema: {
    type: "object",
    required: ["invoiceNumber", "total"],
    properties: { invoiceNumber: { type: "string" }, vendor: { type: "string" }, total: { type: "number" } },
  },
});
const record = await groundwork.extraction.extract(me, {
  schemaId: schema.id,
  model: "gpt-4o-mini",
  inputText: "Invoice INV-2024-001 from Acme GmbH. Total due: 120.50 EUR.",
});
const result = extractionResult(record);
console.log(record.status, result?.structuredOutput);
for (const [field, report] of Object.entries(result?.resultMetadata.scoring?.fields ?? {})) {
  console.log(field, report.grounding.basis, report.confidence?.score);
}
// #endregion readme
