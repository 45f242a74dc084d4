import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Clock, JobWorker } from "@groundwork/core";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

class ManualClock implements Clock {
  constructor(public time = 1_700_000_000_000) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function memoryQueue(clock = new ManualClock()) {
  const store = openStore({ file: ":memory:", clock });
  opened.push(store);
  return { queue: store.jobs, clock };
}

describe("SqliteJobQueue", () => {
  it("hands a job to one worker at a time and records its result", async () => {
    const { queue } = memoryQueue();
    const job = await queue.enqueue("convert", { file: "a.pdf" });
    expect(job).toMatchObject({ status: "queued", attempts: 0, payload: { file: "a.pdf" } });

    const claimed = await queue.claim(["convert"], "w1", 1000);
    expect(claimed).toMatchObject({ id: job.id, status: "running", attempts: 1, leaseOwner: "w1" });
    expect(await queue.claim(["convert"], "w2", 1000)).toBeNull();
    expect(await queue.claim(["other"], "w2", 1000)).toBeNull();

    expect(await queue.complete(job.id, "w1", { pages: 3 })).toBe(true);
    expect(await queue.get(job.id)).toMatchObject({
      status: "succeeded",
      result: { pages: 3 },
      leaseOwner: null,
    });
  });

  it("gives a job whose worker stopped renewing its lease to the next worker", async () => {
    const { queue, clock } = memoryQueue();
    const job = await queue.enqueue("ingest", {});
    await queue.claim(["ingest"], "dead-worker", 1000);

    clock.advance(999);
    expect(await queue.claim(["ingest"], "w2", 1000)).toBeNull();
    clock.advance(1);
    const again = await queue.claim(["ingest"], "w2", 1000);
    expect(again).toMatchObject({ id: job.id, attempts: 2, leaseOwner: "w2" });

    // The dead worker waking up cannot complete or extend what it no longer holds.
    expect(await queue.complete(job.id, "dead-worker", "late")).toBe(false);
    expect(await queue.heartbeat(job.id, "dead-worker", 1000)).toBe(false);
    expect(await queue.complete(job.id, "w2", "done")).toBe(true);
  });

  it("keeps a lease alive with heartbeats", async () => {
    const { queue, clock } = memoryQueue();
    const job = await queue.enqueue("ingest", {});
    await queue.claim(["ingest"], "w1", 1000);
    clock.advance(900);
    expect(await queue.heartbeat(job.id, "w1", 1000)).toBe(true);
    clock.advance(900);
    expect(await queue.claim(["ingest"], "w2", 1000)).toBeNull();
  });

  it("retries failures after the delay until attempts run out, then fails", async () => {
    const { queue, clock } = memoryQueue();
    const job = await queue.enqueue("extract", {}, { maxAttempts: 2 });
    await queue.claim(["extract"], "w1", 1000);
    expect(await queue.fail(job.id, "w1", "boom", { retryInMs: 500 })).toBe("retrying");
    expect(await queue.claim(["extract"], "w1", 1000)).toBeNull();
    clock.advance(500);
    await queue.claim(["extract"], "w1", 1000);
    expect(await queue.fail(job.id, "w1", "boom again")).toBe("failed");
    expect(await queue.get(job.id)).toMatchObject({ status: "failed", attempts: 2, lastError: "boom again" });
  });

  it("fails permanent errors at once and ignores failures from a worker that lost the job", async () => {
    const { queue } = memoryQueue();
    const job = await queue.enqueue("extract", {}, { maxAttempts: 5 });
    await queue.claim(["extract"], "w1", 1000);
    expect(await queue.fail(job.id, "w2", "not mine")).toBe("lost");
    expect(await queue.fail(job.id, "w1", "bad input", { permanent: true })).toBe("failed");
  });

  it("marks a job failed when its last allowed claim was lost", async () => {
    const { queue, clock } = memoryQueue();
    const job = await queue.enqueue("convert", {}, { maxAttempts: 1 });
    await queue.claim(["convert"], "w1", 1000);
    clock.advance(1000);
    expect(await queue.claim(["convert"], "w2", 1000)).toBeNull();
    const failed = await queue.get(job.id);
    expect(failed?.status).toBe("failed");
    expect(failed?.lastError).toMatch(/stopped responding/);
  });

  it("claims ready jobs oldest first and leaves scheduled ones alone", async () => {
    const { queue, clock } = memoryQueue();
    const later = await queue.enqueue("k", "later", { runAt: clock.now() + 10_000 });
    const first = await queue.enqueue("k", "first");
    clock.advance(1);
    const second = await queue.enqueue("k", "second");
    expect((await queue.claim(["k"], "w", 1000))?.id).toBe(first.id);
    expect((await queue.claim(["k"], "w", 1000))?.id).toBe(second.id);
    expect(await queue.claim(["k"], "w", 1000)).toBeNull();
    await queue.complete(first.id, "w");
    await queue.complete(second.id, "w");
    clock.advance(10_000);
    expect((await queue.claim(["k"], "w", 1000))?.id).toBe(later.id);
  });
});

describe("JobWorker on SQLite", () => {
  it("runs handlers, retries thrown errors and records results", async () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    let calls = 0;
    const worker = new JobWorker(
      store.jobs,
      {
        flaky: async (job) => {
          calls += 1;
          if (calls === 1) throw new Error("transient");
          return { echoed: job.payload };
        },
      },
      { leaseMs: 1000, pollMs: 5 },
    );
    const job = await store.jobs.enqueue("flaky", "hello");
    expect(await worker.runOnce()).toBe(true);
    expect(await store.jobs.get(job.id)).toMatchObject({ status: "queued", lastError: "transient" });
    store.db.prepare("UPDATE jobs SET run_at = 0").run();
    expect(await worker.runOnce()).toBe(true);
    expect(await store.jobs.get(job.id)).toMatchObject({ status: "succeeded", result: { echoed: "hello" } });
    expect(await worker.runOnce()).toBe(false);
  });

  it("re-runs a job whose worker process was killed mid-job once the lease expires", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "gw-queue-")), "groundwork.db");
    const store = openStore({ file });
    opened.push(store);
    const job = await store.jobs.enqueue("convert", { n: 1 }, { maxAttempts: 3 });

    // A real separate process claims the job (lease 300 ms) and is killed while "working".
    const script = fileURLToPath(new URL("../test/claim-and-hang.ts", import.meta.url));
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, file, "300"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const claimedId = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        if (chunk.includes("claimed")) resolve(chunk.trim().split(" ")[1] ?? "");
      });
      child.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
    });
    expect(claimedId).toBe(job.id);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    expect(await store.jobs.claim(["convert"], "survivor", 1000)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 350));
    const worker = new JobWorker(store.jobs, { convert: async () => "converted" }, { leaseMs: 1000 });
    expect(await worker.runOnce()).toBe(true);
    expect(await store.jobs.get(job.id)).toMatchObject({
      status: "succeeded",
      attempts: 2,
      result: "converted",
    });
  });
});

describe("SqliteJobQueue.get", () => {
  it("reads a job whose last allowed claim lapsed as failed", async () => {
    const clock = new ManualClock();
    const store = openStore({ file: ":memory:", clock });
    opened.push(store);
    const job = await store.jobs.enqueue("convert", {}, { maxAttempts: 1 });
    await store.jobs.claim(["convert"], "w1", 1000);
    expect((await store.jobs.get(job.id))?.status).toBe("running");
    clock.advance(1000);
    const read = await store.jobs.get(job.id);
    expect(read?.status).toBe("failed");
    expect(read?.lastError).toMatch(/stopped responding/);
  });
});
