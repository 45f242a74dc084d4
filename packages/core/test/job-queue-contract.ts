/**
 * The JobQueue contract (this package's port), run against every queue: SQLite
 * (store-sqlite's tests), PGlite and a real PostgreSQL server (store-postgres's tests). Each backend passes `open`, which returns an empty queue on a clock the
 * tests move by hand.
 */

import { describe, expect, it } from "vitest";
import type { JobQueue } from "../src/ports.js";
import { ManualClock } from "./manual-clock.js";

export type OpenQueue = (clock: ManualClock) => Promise<JobQueue>;

export function describeJobQueueContract(backend: string, open: OpenQueue): void {
  const setup = async () => {
    const clock = new ManualClock();
    return { queue: await open(clock), clock };
  };

  describe(`JobQueue contract on ${backend}`, () => {
    it("hands a job to one worker at a time and records its result", async () => {
      const { queue } = await setup();
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
      const { queue, clock } = await setup();
      const job = await queue.enqueue("ingest", {});
      await queue.claim(["ingest"], "dead-worker", 1000);
      clock.advance(999);
      expect(await queue.claim(["ingest"], "w2", 1000)).toBeNull();
      clock.advance(1);
      expect(await queue.claim(["ingest"], "w2", 1000)).toMatchObject({
        id: job.id,
        attempts: 2,
        leaseOwner: "w2",
      });
      expect(await queue.complete(job.id, "dead-worker", "late")).toBe(false);
      expect(await queue.heartbeat(job.id, "dead-worker", 1000)).toBe(false);
      expect(await queue.complete(job.id, "w2", "done")).toBe(true);
    });

    it("keeps a lease alive with heartbeats", async () => {
      const { queue, clock } = await setup();
      const job = await queue.enqueue("ingest", {});
      await queue.claim(["ingest"], "w1", 1000);
      clock.advance(900);
      expect(await queue.heartbeat(job.id, "w1", 1000)).toBe(true);
      clock.advance(900);
      expect(await queue.claim(["ingest"], "w2", 1000)).toBeNull();
    });

    it("retries failures after the delay until attempts run out, then fails", async () => {
      const { queue, clock } = await setup();
      const job = await queue.enqueue("extract", {}, { maxAttempts: 2 });
      await queue.claim(["extract"], "w1", 1000);
      expect(await queue.fail(job.id, "w1", "boom", { retryInMs: 500 })).toBe("retrying");
      expect(await queue.claim(["extract"], "w1", 1000)).toBeNull();
      clock.advance(500);
      await queue.claim(["extract"], "w1", 1000);
      expect(await queue.fail(job.id, "w1", "boom again")).toBe("failed");
      expect(await queue.get(job.id)).toMatchObject({
        status: "failed",
        attempts: 2,
        lastError: "boom again",
      });
    });

    it("fails permanent errors at once and ignores failures from a worker that lost the job", async () => {
      const { queue } = await setup();
      const job = await queue.enqueue("extract", {}, { maxAttempts: 5 });
      await queue.claim(["extract"], "w1", 1000);
      expect(await queue.fail(job.id, "w2", "not mine")).toBe("lost");
      expect(await queue.fail(job.id, "w1", "bad input", { permanent: true })).toBe("failed");
    });

    it("marks a job failed when its last allowed claim was lost (at the next claim, or when read)", async () => {
      const { queue, clock } = await setup();
      const claimed = await queue.enqueue("convert", {}, { maxAttempts: 1 });
      const read = await queue.enqueue("convert", {}, { maxAttempts: 1 });
      await queue.claim(["convert"], "w1", 1000);
      await queue.claim(["convert"], "w1", 2000);
      clock.advance(1000);
      expect(await queue.claim(["convert"], "w2", 1000)).toBeNull();
      expect((await queue.get(claimed.id))?.lastError).toMatch(
        /stopped responding on the last allowed attempt \(1 of 1\)/,
      );
      clock.advance(1000);
      expect(await queue.get(read.id)).toMatchObject({ status: "failed", leaseOwner: null });
    });

    it("claims ready jobs oldest first and leaves scheduled ones alone", async () => {
      const { queue, clock } = await setup();
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

    it("never hands one job to two of many concurrent claimers", async () => {
      const { queue } = await setup();
      const jobs = await Promise.all(Array.from({ length: 40 }, (_, i) => queue.enqueue("race", i)));
      const claimedBy = new Map<string, string>();
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (;;) {
            const job = await queue.claim(["race"], `w${worker}`, 60_000);
            if (job === null) return;
            expect(claimedBy.has(job.id)).toBe(false);
            claimedBy.set(job.id, `w${worker}`);
            expect(await queue.complete(job.id, `w${worker}`, worker)).toBe(true);
          }
        }),
      );
      expect([...claimedBy.keys()].sort()).toEqual(jobs.map((job) => job.id).sort());
    });
  });
}
