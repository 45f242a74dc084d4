/**
 * A worker process of the throughput benchmark: a core JobWorker on the PostgreSQL queue whose
 * `cpu` job does a fixed amount of CPU work (PBKDF2 rounds, standing in for a conversion).
 * Usage: node --import tsx throughput-worker.ts <database url> <rounds>
 */
import { pbkdf2Sync } from "node:crypto";
import { JobWorker } from "@groundwork/core";
import pg from "pg";
import { PostgresJobQueue } from "../src/postgres-job-queue.js";
import { fromPgPool } from "../src/sql-client.js";

const [url, rounds] = process.argv.slice(2);
const client = fromPgPool(new pg.Pool({ connectionString: url, max: 4 }));
const queue = new PostgresJobQueue(client);
const worker = new JobWorker(
  queue,
  { cpu: async () => ({ key: pbkdf2Sync("job", "salt", Number(rounds), 32, "sha256").toString("hex") }) },
  { workerId: `bench-${process.pid}`, pollMs: 50 },
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
