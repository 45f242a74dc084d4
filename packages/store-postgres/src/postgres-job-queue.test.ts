/**
 * The job queue on PostgreSQL: core's JobQueue contract (the SQLite queue's tests hold it to the
 * same) on PGlite (in-process) and on a real PostgreSQL server; and what only a server
 * shared by processes shows — wake-ups by NOTIFY across connections and concurrent migrations.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeJobQueueContract } from "../../core/test/job-queue-contract.js";
import { createTestDatabase } from "../test/test-database.js";
import { postgresMigrations, runPostgresMigrations } from "./migrations.js";
import { PostgresJobQueue } from "./postgres-job-queue.js";
import { fromPGlite, fromPgPool, type PGliteLike, type SqlClient } from "./sql-client.js";

let lite: SqlClient;
beforeAll(async () => {
  lite = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
  await runPostgresMigrations(lite);
}, 60_000);
afterAll(() => lite.close());
describeJobQueueContract("PGlite", async (clock) => {
  await lite.exec("TRUNCATE jobs");
  return new PostgresJobQueue(lite, clock);
});

let url: string;
let client: SqlClient;
beforeAll(async () => {
  url = await createTestDatabase("queue_contract");
  client = fromPgPool(new pg.Pool({ connectionString: url, max: 8 }));
  await runPostgresMigrations(client);
}, 120_000);
afterAll(() => client?.close());
describeJobQueueContract("a PostgreSQL server", async (clock) => {
  await client.exec("TRUNCATE jobs");
  return new PostgresJobQueue(client, clock);
});

describe("PostgreSQL server only", () => {
  it("wakes a listener on another connection when a job is enqueued", async () => {
    const listener = fromPgPool(new pg.Pool({ connectionString: url, max: 2 }));
    try {
      const woken: string[] = [];
      const stop = await new PostgresJobQueue(listener).onEnqueued((kind) => woken.push(kind));
      await new PostgresJobQueue(client).enqueue("convert", { file: "a.pdf" });
      for (let i = 0; i < 200 && woken.length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(woken).toEqual(["convert"]);
      await stop();
    } finally {
      await listener.close();
    }
  });

  it("migrates once when several processes start on one database at the same time", async () => {
    const fresh = await createTestDatabase("migrate_race");
    const clients = Array.from({ length: 4 }, () =>
      fromPgPool(new pg.Pool({ connectionString: fresh, max: 1 })),
    );
    try {
      const applied = await Promise.all(clients.map((each) => runPostgresMigrations(each)));
      const versions = postgresMigrations.map((migration) => migration.version);
      // One process applied every version; the others found nothing left to do.
      expect(applied.flat()).toEqual(versions);
      expect(applied.filter((each) => each.length > 0)).toHaveLength(1);
      const rows = (
        await (clients[0] as SqlClient).query("SELECT version FROM schema_migrations ORDER BY version")
      ).rows;
      expect(rows).toEqual(versions.map((version) => ({ version })));
    } finally {
      await Promise.all(clients.map((each) => each.close()));
    }
  });

  it("applies a version that lands below ones already applied (ranges merge out of order)", async () => {
    const fresh = fromPgPool(
      new pg.Pool({ connectionString: await createTestDatabase("migrate_gap"), max: 1 }),
    );
    try {
      const late = postgresMigrations.filter((migration) => migration.version === 6);
      const early = postgresMigrations.filter((migration) => migration.version !== 6);
      expect(late).toHaveLength(1);
      expect(await runPostgresMigrations(fresh, early)).toEqual(early.map((migration) => migration.version));
      expect(await runPostgresMigrations(fresh)).toEqual([6]);
      expect(await runPostgresMigrations(fresh)).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
