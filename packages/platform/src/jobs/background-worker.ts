/**
 * One service's background worker: a JobWorker over the service's job kinds that
 * starts on demand, can be poked when a job is queued — by this process, or by any process on
 * the same database when the queue tells (job-wake-ups.ts) — stops once, and can drain
 * the queue in the caller's turn (scripts and tests that want jobs done now).
 */
import { type JobHandler, type JobQueue, JobWorker, type JobWorkerOptions } from "@groundwork/core";
import { subscribeToEnqueued } from "./job-wake-ups.js";

export class BackgroundWorker {
  private worker: JobWorker | null = null;
  private wakeUps: ReturnType<typeof subscribeToEnqueued> = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    private readonly options: Pick<JobWorkerOptions, "leaseMs" | "pollMs"> = {},
  ) {}

  /**
   * Starts polling (idempotent); jobs a previous process left unfinished are picked up too. On a
   * queue that tells of enqueued jobs, a job of this worker's kinds enqueued by any process wakes
   * it at once; the poll stays the fallback.
   */
  start(): JobWorker {
    this.worker ??= new JobWorker(this.jobs, this.handlers, this.options);
    this.worker.start();
    this.wakeUps ??= subscribeToEnqueued(this.jobs, (kind) => {
      if (Object.hasOwn(this.handlers, kind)) this.worker?.poke();
    });
    return this.worker;
  }

  /** Settles once wake-ups from other processes reach this worker (at once when the queue has none). */
  async wakeUpsReady(): Promise<void> {
    await this.wakeUps?.ready;
  }

  /** A job was queued: a running worker looks now instead of after its poll interval. */
  poke(): void {
    this.worker?.poke();
  }

  /** Stops polling; a running job finishes or is left to the next start. */
  async stop(): Promise<void> {
    const worker = this.worker;
    const wakeUps = this.wakeUps;
    this.worker = null;
    this.wakeUps = null;
    await wakeUps?.unsubscribe();
    await worker?.stop();
  }

  /** Runs ready jobs in this turn until none is left; the number run. */
  async drain(): Promise<number> {
    const worker = new JobWorker(this.jobs, this.handlers, { leaseMs: this.options.leaseMs ?? 30_000 });
    let ran = 0;
    while (await worker.runOnce()) ran++;
    return ran;
  }
}
