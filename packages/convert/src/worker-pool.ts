/**
 * A small pool of parse workers, reused across documents (a worker start costs
 * hundreds of milliseconds) and thrown away on timeout, cancellation, a crash or
 * an out-of-memory failure, so the next document gets a clean one.
 */
import { Worker } from "node:worker_threads";
import { DocumentError, type DocumentErrorCode } from "./document-error.js";
import type { WorkerRequest, WorkerResponse } from "./parse-worker.js";

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
export type PoolRequest = DistributiveOmit<WorkerRequest, "id">;

interface Slot {
  worker: Worker;
  busy: boolean;
  /** Settles once the worker has loaded its modules. */
  ready: Promise<void>;
}

interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
}

function workerUrl(): URL {
  // Source (tests, tsx) and build (tsup emits dist/parse-worker.js beside dist/index.js) alike.
  const here = import.meta.url;
  return new URL(here.endsWith(".ts") ? "./parse-worker.ts" : "./parse-worker.js", here);
}

function newSlot(heapMb: number, busy: boolean): Slot {
  const worker = spawnWorker(heapMb);
  worker.on("error", () => {}); // errors are reported through the running request
  const ready = new Promise<void>((resolve) => {
    const onMessage = (message: WorkerResponse) => {
      if (message.id !== 0) return;
      worker.off("message", onMessage);
      resolve();
    };
    worker.on("message", onMessage);
    worker.once("exit", () => resolve());
  });
  if (!busy) worker.unref();
  return { worker, busy, ready };
}

function spawnWorker(heapMb: number): Worker {
  const url = workerUrl();
  // A heap cap alone shrinks V8's young generation and doubles GC time (measured: DOCX 0.6× raw mammoth);
  // an explicit young generation keeps parsing at main-thread speed.
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 96 };
  if (url.pathname.endsWith(".ts")) {
    // Running from sources: load the worker through tsx's loader.
    const api = import.meta.resolve("tsx/esm/api");
    return new Worker(
      `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`,
      { eval: true, resourceLimits },
    );
  }
  return new Worker(url, { resourceLimits });
}

export interface WorkerPoolOptions {
  size?: number;
  heapMb?: number;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly size: number;
  private readonly heapMb: number;
  private nextId = 1;
  private closed = false;

  constructor(options: WorkerPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? 2);
    this.heapMb = options.heapMb ?? 512;
  }

  /** Runs one request on a worker; aborting the signal kills that worker. */
  async run<T>(request: PoolRequest, signal?: AbortSignal, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) throw new DocumentError("internal_error", "The conversion worker pool is closed");
    signal?.throwIfAborted();
    const slot = await this.acquire(signal);
    const id = this.nextId++;
    try {
      return await new Promise<T>((resolve, reject) => {
        const { worker } = slot;
        const cleanup = () => {
          worker.off("message", onMessage);
          worker.off("error", onError);
          worker.off("exit", onExit);
          signal?.removeEventListener("abort", onAbort);
        };
        const fail = (error: unknown) => {
          cleanup();
          this.discard(slot);
          reject(error);
        };
        const onMessage = (message: WorkerResponse) => {
          if (message.id !== id) return;
          cleanup();
          if (message.ok) resolve(message.value as T);
          else reject(new DocumentError(message.code as DocumentErrorCode, message.message));
        };
        const onError = (error: Error & { code?: string }) => {
          fail(
            error.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? new DocumentError(
                  "limit_exceeded",
                  `Parsing the document needed more than ${this.heapMb} MiB of memory`,
                )
              : new DocumentError("corrupt_document", `The document crashed its parser: ${error.message}`),
          );
        };
        const onExit = (code: number) =>
          fail(new DocumentError("corrupt_document", `The parser stopped unexpectedly (exit ${code})`));
        const onAbort = () => fail(signal?.reason ?? new DocumentError("canceled", "Conversion canceled"));
        worker.on("message", onMessage);
        worker.on("error", onError);
        worker.on("exit", onExit);
        signal?.addEventListener("abort", onAbort, { once: true });
        worker.ref();
        worker.postMessage({ ...request, id } satisfies WorkerRequest, transfer);
      });
    } finally {
      this.release(slot);
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<Slot> {
    const idle = this.slots.find((slot) => !slot.busy);
    if (idle !== undefined) {
      idle.busy = true;
      return Promise.resolve(idle);
    }
    if (this.slots.length < this.size) {
      const slot = newSlot(this.heapMb, true);
      this.slots.push(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      this.waiters.push(waiter);
      signal?.addEventListener(
        "abort",
        () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  private release(slot: Slot): void {
    if (!this.slots.includes(slot)) {
      // The slot was discarded: hand its place to a waiter with a fresh worker.
      const waiter = this.waiters.shift();
      if (waiter !== undefined) {
        const fresh = newSlot(this.heapMb, true);
        this.slots.push(fresh);
        waiter.resolve(fresh);
      }
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      waiter.resolve(slot);
      return;
    }
    slot.busy = false;
    slot.worker.unref(); // an idle pool never keeps the process alive
  }

  private discard(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
    // Start the replacement now, so the next document does not pay for its start.
    if (!this.closed && this.waiters.length === 0 && this.slots.length < this.size)
      this.slots.push(newSlot(this.heapMb, false));
  }

  /**
   * Resolves when an idle worker has loaded (starting one if needed). The converter
   * waits for this before a document's timeout starts: a worker's start-up is the
   * pool's cost, not the document's.
   */
  async warm(signal?: AbortSignal): Promise<void> {
    if (this.closed) return;
    let idle = this.slots.find((slot) => !slot.busy);
    if (idle === undefined && this.slots.length < this.size) {
      idle = newSlot(this.heapMb, false);
      this.slots.push(idle);
    }
    if (idle === undefined) return;
    const slot = idle;
    // Keep the process alive while we wait for the worker to load.
    slot.worker.ref();
    try {
      await Promise.race([
        slot.ready,
        new Promise<void>((_, reject) => {
          if (signal === undefined) return;
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      ]);
    } finally {
      if (!slot.busy) slot.worker.unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new DocumentError("canceled", "The conversion worker pool closed"));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }
}
