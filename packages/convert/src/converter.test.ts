import {
  buildAsciidoc,
  buildCsv,
  buildDocx,
  buildDwgHeader,
  buildDxf,
  buildEml,
  buildGeo,
  buildHtml,
  buildMarkdown,
  buildMsg,
  buildPdf,
  buildPptx,
  buildStep,
  buildTxt,
  buildXlsx,
  buildZip,
} from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { type ConversionResult, DocumentConverter } from "./converter.js";
import type { DocumentModel } from "./document-model.js";

const converter = new DocumentConverter();
afterAll(() => converter.close());

const ALL = {
  options: { outputFormats: ["MD", "TEXT", "JSON", "HTML"] as ("MD" | "TEXT" | "JSON" | "HTML")[] },
};

async function convertOne(
  bytes: Uint8Array,
  filename: string,
  mimeType?: string,
  pipeline: "fast" | "ocr" | "vlm" = "fast",
) {
  const result: ConversionResult = await converter.convert(
    [{ bytes, filename, ...(mimeType === undefined ? {} : { mimeType }) }],
    { pipeline, options: { outputFormats: [...ALL.options.outputFormats] } },
  );
  expect(result.errors).toEqual([]);
  expect(result.status).toBe("SUCCESS");
  const document = result.documents[0];
  if (document === undefined) throw new Error("no document");
  return {
    md: document.mdContent ?? "",
    text: document.textContent ?? "",
    html: document.htmlContent ?? "",
    json: document.jsonContent as DocumentModel,
    metadata: document.metadata ?? {},
    result,
  };
}

describe("every input format, every output format", () => {
  it("PDF: headings by font size, paragraphs, page numbers", async () => {
    const pdf = buildPdf(
      [
        {
          lines: [
            { text: "Annual Report 2024", size: 24 },
            { text: "Revenue rose to 4.2 million euros." },
            { text: "Costs stayed flat." },
          ],
        },
        {
          lines: [
            { text: "Outlook", size: 16 },
            { text: "- Expand to Austria" },
            { text: "- Hire ten engineers" },
          ],
        },
      ],
      { title: "Annual Report", author: "Finance Team" },
    );
    const { md, text, html, json, metadata } = await convertOne(pdf, "report.pdf");
    expect(md).toContain("# Annual Report 2024");
    expect(md).toContain("## Outlook");
    expect(md).toContain("Revenue rose to 4.2 million euros. Costs stayed flat.");
    expect(md).toContain("- Expand to Austria");
    expect(md).toContain("<!-- page 2 -->");
    expect(text).toContain("Annual Report 2024\n\nRevenue rose");
    expect(text).toContain("\f");
    expect(html).toContain("<h1>Annual Report 2024</h1>");
    expect(html).toContain("<li>Hire ten engineers</li>");
    expect(json.pageCount).toBe(2);
    expect(json.blocks).toContainEqual({
      type: "heading",
      level: 2,
      text: "Outlook",
      page: 2,
      // Helvetica 16 pt at x = 72, baseline 740 − 1.5 × 16 (testkit's PDF), box −0.2 … +0.9 × size.
      bbox: [72, 712.8, expect.any(Number), 730.4],
    });
    expect(metadata).toMatchObject({
      format: "pdf",
      title: "Annual Report",
      author: "Finance Team",
      pages: 2,
    });
  });

  it("DOCX: headings, lists, tables, core properties", async () => {
    const docx = await buildDocx(
      [
        { heading: "Service Agreement", level: 1 },
        { paragraph: "This agreement starts on 1 March 2024." },
        { heading: "Obligations", level: 2 },
        { bullets: ["Deliver monthly reports", "Keep data confidential"] },
        { numbered: ["Sign", "Countersign"] },
        {
          table: [
            ["Party", "Role"],
            ["ACME", "Supplier"],
          ],
        },
      ],
      { title: "Agreement", author: "Legal" },
    );
    const { md, text, html, json, metadata } = await convertOne(docx, "agreement.docx");
    expect(md).toContain("# Service Agreement");
    expect(md).toContain("## Obligations");
    expect(md).toContain("- Deliver monthly reports");
    expect(md).toContain("1. Sign\n2. Countersign");
    expect(md).toContain("| Party | Role |\n| --- | --- |\n| ACME | Supplier |");
    expect(text).toContain("This agreement starts on 1 March 2024.");
    expect(html).toContain("<ol><li>Sign</li><li>Countersign</li></ol>");
    expect(json.blocks.some((b) => b.type === "table")).toBe(true);
    expect(metadata).toMatchObject({ format: "docx", title: "Agreement", author: "Legal" });
  });

  it("XLSX: one table per sheet with sheet boundaries", async () => {
    const xlsx = buildXlsx([
      {
        name: "Prices",
        rows: [
          ["Item", "Price"],
          ["Bolt", 0.25],
          ["Nut", 0.1],
        ],
      },
      {
        name: "Stock",
        rows: [
          ["Item", "Qty"],
          ["Bolt", 500],
        ],
      },
    ]);
    const { md, text, json, html, metadata } = await convertOne(xlsx, "prices.xlsx");
    expect(md).toContain("## Prices\n\n| Item");
    expect(md).toContain("| Item | Price |\n| --- | --- |\n| Bolt | 0.25 |");
    expect(md).toContain("## Stock\n\n| Item");
    expect(text).toContain("Bolt\t500");
    expect(html).toContain("<th>Qty</th>");
    expect(json.blocks.filter((b) => b.type === "section")).toHaveLength(2);
    expect(metadata).toMatchObject({ format: "xlsx", sheets: ["Prices", "Stock"] });
  });

  it("CSV: quoted cells survive", async () => {
    const { md, text } = await convertOne(buildCsv(), "parts.csv");
    expect(md).toContain("| sku | description | qty |");
    expect(md).toContain("| A-100 | Bolt, M8 | 250 |");
    expect(text).toContain("B-200\tWasher\t1000");
  });

  it("PPTX: slides in order, titles, bullets, tables, notes", async () => {
    const pptx = await buildPptx([
      {
        title: "Roadmap 2025",
        bullets: ["Launch in spring", "Scale in autumn"],
        notes: "Mention the budget",
      },
      {
        title: "Numbers",
        table: [
          ["Quarter", "Revenue"],
          ["Q1", "10"],
        ],
      },
    ]);
    const { md, text, html, json } = await convertOne(pptx, "deck.pptx");
    expect(md).toContain("## Roadmap 2025\n\n- Launch");
    expect(md.match(/Roadmap 2025/g)).toHaveLength(1);
    expect(md).toContain("- Launch in spring\n- Scale in autumn");
    expect(md).toContain("| Quarter | Revenue |");
    expect(md).toContain("Notes: Mention the budget");
    expect(md.indexOf("Roadmap 2025")).toBeLessThan(md.indexOf("Numbers"));
    expect(text).toContain("Q1\t10");
    expect(html).toContain("<li>Scale in autumn</li>");
    expect(json.pageCount).toBe(2);
  });

  it("HTML: structure kept, scripts dropped", async () => {
    const { md, text, json } = await convertOne(buildHtml(), "report.html");
    expect(md).toContain("# Quarterly Report");
    expect(md).toContain("Revenue grew 12% in the third quarter & costs fell.");
    expect(md).toContain("- Two products launched\n  - Widget Pro");
    expect(md).toContain("| North | 1,200 |");
    expect(text).not.toContain("never text");
    expect(json.metadata).toMatchObject({ title: "Quarterly Report", author: "Dana Writer" });
  });

  it("Markdown: headings, nested lists, tables", async () => {
    const { md, html, json } = await convertOne(buildMarkdown(), "notes.md");
    expect(md).toContain("## Changes");
    // Inline formatting survives Markdown to Markdown (the model's text stays plain).
    expect(md).toContain("Version **2.1** ships today.");
    expect(md).toContain("- New *dark* theme\n  - Auto switch");
    expect(md).toContain("1. Install\n2. Restart");
    expect(md).toContain("| CLI | beta |");
    expect(html).toContain("<td>stable</td>");
    expect(json.metadata.title).toBe("Release Notes");
  });

  it("TXT: paragraphs", async () => {
    const { md, text, json } = await convertOne(buildTxt(), "notes.txt");
    expect(json.blocks).toHaveLength(3);
    expect(md).toContain("The shipment to Hamburg leaves on Friday.\nContact: logistics desk.");
    expect(text).toContain("Next review in March.");
  });

  it("AsciiDoc (ocr or vlm pipeline only): sections, lists, tables", async () => {
    const { md, text, json } = await convertOne(buildAsciidoc(), "manual.adoc", undefined, "ocr");
    expect(md).toContain("# Operations Manual");
    expect(md).toContain("## Startup");
    expect(md).toContain("- Check belts\n  - Tension");
    expect(md).toContain("1. First step");
    expect(md).toContain("| Intake | 4 |");
    expect(text).toContain("Press the green button");
    expect(json.metadata).toMatchObject({ author: "Olaf Operator" });
  });

  it("DXF: text entities, layers, block names", async () => {
    const { md, text, json } = await convertOne(buildDxf(), "pump.dxf");
    expect(md).toContain("- TITLEBLOCK");
    expect(md).toContain("FLANGE_DETAIL (inserted)");
    expect(md).toContain("| TITLEBLOCK |  | TEXT | Drawing No. PUMP-4711 |");
    expect(md).toContain("Material: Stainless 1.4301");
    expect(text).toContain("Flange DN50");
    expect(json.metadata).toMatchObject({ dxfVersion: "AC1015", layers: ["TITLEBLOCK", "DIMENSIONS"] });
  });

  it("GEO: header fields and text elements", async () => {
    const { md, text, json } = await convertOne(buildGeo(), "bracket.geo");
    expect(md).toContain("# BRACKET-42");
    expect(md).toContain("| material | 1.4301 |");
    expect(md).toContain("ENGRAVE LOT 2024-07");
    expect(text).toContain("1 lines, 1 texts");
    expect(json.metadata).toMatchObject({
      version: "1.03",
      customer: "ACME GmbH",
      machineName: "TruLaser 3030",
    });
  });

  it("STEP: header entities and products, with an honest note", async () => {
    const { md, json, metadata } = await convertOne(buildStep(), "housing.stp");
    expect(md).toContain("| author | Erin Engineer |");
    expect(md).toContain("| GH-100 | Gearbox Housing | Cast aluminium housing |");
    expect(json.notes[0]).toMatch(/geometry is not interpreted/);
    expect(metadata).toMatchObject({ description: "Gearbox housing", originatingSystem: "CAD Suite 2024" });
  });

  it("DWG: header metadata only, and says so", async () => {
    const { md, text, metadata } = await convertOne(buildDwgHeader(), "plan.dwg");
    expect(md).toContain("# DWG drawing (AutoCAD 2018)");
    expect(text).toMatch(/only the file header .* was read/);
    expect(metadata).toMatchObject({ dwgVersion: "AC1032", release: "AutoCAD 2018" });
  });

  it("EML: the message and each attachment as separate documents", async () => {
    const eml = buildEml({
      subject: "Invoice 2024-17",
      text: "Please find the invoice attached.",
      html: "<p>Please find the <b>invoice</b> attached.</p>",
      attachments: [
        { filename: "invoice.csv", contentType: "text/csv", content: buildCsv() },
        { filename: "readme.txt", contentType: "text/plain", content: buildTxt() },
      ],
    });
    const result = await converter.convert([{ bytes: eml, filename: "mail.eml" }], {
      options: { outputFormats: ["MD", "TEXT"] },
    });
    expect(result.status).toBe("SUCCESS");
    expect(result.documents.map((d) => d.filename)).toEqual([
      "mail.eml",
      "mail.eml/invoice.csv",
      "mail.eml/readme.txt",
    ]);
    const [mail, csv, txt] = result.documents;
    expect(mail?.mdContent).toContain("# Invoice 2024-17");
    expect(mail?.mdContent).toContain("From: Alice Sender <alice@example.com>");
    expect(mail?.mdContent).toContain("Please find the invoice attached.");
    expect(mail?.mdContent).toContain("- Attachment: invoice.csv");
    expect(mail?.metadata).toMatchObject({
      subject: "Invoice 2024-17",
      from: "Alice Sender <alice@example.com>",
    });
    expect(csv?.mdContent).toContain("| A-100 | Bolt, M8 | 250 |");
    expect(txt?.textContent).toContain("Hamburg");
  });

  it("EML: a forwarded message attached to a message is expanded recursively", async () => {
    const inner = buildEml({
      subject: "Original order",
      text: "Ten crates.",
      attachments: [{ filename: "list.csv", contentType: "text/csv", content: buildCsv() }],
    });
    const outer = buildEml({
      subject: "Fwd: Original order",
      text: "See below.",
      attachments: [{ filename: "original.eml", contentType: "message/rfc822", content: inner }],
    });
    const result = await converter.convert([{ bytes: outer, filename: "fwd.eml" }]);
    expect(result.errors).toEqual([]);
    expect(result.documents.map((d) => d.filename)).toEqual([
      "fwd.eml",
      "fwd.eml/original.eml",
      "fwd.eml/original.eml/list.csv",
    ]);
    expect(result.documents[1]?.mdContent).toContain("# Original order");
  });

  it("MSG: the message and its attachment", async () => {
    const msg = buildMsg({
      subject: "Delivery note 88",
      text: "The pallet arrives Tuesday.",
      attachments: [{ filename: "note.txt", contentType: "text/plain", content: buildTxt() }],
    });
    const result = await converter.convert([{ bytes: msg, filename: "note.msg" }]);
    expect(result.errors).toEqual([]);
    expect(result.documents.map((d) => d.filename)).toEqual(["note.msg", "note.msg/note.txt"]);
    expect(result.documents[0]?.mdContent).toContain("# Delivery note 88");
    expect(result.documents[0]?.mdContent).toContain("The pallet arrives Tuesday.");
    expect(result.documents[0]?.textContent).toContain("From: Alice Sender <alice@example.com>");
    expect(result.documents[1]?.textContent).toContain("Hamburg");
  });

  it("ZIP: recursive, with nested zip and mail inside", async () => {
    const inner = await buildZip([{ name: "inner.md", content: buildMarkdown() }]);
    const eml = buildEml({
      subject: "Zipped mail",
      text: "Body of the zipped mail.",
      attachments: [{ filename: "a.txt", contentType: "text/plain", content: buildTxt() }],
    });
    const zip = await buildZip([
      { name: "docs/report.html", content: buildHtml() },
      { name: "nested.zip", content: inner },
      { name: "mail/message.eml", content: eml },
    ]);
    const result = await converter.convert([{ bytes: zip, filename: "bundle.zip" }]);
    expect(result.errors).toEqual([]);
    expect(result.documents.map((d) => d.filename).sort()).toEqual(
      [
        "bundle.zip/docs/report.html",
        "bundle.zip/nested.zip/inner.md",
        "bundle.zip/mail/message.eml",
        "bundle.zip/mail/message.eml/a.txt",
      ].sort(),
    );
    const byName = new Map(result.documents.map((d) => [d.filename, d]));
    expect(byName.get("bundle.zip/nested.zip/inner.md")?.mdContent).toContain("## Changes");
    expect(byName.get("bundle.zip/mail/message.eml")?.mdContent).toContain("Body of the zipped mail.");
  });
});

describe("distinctive content reaches all four outputs", () => {
  const cases: Array<[string, () => Uint8Array | Promise<Uint8Array>, string, "fast" | "ocr", string]> = [
    [
      "PDF",
      () => buildPdf([{ lines: [{ text: "Quarterly figures 7781" }] }]),
      "a.pdf",
      "fast",
      "Quarterly figures 7781",
    ],
    [
      "DOCX",
      () => buildDocx([{ paragraph: "Clause 7781 applies" }]),
      "a.docx",
      "fast",
      "Clause 7781 applies",
    ],
    ["XLSX", () => buildXlsx([{ name: "S", rows: [["Part 7781"]] }]), "a.xlsx", "fast", "Part 7781"],
    ["CSV", () => buildCsv(), "a.csv", "fast", "Washer"],
    ["PPTX", () => buildPptx([{ title: "Deck 7781" }]), "a.pptx", "fast", "Deck 7781"],
    ["HTML", () => buildHtml(), "a.html", "fast", "Widget Pro"],
    ["Markdown", () => buildMarkdown(), "a.md", "fast", "Faster exports"],
    ["TXT", () => buildTxt(), "a.txt", "fast", "Hamburg"],
    ["AsciiDoc", () => buildAsciidoc(), "a.adoc", "ocr", "Check oil level"],
    ["DXF", () => buildDxf(), "a.dxf", "fast", "PUMP-4711"],
    ["GEO", () => buildGeo(), "a.geo", "fast", "ENGRAVE LOT 2024-07"],
    ["STEP", () => buildStep(), "a.stp", "fast", "Gearbox Housing"],
    ["DWG", () => buildDwgHeader(), "a.dwg", "fast", "AutoCAD 2018"],
    ["EML", () => buildEml({ subject: "Order 7781", text: "Body" }), "a.eml", "fast", "Order 7781"],
    ["MSG", () => buildMsg({ subject: "Order 7781", text: "Body" }), "a.msg", "fast", "Order 7781"],
  ];
  it.each(cases)("%s", async (_, build, filename, pipeline, needle) => {
    const { md, text, html, json } = await convertOne(await build(), filename, undefined, pipeline);
    expect(md).toContain(needle);
    expect(text).toContain(needle);
    expect(html).toContain(needle);
    expect(JSON.stringify(json)).toContain(needle);
  });

  it("ZIP: its entries' content reaches all four outputs", async () => {
    const zip = await buildZip([{ name: "a.txt", content: "Zipped 7781" }]);
    const result = await converter.convert([{ bytes: zip, filename: "z.zip" }], ALL);
    const document = result.documents[0];
    expect(document?.filename).toBe("z.zip/a.txt");
    for (const output of [
      document?.mdContent,
      document?.textContent,
      document?.htmlContent,
      JSON.stringify(document?.jsonContent),
    ]) {
      expect(output).toContain("Zipped 7781");
    }
  });
});
