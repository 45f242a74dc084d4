/**
 * Runs jobs from a durable queue: claims one at a time, keeps its lease alive
 * while the handler works, and records success or failure. A process that dies
 * mid-job simply stops renewing the lease, so another worker claims the job
 * again once the lease expires — the queue, not the worker, guarantees progress.
 */
import { isGroundworkError } from "./errors.js";
import { newId } from "./ids.js";
import type { Job, JobQueue } from "./ports.js";

export interface JobContext {
  /** Aborted when the worker stops or loses the lease; long work should stop early. */
  signal: AbortSignal;
}

export type JobHandler = (job: Job, context: JobContext) => Promise<unknown>;

export interface JobWorkerOptions {
  workerId?: string;
  /** How long a claim stays valid without a heartbeat (default 30 s). */
  leaseMs?: number | undefined;
  /** Pause between polls of an empty queue (default 500 ms). */
  pollMs?: number | undefined;
  /** Receives failures of the worker's own bookkeeping (never of handlers). */
  onError?: (error: unknown) => void;
}

const MAX_RETRY_DELAY_MS = 60_000;

/** Exponential back-off: 1 s, 2 s, 4 s … capped at a minute. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

export class JobWorker {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly onError: (error: unknown) => void;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** A poke arrived since the last claim began: a claim that found nothing looks again at once. */
  private poked = false;
  private readonly stopController = new AbortController();

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    options: JobWorkerOptions = {},
  ) {
    this.workerId = options.workerId ?? newId("wrk");
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 500;
    this.onError = options.onError ?? (() => {});
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the worker to look at the queue now (e.g. right after an enqueue). */
  poke(): void {
    // A poke while a claim is in flight (a job committed after that claim looked) is not lost.
    this.poked = true;
    this.wake?.();
  }

  /** Stops claiming, aborts the running handler's signal and waits for it to settle. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopController.abort();
    this.wake?.();
    await this.loop;
  }

  /** Claims and runs one job; false when the queue had nothing ready. */
  async runOnce(): Promise<boolean> {
    const job = await this.queue.claim(Object.keys(this.handlers), this.workerId, this.leaseMs);
    if (job === null) return false;
    await this.execute(job);
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      this.poked = false;
      try {
        worked = await this.runOnce();
      } catch (error) {
        this.onError(error);
      }
      if (!worked && this.running && !this.poked) await this.sleep(this.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async execute(job: Job): Promise<void> {
    const handler = this.handlers[job.kind];
    const lease = new AbortController();
    const signal = AbortSignal.any([lease.signal, this.stopController.signal]);
    const heartbeat = setInterval(
      () => {
        this.queue.heartbeat(job.id, this.workerId, this.leaseMs).then(
          (held) => {
            if (!held) lease.abort();
          },
          (error: unknown) => this.onError(error),
        );
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    try {
      if (handler === undefined) throw new Error(`No handler for job kind "${job.kind}"`);
      const result = await handler(job, { signal });
      await this.queue.complete(job.id, this.workerId, result);
    } catch (error) {
      if (this.stopController.signal.aborted) return; // shutting down: the lease lapses and the job runs again
      const message = error instanceof Error ? error.message : String(error);
      // Client errors (bad input, missing resources) will fail the same way again.
      const permanent = isGroundworkError(error) && error.status < 500;
      await this.queue.fail(job.id, this.workerId, message, {
        permanent,
        retryInMs: retryDelayMs(job.attempts),
      });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
