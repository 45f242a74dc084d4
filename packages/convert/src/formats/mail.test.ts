import { buildCsv, buildEml, buildMsg, buildTxt } from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "../converter.js";

const converter = new DocumentConverter({ workers: 1 });
afterAll(() => converter.close());

/** A message forwarded as an item: it carries a CSV and, one level down, another message with a note. */
const forwarded = {
  subject: "Original order 5512",
  text: "Ten crates of bolts.",
  attachments: [{ filename: "order.csv", contentType: "text/csv", content: buildCsv() }],
  embeddedMessages: [
    {
      subject: "Supplier reply",
      text: "Confirmed for Friday.",
      attachments: [{ filename: "note.txt", contentType: "text/plain", content: buildTxt() }],
    },
  ],
};

describe("an .msg attached inside a message is expanded recursively", () => {
  it("MSG in MSG (embedded message items), two levels deep", async () => {
    const msg = buildMsg({
      subject: "Fwd: Original order 5512",
      text: "See the attached item.",
      embeddedMessages: [forwarded],
    });
    const result = await converter.convert([{ bytes: msg, filename: "fwd.msg" }]);
    expect(result.errors).toEqual([]);
    expect(result.documents.map((d) => d.filename)).toEqual([
      "fwd.msg",
      "fwd.msg/Original order 5512.msg",
      "fwd.msg/Original order 5512.msg/order.csv",
      "fwd.msg/Original order 5512.msg/Supplier reply.msg",
      "fwd.msg/Original order 5512.msg/Supplier reply.msg/note.txt",
    ]);
    const [outer, inner, csv, reply, note] = result.documents;
    expect(outer?.mdContent).toContain("- Attachment: Original order 5512.msg");
    expect(inner?.mdContent).toContain("# Original order 5512");
    expect(inner?.mdContent).toContain("Ten crates of bolts.");
    expect(inner?.metadata).toMatchObject({ format: "msg", subject: "Original order 5512" });
    expect(csv?.mdContent).toContain("| A-100 | Bolt, M8 | 250 |");
    expect(reply?.textContent).toContain("Confirmed for Friday.");
    expect(note?.textContent).toContain("Hamburg");
  });

  it("MSG attached to an EML, with a message embedded in it", async () => {
    const eml = buildEml({
      subject: "Fwd: order",
      text: "Forwarding the Outlook item.",
      attachments: [
        { filename: "original.msg", contentType: "application/vnd.ms-outlook", content: buildMsg(forwarded) },
      ],
    });
    const result = await converter.convert([{ bytes: eml, filename: "fwd.eml" }]);
    expect(result.errors).toEqual([]);
    expect(result.documents.map((d) => d.filename)).toEqual([
      "fwd.eml",
      "fwd.eml/original.msg",
      "fwd.eml/original.msg/order.csv",
      "fwd.eml/original.msg/Supplier reply.msg",
      "fwd.eml/original.msg/Supplier reply.msg/note.txt",
    ]);
    expect(result.documents[3]?.mdContent).toContain("# Supplier reply");
  });
});
