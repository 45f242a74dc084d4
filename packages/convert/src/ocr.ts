/**
 * OCR with tesseract.js (`@groundwork/convert/ocr`). Traineddata comes from the
 * installed `@tesseract.js-data/*` packages — nothing is downloaded at run time.
 * Recognisers (each its own worker thread) are pooled per language set and
 * reused; one that is cancelled mid-page is terminated and replaced.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DocumentError } from "./document-error.js";

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

const LANGUAGE_ALIASES: Record<string, string> = {
  en: "eng",
  english: "eng",
  de: "deu",
  fr: "fra",
  es: "spa",
  it: "ita",
};

/** Languages whose traineddata package is installed, with the folder holding it. */
export function installedLanguages(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const found = new Map<string, string>();
  for (const code of ["eng", "deu", "fra", "spa", "ita", "por", "nld"]) {
    try {
      const dir = dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
      // The integer-quantised "best" model: accurate and the size of "fast" models.
      found.set(code, join(dir, "4.0.0_best_int"));
    } catch {
      // not installed
    }
  }
  return found;
}

export function normalizeLanguages(requested: readonly string[] | undefined): string[] {
  const codes = (requested === undefined || requested.length === 0 ? ["eng"] : requested).map(
    (code) => LANGUAGE_ALIASES[code.toLowerCase()] ?? code.toLowerCase(),
  );
  return [...new Set(codes)];
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
  /** Folder for tesseract's cache (unused with local traineddata, but tesseract.js wants one). */
  cachePath?: string;
}

export class TesseractOcrEngine implements OcrEngine {
  private readonly pool: PooledWorker[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly poolSize: number;
  private readonly languages = installedLanguages();
  private readonly cachePath: string;

  constructor(options: TesseractOcrOptions = {}) {
    this.poolSize = Math.max(1, options.poolSize ?? 2);
    this.cachePath = options.cachePath ?? join(process.cwd(), ".groundwork", "tesseract-cache");
  }

  async recognize(image: Uint8Array, requested: readonly string[], signal?: AbortSignal): Promise<OcrResult> {
    const languages = normalizeLanguages(requested);
    const missing = languages.filter((code) => !this.languages.has(code));
    if (missing.length > 0) {
      throw new DocumentError(
        "unsupported_language",
        `OCR language(s) ${missing.join(", ")} not installed; available: ${[...this.languages.keys()].join(", ") || "none"}`,
      );
    }
    signal?.throwIfAborted();
    const slot = await this.acquire(languages, signal);
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

  private async acquire(languages: string[], signal?: AbortSignal): Promise<PooledWorker> {
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
        const slot: PooledWorker = { key, worker: await this.create(languages), busy: true };
        this.pool.push(slot);
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private async create(languages: string[]): Promise<TesseractWorker> {
    const { createWorker } = await import("tesseract.js");
    const first = languages[0] as string;
    const langPath = this.languages.get(first) as string;
    // All installed data packages share one layout, so one langPath per recogniser suffices
    // when every language comes from the same folder; otherwise use the first's folder.
    try {
      return await createWorker(languages, 1, {
        langPath,
        gzip: true,
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
