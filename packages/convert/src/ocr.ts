/**
 * OCR with tesseract.js (`@groundwork/convert/ocr`). Traineddata comes from a
 * `tessdataDir` folder or the installed `@tesseract.js-data/*` packages
 * (ocr-languages.ts) — nothing is downloaded at run time. Recognisers (each its
 * own worker thread) are pooled per language set and reused; one that is
 * cancelled mid-page is terminated and replaced.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { DocumentError } from "./document-error.js";
import { type LanguageSearch, locateLanguages, normalizeLanguages } from "./ocr-languages.js";

export { availableLanguages, locateLanguage, normalizeLanguages } from "./ocr-languages.js";

export interface OcrResult {
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
}

/** The port the converter uses; tests or hosts may supply another engine. */
export interface OcrEngine {
  recognize(image: Uint8Array, languages: readonly string[], signal?: AbortSignal): Promise<OcrResult>;
  close(): Promise<void>;
}

type TesseractWorker = Awaited<ReturnType<typeof import("tesseract.js").createWorker>>;

interface PooledWorker {
  key: string;
  worker: TesseractWorker;
  busy: boolean;
}

export interface TesseractOcrOptions {
  /** Recognisers kept per language set; OCR is CPU-bound, so about the core count. */
  poolSize?: number;
  /**
   * Folder for tesseract's cache; also where languages from different folders are linked
   * together, since a recogniser reads all its traineddata from one folder.
   */
  cachePath?: string;
  /**
   * A folder of `<lang>.traineddata` (or `.traineddata.gz`) files, searched before the
   * `@tesseract.js-data/<lang>` packages. The host passes it (from its own configuration);
   * the engine reads no environment variables.
   */
  tessdataDir?: string;
}

export class TesseractOcrEngine implements OcrEngine {
  private readonly pool: PooledWorker[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly poolSize: number;
  private readonly cachePath: string;
  private readonly search: LanguageSearch;

  constructor(options: TesseractOcrOptions = {}) {
    this.poolSize = Math.max(1, options.poolSize ?? 2);
    this.cachePath = options.cachePath ?? join(process.cwd(), ".groundwork", "tesseract-cache");
    this.search = { tessdataDir: options.tessdataDir };
  }

  async recognize(image: Uint8Array, requested: readonly string[], signal?: AbortSignal): Promise<OcrResult> {
    const languages = normalizeLanguages(requested);
    // Looked up on every call: data installed while the engine runs is picked up.
    const files = locateLanguages(languages, this.search);
    signal?.throwIfAborted();
    const slot = await this.acquire(languages, files, signal);
    let onAbort: (() => void) | undefined;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => {
          // tesseract cannot stop mid-page: drop the recogniser instead of waiting for it.
          this.discard(slot);
          reject(signal?.reason ?? new DocumentError("canceled", "OCR canceled"));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
      });
      const result = await Promise.race([slot.worker.recognize(Buffer.from(image)), aborted]);
      return { text: result.data.text, confidence: result.data.confidence };
    } catch (error) {
      if (signal?.aborted) throw error;
      this.discard(slot);
      throw new DocumentError(
        "ocr_failed",
        `OCR failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
      this.release(slot);
    }
  }

  private async acquire(
    languages: string[],
    files: Map<string, string>,
    signal?: AbortSignal,
  ): Promise<PooledWorker> {
    const key = languages.join("+");
    for (;;) {
      signal?.throwIfAborted();
      const idle = this.pool.find((slot) => !slot.busy && slot.key === key);
      if (idle !== undefined) {
        idle.busy = true;
        return idle;
      }
      if (this.pool.length >= this.poolSize) {
        // Make room by retiring an idle recogniser of another language set.
        const other = this.pool.find((slot) => !slot.busy);
        if (other !== undefined) this.discard(other);
      }
      if (this.pool.length < this.poolSize) {
        const slot: PooledWorker = { key, worker: await this.create(languages, files), busy: true };
        this.pool.push(slot);
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private async create(languages: string[], files: Map<string, string>): Promise<TesseractWorker> {
    const { createWorker } = await import("tesseract.js");
    try {
      const { langPath, gzip } = this.languageFolder(languages, files);
      return await createWorker(languages, 1, {
        langPath,
        gzip,
        cachePath: this.cachePath,
        cacheMethod: "none",
        logger: () => {},
        errorHandler: () => {},
      });
    } catch (error) {
      throw new DocumentError(
        "ocr_failed",
        `The OCR engine could not start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * tesseract.js reads every language of a recogniser from one folder as `<lang>.traineddata`
   * (or `.gz`). Languages that live in different folders (two data packages, or a package and
   * tessdataDir) are linked into one folder under cachePath first.
   */
  private languageFolder(
    languages: string[],
    files: Map<string, string>,
  ): { langPath: string; gzip: boolean } {
    const paths = languages.map((code) => files.get(code) as string);
    const folders = new Set(paths.map((file) => dirname(file)));
    const zipped = new Set(paths.map((file) => file.endsWith(".gz")));
    if (folders.size === 1 && zipped.size === 1) {
      return { langPath: [...folders][0] as string, gzip: [...zipped][0] as boolean };
    }
    const key = createHash("sha256").update(paths.join("\0")).digest("hex").slice(0, 16);
    const folder = join(this.cachePath, "languages", key);
    mkdirSync(folder, { recursive: true });
    for (const [index, code] of languages.entries()) {
      const file = paths[index] as string;
      // Every link is named `.gz`: tesseract.js tells gzipped data by its magic bytes, not its name.
      const link = join(folder, `${code}.traineddata.gz`);
      if (existsSync(link)) continue;
      try {
        symlinkSync(file, link);
      } catch {
        copyFileSync(file, link);
      }
    }
    return { langPath: folder, gzip: true };
  }

  private release(slot: PooledWorker): void {
    slot.busy = false;
    this.waiting.shift()?.();
  }

  private discard(slot: PooledWorker): void {
    const index = this.pool.indexOf(slot);
    if (index >= 0) this.pool.splice(index, 1);
    void slot.worker.terminate().catch(() => {});
  }

  async close(): Promise<void> {
    await Promise.all(this.pool.splice(0).map((slot) => slot.worker.terminate().catch(() => {})));
  }
}
