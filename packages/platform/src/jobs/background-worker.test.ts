/**
 * Background workers wake when a job is enqueued (decision PG192): by a poke of their own
 * process, and on PostgreSQL by any process on the database (LISTEN/NOTIFY), well before their
 * poll interval; a poke that lands while a claim is in flight is not lost.
 */
import type { Job, JobQueue } from "@groundwork/core";
import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { onPostgres, openTestStore } from "../../test/test-store.js";
import type { PlatformStore } from "../store-port.js";
import { BackgroundWorker } from "./background-worker.js";
import { type EnqueueWakeUps, subscribeToEnqueued } from "./job-wake-ups.js";

/** Longer than any test here waits: a job that starts at all was woken, not polled. */
const POLL_MS = 60_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A worker of kind `ping` whose handler resolves `ran` with the time it started the job. */
function pingWorker(jobs: JobQueue): { worker: BackgroundWorker; ran: Promise<{ job: Job; at: number }> } {
  let resolve: (value: { job: Job; at: number }) => void = () => {};
  const ran = new Promise<{ job: Job; at: number }>((r) => {
    resolve = r;
  });
  const worker = new BackgroundWorker(
    jobs,
    {
      ping: async (job) => {
        resolve({ job, at: performance.now() });
        return null;
      },
    },
    { leaseMs: 5_000, pollMs: POLL_MS },
  );
  cleanups.push(() => worker.stop());
  return { worker, ran };
}

/** Resolves after the worker's first (empty) claim: it now sleeps its poll interval. */
function idle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}

describe("a background worker", () => {
  it("starts a job of its own process at once when poked", async () => {
    const store = await openTestStore();
    cleanups.push(() => store.close());
    const { worker, ran } = pingWorker(store.jobs);
    worker.start();
    await idle();
    const job = await store.jobs.enqueue("ping", { n: 1 });
    worker.poke();
    expect((await ran).job.id).toBe(job.id);
  });

  it("does not lose a poke that lands while a claim is in flight", async () => {
    const store = await openTestStore();
    cleanups.push(() => store.close());
    // The worker's claims wait until the test lets them go: the job is enqueued and the worker
    // poked while its first claim, which saw an empty queue, is still answering.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claims = 0;
    const jobs: JobQueue = {
      enqueue: (...args) => store.jobs.enqueue(...args),
      heartbeat: (...args) => store.jobs.heartbeat(...args),
      complete: (...args) => store.jobs.complete(...args),
      fail: (...args) => store.jobs.fail(...args),
      get: (...args) => store.jobs.get(...args),
      claim: async (...args) => {
        claims++;
        const found = await store.jobs.claim(...args);
        if (claims === 1) await held;
        return found;
      },
    };
    const { worker, ran } = pingWorker(jobs);
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(claims).toBe(1);
    const job = await store.jobs.enqueue("ping", {});
    worker.poke();
    release();
    expect((await ran).job.id).toBe(job.id);
  });

  it.runIf(onPostgres())(
    "starts a job enqueued by another process on the database well before its poll interval",
    async () => {
      const database: TestDatabase = await openTestDatabase();
      cleanups.push(() => database.remove());
      const submitter = await database.open();
      const runner = await database.open();
      cleanups.push(
        () => submitter.close(),
        () => runner.close(),
      );
      const { worker, ran } = pingWorker(runner.jobs);
      worker.start();
      await worker.wakeUpsReady();
      await idle();
      const enqueuedAt = performance.now();
      const job = await submitter.jobs.enqueue("ping", {});
      const started = await ran;
      expect(started.job.id).toBe(job.id);
      const latencyMs = started.at - enqueuedAt;
      // Measured beside the poll interval it replaces (60 s): a wake-up takes milliseconds.
      expect(latencyMs).toBeLessThan(POLL_MS / 20);
    },
  );

  it.runIf(!onPostgres())("has no wake-ups from other processes on SQLite (one process)", async () => {
    const store: PlatformStore = await openTestStore();
    cleanups.push(() => store.close());
    expect(subscribeToEnqueued(store.jobs, () => {})).toBeNull();
  });
});

describe("wake-ups of enqueued jobs", () => {
  /** A queue that tells of enqueued jobs, counting its listening connections. */
  function tellingQueue(base: JobQueue) {
    const state = { listens: 0, open: 0, wake: (_kind: string) => {} };
    const jobs: JobQueue & EnqueueWakeUps = {
      enqueue: async (kind, payload, options) => {
        const job = await base.enqueue(kind, payload, options);
        state.wake(kind);
        return job;
      },
      claim: (...args) => base.claim(...args),
      heartbeat: (...args) => base.heartbeat(...args),
      complete: (...args) => base.complete(...args),
      fail: (...args) => base.fail(...args),
      get: (...args) => base.get(...args),
      onEnqueued: async (wake) => {
        state.listens++;
        state.open++;
        state.wake = wake;
        return async () => {
          state.open--;
          state.wake = () => {};
        };
      },
    };
    return { jobs, state };
  }

  it("listen once per queue for every worker of the process, each woken for its own kinds", async () => {
    const store = await openTestStore();
    cleanups.push(() => store.close());
    const { jobs, state } = tellingQueue(store.jobs);
    const started: string[] = [];
    const workers = ["a", "b"].map(
      (kind) =>
        new BackgroundWorker(
          jobs,
          {
            [kind]: async () => {
              started.push(kind);
              return null;
            },
          },
          { leaseMs: 5_000, pollMs: POLL_MS },
        ),
    );
    for (const worker of workers) {
      worker.start();
      await worker.wakeUpsReady();
      cleanups.push(() => worker.stop());
    }
    expect(state).toMatchObject({ listens: 1, open: 1 });
    await idle();
    await jobs.enqueue("b", {});
    await expect.poll(() => started, { timeout: 5_000 }).toEqual(["b"]);
    await jobs.enqueue("a", {});
    await expect.poll(() => started, { timeout: 5_000 }).toEqual(["b", "a"]);

    await workers[0]?.stop();
    expect(state.open).toBe(1);
    await workers[1]?.stop();
    expect(state.open).toBe(0);
    // A worker started again listens again.
    workers[0]?.start();
    await workers[0]?.wakeUpsReady();
    expect(state).toMatchObject({ listens: 2, open: 1 });
  });

  it("a listen that fails leaves the worker polling", async () => {
    const store = await openTestStore();
    cleanups.push(() => store.close());
    const { jobs } = tellingQueue(store.jobs);
    jobs.onEnqueued = async () => {
      throw new Error("no connection left");
    };
    const { worker, ran } = pingWorker(jobs);
    worker.start();
    await worker.wakeUpsReady();
    const job = await store.jobs.enqueue("ping", {});
    worker.poke();
    expect((await ran).job.id).toBe(job.id);
  });
});
