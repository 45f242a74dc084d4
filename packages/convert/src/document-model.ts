/**
 * The one internal document model every input format is converted into and every
 * output format is rendered from. It is plain data (structured-clone safe) so it
 * can cross the worker boundary, and it is exactly what the `JSON` output returns
 * (documented in docs/conversion.md).
 */

export const DOCUMENT_MODEL_VERSION = "groundwork.document/v1";

export type MetadataValue = string | number | boolean | null | string[];

/**
 * Where a block lies on its PDF page: `[x0, y0, x1, y1]` in PDF points, in the page's user space as
 * pdf.js reports text positions (origin bottom-left, y upwards; x0 < x1, y0 < y1). The union of the
 * boxes of the text runs the block was built from; each run spans its baseline − 0.2 × font size to
 * baseline + 0.9 × font size. Only blocks built from PDF text carry one.
 */
export type BoundingBox = [number, number, number, number];

export interface HeadingBlock {
  type: "heading";
  /** 1 (title) to 6. */
  level: number;
  text: string;
  /** The text with its inline formatting as Markdown (bold, italic, links, code spans); only when the source had some. */
  markdown?: string;
  page?: number;
  bbox?: BoundingBox;
}

export interface ParagraphBlock {
  type: "paragraph";
  text: string;
  /** The text with its inline formatting as Markdown (bold, italic, links, code spans); only when the source had some. */
  markdown?: string;
  page?: number;
  bbox?: BoundingBox;
}

export interface ListItem {
  text: string;
  /** The text with its inline formatting as Markdown (bold, italic, links, code spans); only when the source had some. */
  markdown?: string;

  /** Nesting depth, 0 for top-level items. */
  depth: number;
  /** The item's own box on the page (PDF). */
  bbox?: BoundingBox;
}

export interface ListBlock {
  type: "list";
  ordered: boolean;
  items: ListItem[];
  page?: number;
  bbox?: BoundingBox;
}

export interface TableBlock {
  type: "table";
  /** Cell text, row by row; the first row is the header when `header` is true. */
  rows: string[][];
  /** The cells as Markdown (escaped pipes kept) when any cell of the source was formatted. */
  markdownRows?: string[][];
  header: boolean;
  caption?: string;
  page?: number;
  bbox?: BoundingBox;
}

export interface PictureBlock {
  type: "picture";
  /** Alternative text or a caption from the source document. */
  alt?: string;
  mimeType?: string;
  /** `data:` URL, only with `imageExportMode: embedded`. */
  dataUrl?: string;
  /** Text recognised in the picture (OCR or a vision model). */
  text?: string;
  page?: number;
}

export interface CodeBlock {
  type: "code";
  text: string;
  language?: string;
  page?: number;
}

/** Start of a page (PDF) or of a sheet/slide; renderers use them as boundaries. */
export interface PageBoundary {
  type: "page";
  number: number;
}

export interface SectionBoundary {
  type: "section";
  kind: "sheet" | "slide" | "attachment" | "layer";
  /** 1-based position of the sheet or slide. */
  index: number;
  title: string;
}

export type Block =
  | HeadingBlock
  | ParagraphBlock
  | ListBlock
  | TableBlock
  | PictureBlock
  | CodeBlock
  | PageBoundary
  | SectionBoundary;

export interface DocumentModel {
  schema: typeof DOCUMENT_MODEL_VERSION;
  filename: string;
  /** Detected input format (see `InputFormat`). */
  format: string;
  pipeline: string;
  /** Number of pages for paged formats (PDF), sheets or slides otherwise; absent when meaningless. */
  pageCount?: number;
  metadata: Record<string, MetadataValue>;
  /** Statements about what could not be extracted, e.g. for DWG. */
  notes: string[];
  blocks: Block[];
}

/** Cuts a run of whitespace to a single space; used by every converter for inline text. */
export function normalizeInline(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}
