/**
 * Job throughput on one PostgreSQL database with one and with two worker processes (issue #24:
 * two workers on two cores ≥ 1.7× one). Not part of the test suite. From the repository root:
 *
 *   node --import tsx packages/store-postgres/bench/queue-throughput.ts
 *
 * Environment: QUEUE_BENCH_JOBS (default 300 per round), QUEUE_BENCH_ROUNDS (default 3 rounds of
 * each case, interleaved), QUEUE_BENCH_PBKDF2 (rounds of CPU work per job, default 50000 ≈ 20 ms, a small conversion),
 * QUEUE_BENCH_DATABASE_URL (an existing database; default: an embedded server started here).
 * Each round starts the workers, waits until they are listening, enqueues every job and times
 * until all have succeeded. Beside it, the same CPU work in a plain loop (the queue's floor).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { pbkdf2Sync } from "node:crypto";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { runPostgresMigrations } from "../src/migrations.js";
import { PostgresJobQueue } from "../src/postgres-job-queue.js";
import { fromPgPool } from "../src/sql-client.js";
import { startTestServer } from "../test/embedded-server.js";

const JOBS = Number(process.env.QUEUE_BENCH_JOBS ?? 300);
const ROUNDS = Number(process.env.QUEUE_BENCH_ROUNDS ?? 3);
const PBKDF2 = Number(process.env.QUEUE_BENCH_PBKDF2 ?? 50_000);
const WORKER = fileURLToPath(new URL("./throughput-worker.ts", import.meta.url));

const server = process.env.QUEUE_BENCH_DATABASE_URL === undefined ? await startTestServer() : null;
const url =
  process.env.QUEUE_BENCH_DATABASE_URL ?? (await (server?.createDatabase("queue_bench") as Promise<string>));
const client = fromPgPool(new pg.Pool({ connectionString: url, max: 4 }));
await runPostgresMigrations(client);
const queue = new PostgresJobQueue(client);

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, url, String(PBKDF2)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("ready")) resolve(child);
    });
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Jobs per second with `workers` processes. */
async function round(workers: number): Promise<number> {
  await client.exec("TRUNCATE jobs");
  const children = await Promise.all(Array.from({ length: workers }, startWorker));
  try {
    const started = performance.now();
    for (let i = 0; i < JOBS; i++) await queue.enqueue("cpu", { i });
    for (;;) {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM jobs WHERE status = 'succeeded'",
      );
      if (Number(rows[0]?.n) >= JOBS) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return (JOBS / (performance.now() - started)) * 1000;
  } finally {
    await Promise.all(children.map(stopWorker));
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const loopStart = performance.now();
for (let i = 0; i < 50; i++) pbkdf2Sync("job", "salt", PBKDF2, 32, "sha256");
const loopPerSecond = (50 / (performance.now() - loopStart)) * 1000;

console.log(
  `load average ${loadavg()
    .map((each) => each.toFixed(1))
    .join(" ")}; ${JOBS} jobs × ${PBKDF2} PBKDF2 rounds`,
);
const one: number[] = [];
const two: number[] = [];
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const a = await round(1);
  const b = await round(2);
  one.push(a);
  two.push(b);
  ratios.push(b / a);
  console.log(
    `round ${r + 1}: one worker ${a.toFixed(0)} jobs/s, two workers ${b.toFixed(0)} jobs/s (${(b / a).toFixed(2)}×)`,
  );
}
console.log(`plain loop, same work, one core: ${loopPerSecond.toFixed(0)} jobs/s`);
console.log(
  `median: one worker ${median(one).toFixed(0)} jobs/s (${(median(one) / loopPerSecond).toFixed(2)}× the plain loop), two workers ${median(two).toFixed(0)} jobs/s; two / one = ${median(ratios).toFixed(2)}× (target ≥ 1.7×)`,
);
await client.close();
await server?.stop();
