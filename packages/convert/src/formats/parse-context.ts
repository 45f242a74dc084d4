import type { Block, DocumentModel, MetadataValue } from "../document-model.js";
import type { Pipeline } from "../formats.js";
import type { ConversionLimits } from "../limits.js";

/** What the parse worker receives with each document. */
export interface ParseOptions {
  filename: string;
  pipeline: Pipeline;
  /** Keep images as `data:` URLs (imageExportMode `embedded`, or OCR of embedded pictures). */
  embedImages: boolean;
  /** Pages to read in paged formats (ocr/vlm `maxPages`); undefined means all. */
  maxPages: number | undefined;
  limits: ConversionLimits;
  /** Bytes still allowed for archive expansion in this batch (shared by nested archives). */
  expansionBudget: number;
}

/** A file found inside a container (archive entry, mail attachment). */
export interface ChildDocument {
  filename: string;
  bytes: Uint8Array;
  mimeType?: string;
}

export interface ParsedDocument {
  /** The document itself; null for pure containers (ZIP). */
  model: Omit<DocumentModel, "pipeline" | "filename"> | null;
  children: ChildDocument[];
  /** Pages with no text layer (PDF): candidates for OCR. */
  pagesWithoutText: number[];
  /** Bytes taken from the expansion budget. */
  expandedBytes: number;
}

export function documentOf(
  format: string,
  blocks: Block[],
  metadata: Record<string, MetadataValue> = {},
  extra: { pageCount?: number; notes?: string[] } = {},
): ParsedDocument {
  return {
    model: {
      schema: "groundwork.document/v1",
      format,
      metadata,
      notes: extra.notes ?? [],
      blocks,
      ...(extra.pageCount === undefined ? {} : { pageCount: extra.pageCount }),
    },
    children: [],
    pagesWithoutText: [],
    expandedBytes: 0,
  };
}

/** Drops empty strings and nulls so metadata stays compact. */
export function compactMetadata(
  entries: Record<string, MetadataValue | undefined>,
): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}
