import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JobWorker } from "@groundwork/core";
import { afterEach, describe, expect, it } from "vitest";
import { describeJobQueueContract } from "../../core/test/job-queue-contract.js";
import { ManualClock } from "../../core/test/manual-clock.js";
import { openStore, type Store } from "./open-store.js";

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function memoryQueue(clock = new ManualClock()) {
  const store = openStore({ file: ":memory:", clock });
  opened.push(store);
  return { queue: store.jobs, clock };
}

describeJobQueueContract("SQLite", async (clock) => memoryQueue(clock).queue);

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
