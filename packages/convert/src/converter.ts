/**
 * The conversion engine: takes a batch of documents, converts each one through
 * the pipeline suited to it (parse workers, OCR, vision model), expands
 * containers recursively, and renders the requested output formats. A failing
 * document becomes an `errors` entry; the batch goes on unless `abortOnError`.
 */

import { DocumentError, type DocumentErrorCode, isDocumentError } from "./document-error.js";
import type { Block, DocumentModel, MetadataValue } from "./document-model.js";
import { markdownToBlocks } from "./formats/markdown.js";
import type { ChildDocument, ParsedDocument, ParseOptions } from "./formats/parse-context.js";
import type { RenderedPage } from "./formats/pdf.js";
import {
  type Detection,
  detectFormat,
  FORMAT_LABELS,
  FORMAT_MEDIA_TYPES,
  type InputFormat,
  imageMimeType,
  PIPELINE_SUPPORT,
  type Pipeline,
} from "./formats.js";
import { type ConversionLimits, DEFAULT_LIMITS } from "./limits.js";
import type { OcrEngine, TesseractOcrOptions } from "./ocr.js";
import { type ConversionOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { renderHtml } from "./render/html.js";
import { renderMarkdown } from "./render/markdown.js";
import { renderText } from "./render/text.js";
import { transcribePage, type VisionModel } from "./vlm.js";
import { WorkerPool } from "./worker-pool.js";
import { ooxmlKindOf } from "./zip-directory.js";

/** A document to convert: bytes in hand, or a loader (e.g. an HTTP fetch) run under the document's timeout. */
export type ConversionInput =
  | { filename?: string; mimeType?: string; bytes: Uint8Array }
  | {
      filename: string;
      load(signal: AbortSignal): Promise<{ bytes: Uint8Array; filename?: string; mimeType?: string }>;
    };

export interface ConvertedDocument {
  filename: string;
  mdContent?: string;
  textContent?: string;
  jsonContent?: DocumentModel;
  htmlContent?: string;
  /** With `extractMetadata` (default true). */
  metadata?: Record<string, MetadataValue>;
}

/** One failed document (docs/conversion.md, "Error entries"). */
export interface ConversionErrorEntry {
  filename: string;
  code: DocumentErrorCode;
  message: string;
  pipeline: Pipeline;
  format: InputFormat | null;
}

export type ConversionStatus = "SUCCESS" | "PARTIAL_SUCCESS" | "FAILURE";

export interface ConversionResult {
  documents: ConvertedDocument[];
  errors: ConversionErrorEntry[];
  status: ConversionStatus;
  /** Wall-clock seconds for the whole batch (float). */
  processingTime: number;
}

export interface ConvertCallOptions {
  signal?: AbortSignal;
  /** Called after each top-level document (with the number processed so far). */
  onProgress?: (processed: number) => void;
  /** Overrides the converter's vision model for this call. */
  vision?: VisionModel | null;
  /** Called for each converted document (containers' members included) with its page count, when it has one (billing). */
  onDocument?: (pageCount: number | undefined) => void;
}

export interface DocumentConverterOptions {
  vision?: VisionModel | null;
  /** OCR engine; by default tesseract.js from `@groundwork/convert/ocr`, started on first use. */
  ocr?: OcrEngine;
  /** Options of that default engine, e.g. `tessdataDir` for traineddata kept in a folder (unused with `ocr`). */
  ocrOptions?: TesseractOcrOptions;
  limits?: Partial<ConversionLimits>;
  /** Parse workers kept alive (default 2). */
  workers?: number;
  /** Message for vlm documents when no vision model is configured. */
  vlmUnavailableMessage?: string;
}

const CONTAINERS: ReadonlySet<InputFormat> = new Set(["zip", "eml", "msg"]);
const MAX_PICTURES_OCR = 50;
const RENDER_BATCH = 2;

export function statusOf(documents: number, errors: number, abortOnError: boolean): ConversionStatus {
  if (errors === 0) return "SUCCESS";
  if (documents === 0 || abortOnError) return "FAILURE";
  return "PARTIAL_SUCCESS";
}

interface Job {
  options: ResolvedOptions;
  vision: VisionModel | null;
  documents: ConvertedDocument[];
  errors: ConversionErrorEntry[];
  budget: { remaining: number };
  onDocument: ((pageCount: number | undefined) => void) | undefined;
}

class AbortBatch extends Error {}

export class DocumentConverter {
  private readonly limits: ConversionLimits;
  private readonly pool: WorkerPool;
  private readonly vision: VisionModel | null;
  private ocr: OcrEngine | null;
  private ocrLoading: Promise<OcrEngine> | null = null;
  private readonly ownsOcr: boolean;
  private readonly ocrOptions: TesseractOcrOptions;
  private readonly vlmUnavailableMessage: string;

  constructor(options: DocumentConverterOptions = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.pool = new WorkerPool({ size: options.workers ?? 2, heapMb: this.limits.workerHeapMb });
    this.vision = options.vision ?? null;
    this.ocr = options.ocr ?? null;
    this.ownsOcr = options.ocr === undefined;
    this.ocrOptions = options.ocrOptions ?? {};
    this.vlmUnavailableMessage =
      options.vlmUnavailableMessage ??
      "The vlm pipeline needs a vision model, and none is configured for this converter";
  }

  async convert(
    inputs: readonly ConversionInput[],
    options: ConversionOptions = {},
    call: ConvertCallOptions = {},
  ): Promise<ConversionResult> {
    const started = performance.now();
    const resolved = resolveOptions(options);
    const job: Job = {
      options: resolved,
      vision: call.vision === undefined ? this.vision : call.vision,
      documents: [],
      errors: [],
      budget: { remaining: this.limits.maxExpandedBytes },
      onDocument: call.onDocument,
    };
    let processed = 0;
    try {
      for (const [index, input] of inputs.entries()) {
        call.signal?.throwIfAborted();
        job.budget.remaining = this.limits.maxExpandedBytes;
        const filename = input.filename ?? `document-${index + 1}`;
        await this.convertOne(job, input, filename, 0, call.signal);
        processed++;
        call.onProgress?.(processed);
      }
    } catch (error) {
      if (!(error instanceof AbortBatch)) throw error;
    }
    return {
      documents: job.documents,
      errors: job.errors,
      status: statusOf(job.documents.length, job.errors.length, resolved.abortOnError),
      processingTime: Math.round(performance.now() - started) / 1000,
    };
  }

  async close(): Promise<void> {
    await this.pool.close();
    if (this.ownsOcr && this.ocr !== null) await this.ocr.close();
  }

  private fail(
    job: Job,
    filename: string,
    pipeline: Pipeline,
    format: InputFormat | null,
    error: unknown,
  ): void {
    const entry: ConversionErrorEntry = isDocumentError(error)
      ? { filename, code: error.code, message: error.message, pipeline, format }
      : {
          filename,
          code: "internal_error",
          message: `Conversion failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
          pipeline,
          format,
        };
    job.errors.push(entry);
    if (job.options.abortOnError) throw new AbortBatch();
  }

  private async convertOne(
    job: Job,
    input: ConversionInput | ChildDocument,
    filename: string,
    depth: number,
    batchSignal: AbortSignal | undefined,
  ): Promise<void> {
    const { options } = job;
    await this.pool.warm(batchSignal);
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new DocumentError(
            "timeout",
            `Conversion took longer than the ${options.timeoutMs / 1000} s allowed per document`,
          ),
        ),
      options.timeoutMs,
    );
    const signal =
      batchSignal === undefined ? timeout.signal : AbortSignal.any([batchSignal, timeout.signal]);
    let pipeline = options.pipeline;
    let detection: Detection | null = null;
    let children: ChildDocument[] = [];
    try {
      const loaded = await this.load(input, signal);
      const name = depth === 0 && loaded.filename !== undefined ? loaded.filename : filename;
      filename = name;
      if (loaded.bytes.length > this.limits.maxDocumentBytes) {
        throw new DocumentError(
          "limit_exceeded",
          `The document has ${loaded.bytes.length} bytes; the cap is ${this.limits.maxDocumentBytes}`,
        );
      }
      detection = detectFormat(loaded.bytes, name, loaded.mimeType, ooxmlKindOf);
      const format = detection.format;
      const supported = PIPELINE_SUPPORT[format];
      if (!supported.includes(pipeline)) {
        if (depth === 0) {
          throw new DocumentError(
            "unsupported_pipeline",
            `${FORMAT_LABELS[format]} documents support the ${supported.join(", ")} pipeline${supported.length > 1 ? "s" : ""}; "${pipeline}" was requested`,
          );
        }
        // Inside a container each file takes the pipeline suited to it.
        pipeline = supported.includes("fast") ? "fast" : (supported[0] as Pipeline);
      }
      if (CONTAINERS.has(format) && depth >= this.limits.maxNestingDepth) {
        throw new DocumentError(
          "limit_exceeded",
          `Containers are nested deeper than ${this.limits.maxNestingDepth} levels`,
        );
      }
      const model = await this.buildModel(job, loaded.bytes, name, detection, pipeline, signal, (found) => {
        children = found;
      });
      if (model !== null) this.emit(job, model, detection);
    } catch (error) {
      const reason = signal.aborted ? signal.reason : error;
      if (batchSignal?.aborted) throw batchSignal.reason;
      this.fail(job, filename, pipeline, detection?.format ?? null, reason);
      return;
    } finally {
      clearTimeout(timer);
    }
    for (const child of children) {
      await this.convertOne(job, child, `${filename}/${child.filename}`, depth + 1, batchSignal);
    }
  }

  private async load(
    input: ConversionInput | ChildDocument,
    signal: AbortSignal,
  ): Promise<{ bytes: Uint8Array; filename?: string; mimeType?: string }> {
    if ("load" in input) {
      const race = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
      return Promise.race([input.load(signal), race]);
    }
    return input;
  }

  private async buildModel(
    job: Job,
    bytes: Uint8Array,
    filename: string,
    detection: Detection,
    pipeline: Pipeline,
    signal: AbortSignal,
    onChildren: (children: ChildDocument[]) => void,
  ): Promise<DocumentModel | null> {
    const { options } = job;
    const format = detection.format;
    if (format === "image") return this.convertImage(job, bytes, filename, pipeline, signal);

    const wantsPictureOcr =
      pipeline === "ocr" && (format === "docx" || format === "pptx" || format === "html");
    const parseOptions: ParseOptions = {
      filename,
      pipeline,
      embedImages: options.imageExportMode === "embedded" || wantsPictureOcr,
      maxPages: pipeline === "fast" ? undefined : options.maxPages,
      limits: this.limits,
      expansionBudget: job.budget.remaining,
    };
    // PDFs are parsed from a copy when their pages may have to be rendered afterwards.
    const keepBytes = format === "pdf" && pipeline !== "fast";
    const parsed = await this.pool.run<ParsedDocument>(
      { op: "parse", format, bytes: keepBytes ? bytes.slice() : bytes, options: parseOptions },
      signal,
    );
    job.budget.remaining -= parsed.expandedBytes;
    onChildren(parsed.children);
    if (parsed.model === null) return null;
    const model: DocumentModel = { ...parsed.model, filename, pipeline };

    if (format === "pdf" && pipeline === "ocr" && parsed.pagesWithoutText.length > 0) {
      await this.ocrPdfPages(job, model, bytes, parsed.pagesWithoutText, signal);
    } else if (format === "pdf" && pipeline === "vlm") {
      await this.vlmPdfPages(job, model, bytes, signal);
    } else if (pipeline === "vlm" && format !== "pdf") {
      model.notes.push(
        `${FORMAT_LABELS[format]} has no page images to send to a vision model; its own structure was read.`,
      );
    }
    if (wantsPictureOcr) await this.ocrPictures(job, model, signal);
    return model;
  }

  private async ocrEngine(): Promise<OcrEngine> {
    if (this.ocr !== null) return this.ocr;
    this.ocrLoading ??= import("./ocr.js").then(({ TesseractOcrEngine }) => {
      this.ocr = new TesseractOcrEngine(this.ocrOptions);
      return this.ocr;
    });
    return this.ocrLoading;
  }

  private requireVision(job: Job): VisionModel {
    if (job.vision === null) throw new DocumentError("vlm_unavailable", this.vlmUnavailableMessage);
    return job.vision;
  }

  private async convertImage(
    job: Job,
    bytes: Uint8Array,
    filename: string,
    pipeline: Pipeline,
    signal: AbortSignal,
  ): Promise<DocumentModel> {
    const mimeType = imageMimeType(bytes) ?? "application/octet-stream";
    const picture: Block = { type: "picture", mimeType };
    if (job.options.imageExportMode === "embedded")
      picture.dataUrl = `data:${mimeType};base64,${Buffer.from(bytes).toString("base64")}`;
    const blocks: Block[] = [picture];
    const metadata: Record<string, MetadataValue> = { mimeType };
    if (pipeline === "vlm") {
      const vision = this.requireVision(job);
      const markdown = await transcribePage(vision, bytes, mimeType, signal);
      blocks.push(...markdownToBlocks(markdown).blocks);
      metadata.visionModel = vision.model;
    } else {
      const ocr = await this.ocrEngine();
      const result = await ocr.recognize(bytes, job.options.ocrLanguages, signal);
      blocks.push(...ocrBlocks(result.text));
      metadata.ocrConfidence = Math.round(result.confidence * 10) / 10;
      metadata.ocrEngine = "tesseract";
    }
    return {
      schema: "groundwork.document/v1",
      filename,
      format: "image",
      pipeline,
      metadata,
      notes: [],
      blocks,
    };
  }

  private async renderPages(
    bytes: Uint8Array,
    pages: number[],
    scale: number,
    signal: AbortSignal,
  ): Promise<RenderedPage[]> {
    return this.pool.run<RenderedPage[]>({ op: "render", bytes: bytes.slice(), pages, scale }, signal);
  }

  /** OCR for pages without a text layer (scanned pages); their text is placed at the page's position. */
  private async ocrPdfPages(
    job: Job,
    model: DocumentModel,
    bytes: Uint8Array,
    pages: number[],
    signal: AbortSignal,
  ): Promise<void> {
    const ocr = await this.ocrEngine();
    const texts = new Map<number, string>();
    for (let i = 0; i < pages.length; i += RENDER_BATCH) {
      const rendered = await this.renderPages(
        bytes,
        pages.slice(i, i + RENDER_BATCH),
        job.options.imagesScale,
        signal,
      );
      for (const page of rendered) {
        const result = await ocr.recognize(page.png, job.options.ocrLanguages, signal);
        texts.set(page.page, result.text);
        if (job.options.imageExportMode === "embedded") {
          texts.set(-page.page, `data:image/png;base64,${Buffer.from(page.png).toString("base64")}`);
        }
      }
    }
    model.blocks = insertPageBlocks(model.blocks, (page) => {
      const text = texts.get(page);
      if (text === undefined) return null;
      const image = texts.get(-page);
      return [
        { type: "picture", mimeType: "image/png", page, ...(image === undefined ? {} : { dataUrl: image }) },
        ...ocrBlocks(text).map((block) => ({ ...block, page })),
      ];
    });
    model.metadata.ocrPages = pages.length;
    model.metadata.ocrEngine = "tesseract";
  }

  /** The vlm pipeline for PDFs: every page (up to maxPages) is rendered and transcribed. */
  private async vlmPdfPages(
    job: Job,
    model: DocumentModel,
    bytes: Uint8Array,
    signal: AbortSignal,
  ): Promise<void> {
    const vision = this.requireVision(job);
    const total = model.pageCount ?? 0;
    const count = job.options.maxPages === undefined ? total : Math.min(total, job.options.maxPages);
    const blocks: Block[] = [];
    for (let first = 1; first <= count; first += RENDER_BATCH) {
      const pages = Array.from({ length: Math.min(RENDER_BATCH, count - first + 1) }, (_, i) => first + i);
      for (const page of await this.renderPages(bytes, pages, job.options.imagesScale, signal)) {
        const markdown = await transcribePage(vision, page.png, "image/png", signal);
        blocks.push({ type: "page", number: page.page });
        for (const block of markdownToBlocks(markdown).blocks)
          blocks.push(
            block.type === "page" || block.type === "section" ? block : { ...block, page: page.page },
          );
      }
    }
    model.blocks = blocks;
    model.metadata.visionModel = vision.model;
  }

  private async ocrPictures(job: Job, model: DocumentModel, signal: AbortSignal): Promise<void> {
    let done = 0;
    for (const block of model.blocks) {
      if (block.type !== "picture" || block.dataUrl === undefined) continue;
      if (done < MAX_PICTURES_OCR) {
        const base64 = block.dataUrl.slice(block.dataUrl.indexOf(",") + 1);
        const image = Buffer.from(base64, "base64");
        if (imageMimeType(image) !== null) {
          const ocr = await this.ocrEngine();
          const text = (await ocr.recognize(image, job.options.ocrLanguages, signal)).text.trim();
          if (text !== "") block.text = text;
          done++;
        }
      }
      if (job.options.imageExportMode !== "embedded") delete block.dataUrl;
    }
  }

  private emit(job: Job, model: DocumentModel, detection: Detection): void {
    const { options } = job;
    const metadata: Record<string, MetadataValue> = {
      format: model.format,
      mediaType:
        model.format === "image"
          ? ((model.metadata.mimeType as string | undefined) ?? "image/*")
          : FORMAT_MEDIA_TYPES[model.format as InputFormat],
      pipeline: model.pipeline,
      detectedBy: detection.detectedBy,
      ...(detection.mismatch && detection.declared !== null ? { declaredFormat: detection.declared } : {}),
      ...(model.pageCount === undefined ? {} : { pageCount: model.pageCount }),
      ...model.metadata,
    };
    // The options that would steer ocr/vlm processing; fast documents never use them.
    if (model.pipeline !== "fast") model.notes.push(...options.ignoredOptionNotes);
    if (model.notes.length > 0) metadata.notes = model.notes;
    const json: DocumentModel = options.extractMetadata ? { ...model, metadata } : { ...model, metadata: {} };
    const document: ConvertedDocument = { filename: model.filename };
    for (const format of options.outputFormats) {
      if (format === "MD") document.mdContent = renderMarkdown(model);
      else if (format === "TEXT") document.textContent = renderText(model);
      else if (format === "HTML") document.htmlContent = renderHtml(model);
      else document.jsonContent = json;
    }
    if (options.extractMetadata) document.metadata = metadata;
    job.documents.push(document);
    job.onDocument?.(model.pageCount);
  }
}

function ocrBlocks(text: string): Block[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n+/)
    .map((chunk) => chunk.replace(/\s*\n\s*/g, " ").trim())
    .filter((chunk) => chunk !== "")
    .map((chunk) => ({ type: "paragraph", text: chunk }));
}

/** Inserts per-page blocks right after each page boundary (or at the end of that page). */
function insertPageBlocks(blocks: Block[], forPage: (page: number) => Block[] | null): Block[] {
  const out: Block[] = [];
  let current = 0;
  const flush = () => {
    if (current > 0) out.push(...(forPage(current) ?? []));
  };
  for (const block of blocks) {
    if (block.type === "page") {
      flush();
      current = block.number;
    }
    out.push(block);
  }
  flush();
  return out;
}

export type { DocumentErrorCode };
export { DocumentError };
