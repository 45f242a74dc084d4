/**
 * One service's background worker: a JobWorker over the service's job kinds that
 * starts on demand, can be poked when a job is queued, stops once, and can drain
 * the queue in the caller's turn (scripts and tests that want jobs done now).
 */
import { type JobHandler, type JobQueue, JobWorker, type JobWorkerOptions } from "@groundwork/core";

export class BackgroundWorker {
  private worker: JobWorker | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly handlers: Readonly<Record<string, JobHandler>>,
    private readonly options: Pick<JobWorkerOptions, "leaseMs" | "pollMs"> = {},
  ) {}

  /** Starts polling (idempotent); jobs a previous process left unfinished are picked up too. */
  start(): JobWorker {
    this.worker ??= new JobWorker(this.jobs, this.handlers, this.options);
    this.worker.start();
    return this.worker;
  }

  /** A job was queued: a running worker looks now instead of after its poll interval. */
  poke(): void {
    this.worker?.poke();
  }

  /** Stops polling; a running job finishes or is left to the next start. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
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
