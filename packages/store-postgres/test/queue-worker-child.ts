/**
 * A worker process for the multi-process queue test: a core JobWorker on the PostgreSQL queue,
 * woken by NOTIFY, whose `work` handler records its effect in `job_effects`. As the `victim` it
 * hangs on a job marked `hang` (and says so on stdout), so the test can kill it mid-job.
 * Usage: node --import tsx queue-worker-child.ts <database url> <normal|victim>
 */
import { JobWorker } from "@groundwork/core";
import pg from "pg";
import { PostgresJobQueue } from "../src/postgres-job-queue.js";
import { fromPgPool } from "../src/sql-client.js";

const [url, mode] = process.argv.slice(2);
const client = fromPgPool(new pg.Pool({ connectionString: url, max: 4 }));
const queue = new PostgresJobQueue(client);
const name = `${mode}-${process.pid}`;

const worker = new JobWorker(
  queue,
  {
    work: async (job) => {
      const payload = job.payload as { hang?: boolean; ms?: number };
      if (payload.hang === true && mode === "victim") {
        process.stdout.write(`hanging ${job.id}\n`);
        await new Promise(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, payload.ms ?? 1));
      await client.query("INSERT INTO job_effects (job_id, worker) VALUES ($1, $2)", [job.id, name]);
      return { worker: name };
    },
  },
  { workerId: name, leaseMs: 1000, pollMs: 200 },
);
const stopListening = await queue.onEnqueued(() => worker.poke());
worker.start();
process.stdout.write("ready\n");
process.on("SIGTERM", async () => {
  await stopListening();
  await worker.stop();
  await client.close();
  process.exit(0);
});
