import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../limits.js";
import { renderPlacedMarkdown } from "../../render/markdown.js";
import { parsePdf } from "../pdf.js";

const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const A4_HEIGHT = 841.89;
const SIZE = 12;

/** A two-page PDF: body text on page 1, and on page 2 a line drawn by pdfkit at a known place. */
async function twoPagePdf(): Promise<{ bytes: Uint8Array; x: number; top: number; width: number }> {
  const doc = new PDFDocument({ size: "A4", margin: 50 });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on("end", () => resolve()));
  doc.registerFont("body", FONT);
  doc.font("body").fontSize(SIZE);
  doc.text("The first page holds an introduction that is long enough to be a paragraph.", 50, 80);
  doc.addPage();
  doc.text("Some body text at the top of the second page, before the invoice line.", 50, 80);
  const line = "Invoice number INV-2024-0042 due soon";
  const x = 220;
  const top = 400; // pdfkit: distance from the top edge to the top of the line box
  const width = doc.widthOfString(line);
  doc.text(line, x, top, { lineBreak: false });
  doc.end();
  await ended;
  return { bytes: new Uint8Array(Buffer.concat(chunks)), x, top, width };
}

describe("PDF block boxes and their places in the Markdown output", () => {
  it("gives each block its page and a box holding where pdfkit drew it; the Markdown placements find it", async () => {
    const drawn = await twoPagePdf();
    const parsed = await parsePdf(drawn.bytes, {
      filename: "invoice.pdf",
      pipeline: "fast",
      embedImages: false,
      maxPages: undefined,
      limits: DEFAULT_LIMITS,
      expansionBudget: 0,
    });
    const model = parsed.model!;
    const block = model.blocks.find(
      (candidate) => candidate.type === "paragraph" && candidate.text.includes("INV-2024-0042"),
    );
    expect(block?.type).toBe("paragraph");
    if (block?.type !== "paragraph") return;
    expect(block.page).toBe(2);
    const [x0, y0, x1, y1] = block.bbox!;
    // PDF user space: origin bottom-left, so pdfkit's top-down y turns into page height − y.
    const lineTop = A4_HEIGHT - drawn.top;
    const tolerance = 3;
    expect(Math.abs(x0 - drawn.x)).toBeLessThan(tolerance);
    expect(Math.abs(x1 - (drawn.x + drawn.width))).toBeLessThan(tolerance);
    expect(y1).toBeGreaterThan(lineTop - tolerance);
    expect(y1).toBeLessThan(lineTop + tolerance);
    expect(y0).toBeLessThan(lineTop - SIZE * 0.9);
    expect(y0).toBeGreaterThan(lineTop - SIZE * 1.5);
    // Every paragraph built from PDF text has a box; none of the page-1 boxes is on page 2's line.
    for (const other of model.blocks) {
      if (other.type === "paragraph") expect(other.bbox).toHaveLength(4);
    }

    const { markdown, placements } = renderPlacedMarkdown({
      ...model,
      filename: "invoice.pdf",
      pipeline: "fast",
    });
    const codePoints = [...markdown];
    const at = codePoints.join("").indexOf("INV-2024-0042");
    const placement = placements.find((candidate) => candidate.start <= at && at < candidate.end);
    expect(placement).toMatchObject({ page: 2, bbox: block.bbox });
    expect(codePoints.slice(placement!.start, placement!.end).join("")).toBe(block.text);
    // Placements are in reading order and never overlap.
    for (let i = 1; i < placements.length; i++)
      expect(placements[i]!.start).toBeGreaterThanOrEqual(placements[i - 1]!.end);
  });

  it("places list items line by line and counts offsets in code points", () => {
    const model = {
      schema: "groundwork.document/v1" as const,
      filename: "x.pdf",
      format: "pdf",
      pipeline: "fast",
      metadata: {},
      notes: [],
      blocks: [
        { type: "page" as const, number: 1 },
        {
          type: "paragraph" as const,
          text: "Emoji 😀 first",
          page: 1,
          bbox: [1, 2, 3, 4] as [number, number, number, number],
        },
        {
          type: "list" as const,
          ordered: false,
          items: [
            { text: "one", depth: 0, bbox: [10, 20, 30, 40] as [number, number, number, number] },
            { text: "two", depth: 0, bbox: [10, 5, 30, 19] as [number, number, number, number] },
          ],
          page: 1,
        },
      ],
    };
    const { markdown, placements } = renderPlacedMarkdown(model);
    expect(markdown).toBe("Emoji 😀 first\n\n- one\n- two\n");
    expect(placements).toEqual([
      { start: 0, end: 13, page: 1, bbox: [1, 2, 3, 4] },
      { start: 15, end: 20, page: 1, bbox: [10, 20, 30, 40] },
      { start: 21, end: 26, page: 1, bbox: [10, 5, 30, 19] },
    ]);
  });
});
