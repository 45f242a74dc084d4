import fc from "fast-check";
import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import type { Block } from "../../document-model.js";
import { DEFAULT_LIMITS } from "../../limits.js";
import { parsePdf } from "../pdf.js";
import { logicalLineText, type PositionedRun } from "./bidi.js";
import { fontStatistics, headingLevel } from "./heading-detection.js";
import { detectTables } from "./table-detection.js";

const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/** The smallest PDF that shows a feature: pdfkit draws what `draw` asks on one A4 page. */
async function pdf(draw: (doc: PDFKit.PDFDocument) => void): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4", margin: 50 });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on("end", () => resolve()));
  doc.registerFont("body", FONT);
  doc.registerFont("bold", BOLD);
  draw(doc);
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

async function blocksOf(bytes: Uint8Array): Promise<Block[]> {
  const parsed = await parsePdf(bytes, {
    filename: "t.pdf",
    pipeline: "fast",
    embedImages: false,
    maxPages: undefined,
    limits: DEFAULT_LIMITS,
    expansionBudget: 0,
  });
  return (parsed.model?.blocks ?? []).filter((b) => b.type !== "page");
}

const BODY = "Plain body text that runs long enough to be the most common size on the page by far.";

describe("PDF headings", () => {
  it("larger lines are headings ranked by size; a numbered body-size line is a heading by its numbering", async () => {
    const bytes = await pdf((doc) => {
      doc.font("bold").fontSize(20).text("Annual Report", 50, 50);
      doc.font("bold").fontSize(14).text("1 Introduction", 50, 100);
      doc.font("body").fontSize(10).text(BODY, 50, 130);
      doc.font("bold").fontSize(10).text("1.1 Scope of the work", 50, 170);
      doc.font("body").fontSize(10).text(BODY, 50, 190);
      doc.font("body").fontSize(10).text("2. Not a heading because it ends like a sentence.", 50, 230);
    });
    const headings = (await blocksOf(bytes)).filter((b) => b.type === "heading");
    expect(headings.map((h) => [h.level, h.text])).toEqual([
      [1, "Annual Report"],
      [2, "1 Introduction"],
      [4, "1.1 Scope of the work"],
    ]);
  });

  it("body size is the size carrying the most characters, not the most lines", () => {
    const stats = fontStatistics([
      ..."ABCDEFGHIJ".split("").map((text) => ({ text, size: 16 })),
      ...Array.from({ length: 6 }, () => ({ text: "A long paragraph line of body text", size: 10 })),
    ]);
    expect(stats.body).toBe(10);
    expect(headingLevel({ text: "B", size: 16, gap: 0 }, stats)).toBe(1);
    expect(headingLevel({ text: "3.2 Results", size: 10, gap: 5 }, stats)).toBeNull();
    expect(headingLevel({ text: "3.2 Results", size: 10, gap: 20 }, stats)).toBe(3);
  });

  it("in a document too short for statistics the smallest size is the body (a title over one line)", () => {
    const stats = fontStatistics([
      { text: "Uploaded PDF", size: 20 },
      { text: "Body", size: 12 },
    ]);
    expect(stats.body).toBe(12);
    expect(headingLevel({ text: "Uploaded PDF", size: 20, gap: 0 }, stats)).toBe(1);
  });
});

function drawTable(doc: PDFKit.PDFDocument, rows: string[][], ruled: boolean, top: number): void {
  const width = 120;
  const height = 20;
  rows.forEach((row, r) => {
    row.forEach((text, c) => {
      const x = 50 + c * width;
      const y = top + r * height;
      if (ruled) doc.lineWidth(0.5).rect(x, y, width, height).stroke();
      if (text !== "")
        doc
          .font("body")
          .fontSize(10)
          .text(text, x + 4, y + 5, { lineBreak: false });
    });
  });
}

describe("PDF tables", () => {
  const rows = [
    ["Region", "Units", "Revenue"],
    ["North", "120", "4,300"],
    ["South", "95", "3,150"],
  ];

  it("a ruled table becomes a table block", async () => {
    const bytes = await pdf((doc) => {
      doc.font("body").fontSize(10).text(BODY, 50, 50);
      drawTable(doc, rows, true, 100);
      doc.font("body").fontSize(10).text(BODY, 50, 200);
    });
    const blocks = await blocksOf(bytes);
    expect(blocks.map((b) => b.type)).toEqual(["paragraph", "table", "paragraph"]);
    expect(blocks[1]).toMatchObject({ type: "table", rows, header: true });
  });

  it("a ruled table keeps an empty cell in its column", async () => {
    const withEmpty = [rows[0] as string[], ["North", "", "4,300"], ["South", "95", "3,150"]];
    const bytes = await pdf((doc) => drawTable(doc, withEmpty, true, 100));
    const table = (await blocksOf(bytes)).find((b) => b.type === "table");
    expect(table).toMatchObject({ rows: withEmpty });
  });

  it("an unruled table is found from the alignment of its columns", async () => {
    const bytes = await pdf((doc) => {
      doc.font("body").fontSize(10).text(BODY, 50, 50);
      drawTable(doc, rows, false, 100);
    });
    const table = (await blocksOf(bytes)).find((b) => b.type === "table");
    expect(table).toMatchObject({ rows });
  });

  it("running text is not a table", () => {
    const line = (y: number, text: string) => ({
      text,
      y,
      size: 10,
      runs: [{ text, x: 50, end: 400, size: 10 }],
    });
    expect(detectTables([line(700, BODY), line(688, BODY), line(676, BODY)], [])).toEqual([]);
  });
});

describe("PDF right-to-left text", () => {
  it("Hebrew words written in visual order read in logical order", async () => {
    const words = ["שלום", "עולם", "גדול"];
    const bytes = await pdf((doc) => {
      doc.font("body").fontSize(12);
      // A typesetter writes the line left to right: the last word of the sentence first.
      let x = 300;
      const placed: Array<[string, number]> = [];
      for (const word of words) {
        x -= doc.widthOfString(word);
        placed.push([word, x]);
        x -= doc.widthOfString(" ");
      }
      for (const [word, at] of placed.reverse()) doc.text(word, at, 100, { lineBreak: false });
    });
    const blocks = await blocksOf(bytes);
    expect(blocks).toMatchObject([{ type: "paragraph", text: words.join(" ") }]);
  });

  it("a Latin run inside a right-to-left line keeps its own order", () => {
    // Visual order, left to right: "עולם" | "PDF" "file" | "שלום" → logical: שלום PDF file עולם
    const runs: PositionedRun[] = [
      { text: "עולם", x: 0, end: 30, size: 10 },
      { text: "PDF", x: 35, end: 55, size: 10 },
      { text: "file", x: 58, end: 80, size: 10 },
      { text: "שלום", x: 85, end: 115, size: 10 },
    ];
    expect(logicalLineText(runs)).toBe("שלום PDF file עולם");
  });

  it("reordering keeps every word (property)", () => {
    const word = fc.constantFrom("שלום", "עולם", "مرحبا", "abc", "42", "x");
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        const runs = words.map((text, i) => ({ text, x: i * 50, end: i * 50 + 40, size: 10 }));
        expect(logicalLineText(runs).split(" ").sort()).toEqual([...words].sort());
      }),
    );
  });
});
