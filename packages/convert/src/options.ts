import type { Pipeline } from "./formats.js";

export const OUTPUT_FORMATS = ["MD", "TEXT", "JSON", "HTML"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * OCR engines this build runs. tesseract.js is the only one: the spec's other example
 * (`easyocr`) is a Python library with its own models, which a Node engine cannot load.
 */
export const OCR_ENGINES = ["tesseract"] as const;
export type OcrEngineName = (typeof OCR_ENGINES)[number];

/** The engine named by an `ocrEngine` option (case-insensitive), or null when none of ours. */
export function ocrEngineOf(value: string): OcrEngineName | null {
  const name = value.trim().toLowerCase();
  return (OCR_ENGINES as readonly string[]).includes(name) ? (name as OcrEngineName) : null;
}

export function unsupportedOcrEngineMessage(value: unknown): string {
  const shown = typeof value === "string" ? `"${value}"` : `a ${value === null ? "null" : typeof value}`;
  return `OCR engine ${shown} is not supported; this server runs: ${OCR_ENGINES.join(", ")}`;
}

/** Pipeline options: `options.options` of a request body, the `options` part of an upload. */
export interface PipelineOptions {
  outputFormats?: OutputFormat[];
  imageExportMode?: "placeholder" | "embedded";
  /** Only `tesseract`; any other value makes `convert()` throw a RangeError. */
  ocrEngine?: OcrEngineName;
  ocrLanguages?: string[];
  /** Accepted and ignored: pdfjs is the only PDF backend (docs/decisions.md C1). */
  pdfBackend?: string;
  /** Accepted and ignored: tables come from the format's own structure (docs/decisions.md C1). */
  tableStructure?: boolean;
  maxPages?: number;
  imagesScale?: number;
  /** Accepted and ignored: no picture classifier ships (docs/decisions.md C1). */
  pictureClassification?: boolean;
}

export interface ConversionOptions {
  pipeline?: Pipeline;
  /** Seconds allowed per document. */
  timeout?: number;
  abortOnError?: boolean;
  extractMetadata?: boolean;
  options?: PipelineOptions;
}

export interface ResolvedOptions {
  pipeline: Pipeline;
  timeoutMs: number;
  abortOnError: boolean;
  extractMetadata: boolean;
  outputFormats: OutputFormat[];
  imageExportMode: "placeholder" | "embedded";
  ocrLanguages: string[];
  maxPages: number | undefined;
  imagesScale: number;
  /** Notes for ocr/vlm documents naming the options this engine accepted but cannot apply. */
  ignoredOptionNotes: string[];
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
export const DEFAULT_IMAGES_SCALE = 2;

/** Throws a RangeError for an option no document could be converted with (a caller error). */
export function resolveOptions(options: ConversionOptions = {}): ResolvedOptions {
  const nested = options.options ?? {};
  if (nested.ocrEngine !== undefined && ocrEngineOf(String(nested.ocrEngine)) === null) {
    throw new RangeError(unsupportedOcrEngineMessage(nested.ocrEngine));
  }
  return {
    pipeline: options.pipeline ?? "fast",
    timeoutMs: Math.max(1, (options.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000),
    abortOnError: options.abortOnError ?? false,
    extractMetadata: options.extractMetadata ?? true,
    outputFormats:
      nested.outputFormats !== undefined && nested.outputFormats.length > 0
        ? [...new Set(nested.outputFormats)]
        : ["MD", "TEXT"],
    imageExportMode: nested.imageExportMode ?? "placeholder",
    ocrLanguages: nested.ocrLanguages ?? ["eng"],
    maxPages: nested.maxPages,
    imagesScale: nested.imagesScale ?? DEFAULT_IMAGES_SCALE,
    ignoredOptionNotes: ignoredOptionNotes(nested),
  };
}

/**
 * pdfBackend, tableStructure and pictureClassification name parts of another engine (docling's
 * PDF backends, table-structure and picture-classifier models). Refusing them would break
 * clients written for it, so they are accepted; the documents say they were not applied.
 */
function ignoredOptionNotes(nested: PipelineOptions): string[] {
  const notes: string[] = [];
  if (nested.pdfBackend !== undefined) {
    notes.push(`pdfBackend "${nested.pdfBackend}" was ignored: pdf.js is the only PDF backend here`);
  }
  if (nested.tableStructure !== undefined) {
    notes.push(
      "tableStructure was ignored: tables come from the document's own structure; no table-structure model runs on page images",
    );
  }
  if (nested.pictureClassification !== undefined) {
    notes.push("pictureClassification was ignored: no picture classifier is available");
  }
  return notes;
}
