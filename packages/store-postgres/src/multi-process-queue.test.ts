/**
 * Two worker processes on one PostgreSQL server (issue #24): 200 jobs enqueued while both run
 * are each done exactly once, and a worker killed with SIGKILL mid-job loses nothing — its job
 * is run by the other once the lease lapses.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/test-database.js";
import { runPostgresMigrations } from "./migrations.js";
import { PostgresJobQueue } from "./postgres-job-queue.js";
import { fromPgPool, type SqlClient } from "./sql-client.js";

const CHILD = fileURLToPath(new URL("../test/queue-worker-child.ts", import.meta.url));
const JOBS = 200;

let url: string;
let client: SqlClient;
const children: ChildProcess[] = [];

beforeAll(async () => {
  url = await createTestDatabase("multi_process");
  client = fromPgPool(new pg.Pool({ connectionString: url, max: 4 }));
  await runPostgresMigrations(client);
  await client.exec("CREATE TABLE job_effects (job_id TEXT NOT NULL, worker TEXT NOT NULL)");
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await client?.close();
}, 60_000);

/** Starts a worker process and resolves once it printed `line` (a prefix) on stdout. */
function startWorker(mode: "normal" | "victim"): {
  child: ChildProcess;
  printed(prefix: string): Promise<string>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, url, mode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let output = "";
  const waiters: Array<() => void> = [];
  child.stdout?.on("data", (data: Buffer) => {
    output += data.toString();
    for (const waiter of waiters.splice(0)) waiter();
  });
  return {
    child,
    printed: (prefix) =>
      new Promise((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error(`worker never printed "${prefix}"`)), 60_000);
        const check = () => {
          const line = output.split("\n").find((each) => each.startsWith(prefix));
          if (line === undefined) waiters.push(check);
          else {
            clearTimeout(timeout);
            resolve(line);
          }
        };
        check();
      }),
  };
}

describe("two worker processes on one database", () => {
  it("do each job exactly once, and a worker killed mid-job loses nothing", async () => {
    const queue = new PostgresJobQueue(client);
    const stuck = await queue.enqueue("work", { hang: true }, { maxAttempts: 3 });
    const victim = startWorker("victim");
    expect(await victim.printed("hanging")).toBe(`hanging ${stuck.id}`);
    const survivor = startWorker("normal");
    await survivor.printed("ready");
    const jobs = [stuck];
    for (let i = 0; i < JOBS; i++) jobs.push(await queue.enqueue("work", { ms: 2 }));
    victim.child.kill("SIGKILL");

    const deadline = Date.now() + 90_000;
    const succeeded = async () =>
      Number(
        (await client.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE status = 'succeeded'"))
          .rows[0]?.n,
      );
    while ((await succeeded()) < jobs.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await succeeded()).toBe(jobs.length);
    const effects = (
      await client.query<{ job_id: string; n: string }>(
        "SELECT job_id, count(*) AS n FROM job_effects GROUP BY job_id",
      )
    ).rows;
    expect(effects.length).toBe(jobs.length);
    expect(effects.every((row) => Number(row.n) === 1)).toBe(true);
    // The job the killed worker held ran again after its lease lapsed, in the other process.
    expect(await queue.get(stuck.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect((await queue.get(stuck.id))?.result).toMatchObject({ worker: expect.stringMatching(/^normal-/) });
  }, 180_000);
});
