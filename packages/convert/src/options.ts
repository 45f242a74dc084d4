import type { Pipeline } from "./formats.js";

export const OUTPUT_FORMATS = ["MD", "TEXT", "JSON", "HTML"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Pipeline options: `options.options` of a request body, the `options` part of an upload. */
export interface PipelineOptions {
  outputFormats?: OutputFormat[];
  imageExportMode?: "placeholder" | "embedded";
  ocrEngine?: string;
  ocrLanguages?: string[];
  pdfBackend?: string;
  tableStructure?: boolean;
  maxPages?: number;
  imagesScale?: number;
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
}

export const DEFAULT_TIMEOUT_SECONDS = 120;
export const DEFAULT_IMAGES_SCALE = 2;

export function resolveOptions(options: ConversionOptions = {}): ResolvedOptions {
  const nested = options.options ?? {};
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
  };
}
