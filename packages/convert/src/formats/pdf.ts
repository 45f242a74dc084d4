/**
 * PDF through pdfjs-dist: the text layer page by page (each page is released
 * before the next is read), lines rebuilt from positioned glyph runs, headings
 * told from body text by font size, page boundaries kept.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { DocumentError } from "../document-error.js";
import type { Block, BoundingBox, MetadataValue } from "../document-model.js";
import { compactMetadata, type ParsedDocument, type ParseOptions } from "./parse-context.js";
import { hasRtl, logicalLineText, type PositionedRun } from "./pdf/bidi.js";
import { roundBox, runBox, unionBox } from "./pdf/boxes.js";
import { fontStatistics, headingLevel } from "./pdf/heading-detection.js";
import { withoutPageFurniture } from "./pdf/page-furniture.js";
import { rulingsOf } from "./pdf/rulings.js";
import { detectTables, mayHoldTable, needsRulings } from "./pdf/table-detection.js";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof openPdf>>["getPage"]>>;
let pdfjsPromise: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjsPromise;
}

function standardFontDataUrl(): string {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts");
  return `${pathToFileURL(dir).href}/`;
}

interface Line {
  text: string;
  size: number;
  y: number;
  x: number;
  page: number;
  /** Distance to the previous line on the same page, in points (0 for the first). */
  gap: number;
  /** The positioned text runs the line was built from (table and right-to-left layout). */
  runs: PositionedRun[];
  /** Set on the line that stands for a table detected on the page (the table's other lines are dropped). */
  table?: string[][];
  /** The union of its runs' boxes (for a table line, of the table's lines). */
  box?: BoundingBox;
}

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

const BULLET = /^([•·▪‣◦●○■□–-]|\d{1,3}[.)])\s+/;

export async function openPdf(bytes: Uint8Array) {
  const pdfjs = await loadPdfJs();
  // pdfjs takes ownership of (and may detach) the buffer it is given.
  const task = pdfjs.getDocument({
    data: bytes,
    standardFontDataUrl: standardFontDataUrl(),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
    stopAtErrors: false,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException")
      throw new DocumentError("corrupt_document", "The PDF is encrypted with a password");
    throw new DocumentError(
      "corrupt_document",
      `The PDF could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function pageLines(items: TextItemLike[], page: number): Line[] {
  const lines: Line[] = [];
  let current: {
    parts: string[];
    size: number;
    y: number;
    x: number;
    lastEnd: number;
    runs: PositionedRun[];
    box?: BoundingBox;
  } | null = null;
  const finish = () => {
    if (current === null) return;
    let text = current.parts.join("").replace(/\s+/g, " ").trim();
    // Right-to-left runs come in visual order: put the line back in reading order (bidi.ts).
    if (current.runs.length > 1 && hasRtl(text)) text = logicalLineText(current.runs);
    if (text !== "")
      lines.push({
        text,
        size: current.size,
        y: current.y,
        x: current.x,
        page,
        gap: 0,
        runs: current.runs,
        ...(current.box === undefined ? {} : { box: current.box }),
      });
    current = null;
  };
  for (const item of items) {
    if (typeof item.str !== "string") continue;
    const [a = 0, b = 0, , , e = 0, f = 0] = item.transform;
    const size = Math.round(Math.hypot(a, b) * 10) / 10 || item.height;
    if (current !== null && Math.abs(f - current.y) > Math.max(2, Math.min(size, current.size) * 0.5))
      finish();
    if (item.str === "" && !item.hasEOL) continue;
    if (current === null) {
      current = { parts: [], size, y: f, x: e, lastEnd: e, runs: [] };
    } else if (
      item.str !== "" &&
      e - current.lastEnd > size * 0.25 &&
      !current.parts[current.parts.length - 1]?.endsWith(" ")
    ) {
      current.parts.push(" ");
    }
    current.parts.push(item.str);
    if (item.str.trim() !== "") {
      current.size = Math.max(current.size, size);
      current.runs.push({ text: item.str, x: e, end: e + item.width, size });
      current.box = unionBox(current.box, runBox(e, e + item.width, f, size)) as BoundingBox;
    }
    current.lastEnd = e + item.width;
    if (item.hasEOL) finish();
  }
  finish();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as Line;
    line.gap = Math.abs((lines[i - 1] as Line).y - line.y);
  }
  return lines;
}

/** The page's lines with each detected table standing in for the lines it covers. */
async function withTables(page: PdfPage, lines: Line[], OPS: PdfJs["OPS"]): Promise<Line[]> {
  // The operator list (ruling lines) is built only for pages whose text is laid out like a table.
  if (!mayHoldTable(lines)) return lines;
  let tables = detectTables(lines, []);
  // Rulings are read (the operator list built) only where they could change the tables found from text.
  if (needsRulings(lines, tables)) {
    tables = detectTables(lines, rulingsOf(await page.getOperatorList(), OPS));
  }
  if (tables.length === 0) return lines;
  const out: Line[] = [];
  let next = 0;
  for (const table of tables) {
    out.push(...lines.slice(next, table.first));
    const first = lines[table.first] as Line;
    let box: BoundingBox | undefined;
    for (const line of lines.slice(table.first, table.last + 1)) box = unionBox(box, line.box);
    out.push({ ...first, text: "", table: table.rows, ...(box === undefined ? {} : { box }) });
    next = table.last + 1;
  }
  out.push(...lines.slice(next));
  return out;
}

/** Groups lines into blocks: headings by font size rank, list items by bullets, paragraphs by spacing. */
function linesToBlocks(lines: Line[], pageCount: number): Block[] {
  const stats = fontStatistics(lines);

  const blocks: Block[] = [];
  let paragraph: Line[] = [];
  let list: {
    items: string[];
    boxes: Array<BoundingBox | undefined>;
    ordered: boolean;
    page: number;
  } | null = null;
  const flushParagraph = () => {
    if (paragraph.length > 0) {
      const first = paragraph[0] as Line;
      let text = "";
      for (const line of paragraph) {
        if (text === "") text = line.text;
        else if (text.endsWith("-") && /^[a-z]/.test(line.text)) text = text.slice(0, -1) + line.text;
        else text = `${text} ${line.text}`;
      }
      let box: BoundingBox | undefined;
      for (const line of paragraph) box = unionBox(box, line.box);
      blocks.push({ type: "paragraph", text, page: first.page, ...boxField(box) });
    }
    paragraph = [];
  };
  const flushList = () => {
    if (list !== null && list.items.length > 0) {
      blocks.push({
        type: "list",
        ordered: list.ordered,
        items: list.items.map((text, index) => ({ text, depth: 0, ...boxField(list?.boxes[index]) })),
        page: list.page,
        ...boxField(list.boxes.reduce(unionBox, undefined)),
      });
    }
    list = null;
  };
  let page = 0;
  for (const line of lines) {
    if (line.page !== page) {
      flushParagraph();
      flushList();
      for (let p = page + 1; p <= line.page; p++) blocks.push({ type: "page", number: p });
      page = line.page;
    }
    if (line.table !== undefined) {
      flushParagraph();
      flushList();
      blocks.push({ type: "table", rows: line.table, header: true, page: line.page, ...boxField(line.box) });
      continue;
    }
    const level = headingLevel(line, stats);
    if (level !== null) {
      flushParagraph();
      flushList();
      const previous = blocks[blocks.length - 1];
      // A heading wrapped over two lines of the same size is one heading.
      if (
        previous?.type === "heading" &&
        previous.level === level &&
        previous.page === line.page &&
        line.gap < line.size * 1.6
      ) {
        previous.text = `${previous.text} ${line.text}`;
        Object.assign(previous, boxField(unionBox(previous.bbox, line.box)));
      } else blocks.push({ type: "heading", level, text: line.text, page: line.page, ...boxField(line.box) });
      continue;
    }
    const bullet = BULLET.exec(line.text);
    if (bullet !== null) {
      flushParagraph();
      const ordered = /\d/.test(bullet[1] as string);
      if (list === null || list.ordered !== ordered) {
        flushList();
        list = { items: [], boxes: [], ordered, page: line.page };
      }
      list.items.push(line.text.slice(bullet[0].length));
      list.boxes.push(line.box);
      continue;
    }
    if (
      list !== null &&
      line.gap > 0 &&
      line.gap < line.size * 1.6 &&
      paragraph.length === 0 &&
      list.items.length > 0
    ) {
      // Continuation line of a list item.
      list.items[list.items.length - 1] = `${list.items[list.items.length - 1]} ${line.text}`;
      list.boxes[list.boxes.length - 1] = unionBox(list.boxes[list.boxes.length - 1], line.box);
      continue;
    }
    flushList();
    const last = paragraph[paragraph.length - 1];
    if (
      last !== undefined &&
      (line.gap > last.size * 1.6 || line.gap === 0 || Math.abs(line.size - last.size) > 0.5)
    ) {
      flushParagraph();
    }
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  for (let p = page + 1; p <= pageCount; p++) blocks.push({ type: "page", number: p });
  return blocks;
}

/** `bbox` for a block, rounded, or nothing when no run gave a box. */
function boxField(box: BoundingBox | undefined): { bbox?: BoundingBox } {
  const rounded = roundBox(box);
  return rounded === undefined ? {} : { bbox: rounded };
}

function pdfDate(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(value);
  if (m === null) return value;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00"] = m;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
}

export async function parsePdf(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const pdfjs = await loadPdfJs();
  const doc = await openPdf(bytes);
  try {
    const total = doc.numPages;
    const pageCount = options.maxPages === undefined ? total : Math.min(total, options.maxPages);
    const lines: Line[] = [];
    const pagesWithoutText: number[] = [];
    for (let number = 1; number <= pageCount; number++) {
      const page = await doc.getPage(number);
      try {
        const content = await page.getTextContent();
        const found = pageLines(content.items as TextItemLike[], number);
        if (found.reduce((sum, line) => sum + line.text.length, 0) < 8) pagesWithoutText.push(number);
        for (const line of await withTables(page, found, pdfjs.OPS)) lines.push(line);
      } finally {
        page.cleanup();
      }
    }
    const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as {
      info: Record<string, unknown>;
    };
    const text = (key: string) => (typeof info[key] === "string" ? (info[key] as string) : undefined);
    const metadata: Record<string, MetadataValue> = compactMetadata({
      title: text("Title"),
      author: text("Author"),
      subject: text("Subject"),
      keywords: text("Keywords"),
      creator: text("Creator"),
      producer: text("Producer"),
      created: pdfDate(info.CreationDate),
      modified: pdfDate(info.ModDate),
      pages: total,
      pdfVersion: text("PDFFormatVersion"),
    });
    const notes =
      pageCount < total ? [`Only the first ${pageCount} of ${total} pages were processed (maxPages).`] : [];
    return {
      model: {
        schema: "groundwork.document/v1",
        format: "pdf",
        pageCount: total,
        metadata,
        notes,
        blocks: linesToBlocks(withoutPageFurniture(lines), pageCount),
      },
      children: [],
      pagesWithoutText,
      expandedBytes: 0,
    };
  } finally {
    await doc.destroy();
  }
}

export interface RenderedPage {
  page: number;
  png: Uint8Array;
  width: number;
  height: number;
}

/** Renders pages to PNG (for OCR and vision models), one at a time. */
export async function renderPdfPages(
  bytes: Uint8Array,
  pages: number[],
  scale: number,
): Promise<RenderedPage[]> {
  const { createCanvas } = await import("@napi-rs/canvas");
  const doc = await openPdf(bytes);
  const out: RenderedPage[] = [];
  try {
    for (const number of pages) {
      if (number < 1 || number > doc.numPages) continue;
      const page = await doc.getPage(number);
      try {
        const viewport = page.getViewport({ scale });
        const width = Math.max(1, Math.ceil(viewport.width));
        const height = Math.max(1, Math.ceil(viewport.height));
        const canvas = createCanvas(width, height);
        const context = canvas.getContext("2d");
        context.fillStyle = "#ffffff";
        context.fillRect(0, 0, width, height);
        await page.render({
          canvas: canvas as never,
          canvasContext: context as never,
          viewport,
        }).promise;
        out.push({ page: number, png: new Uint8Array(await canvas.encode("png")), width, height });
      } finally {
        page.cleanup();
      }
    }
  } finally {
    await doc.destroy();
  }
  return out;
}
