/**
 * The store a platform, server or MCP test runs on, chosen by `GROUNDWORK_TEST_STORE`:
 * - unset (or `async`): a SQLite store in memory, as `openStore({ file: ":memory:" })`;
 *   with `async`, ./async-store-setup.ts additionally wraps the stores the platform composes;
 * - `postgres`: a fresh database on the run's PostgreSQL server (store-postgres' global setup,
 *   which the `*-on-postgres` projects of vitest.workspace.ts run), with every migration applied.
 * Tests `await` every call on it, so one test body holds both stores to the same answers.
 */
import { join } from "node:path";
import type { Clock, IdGenerator } from "@groundwork/core";
import { openStore, type Store } from "@groundwork/store-sqlite";
import { makeTempDir } from "@groundwork/testkit";
import { createTestDatabase } from "../../store-postgres/test/test-database.js";
import {
  openTestPostgresStore,
  openTestPostgresStoreOn,
  testStoreClient,
} from "../../store-postgres/test/test-store.js";
import type { PlatformStore } from "../src/store-port.js";

export type TestStoreKind = "sqlite" | "async" | "postgres";

export function testStoreKind(): TestStoreKind {
  const kind = process.env.GROUNDWORK_TEST_STORE ?? "sqlite";
  if (kind === "sqlite" || kind === "async" || kind === "postgres") return kind;
  throw new Error(`GROUNDWORK_TEST_STORE="${kind}": expected sqlite, async or postgres`);
}

/** Whether this run's tests are on PostgreSQL (for the few tests that read SQLite itself). */
export function onPostgres(): boolean {
  return testStoreKind() === "postgres";
}

export interface TestStoreOptions {
  secret?: string;
  clock?: Clock;
  ids?: IdGenerator;
}

export async function openTestStore(options: TestStoreOptions = {}): Promise<PlatformStore> {
  if (onPostgres()) return openTestPostgresStore(options);
  return openStore({ file: ":memory:", ...options });
}

/** A database that outlives the stores opened on it (`openTestDatabase`). */
export interface TestDatabase {
  /** A new store on the database, as a restarted server (or a second process) opens it. */
  open(options?: TestStoreOptions): Promise<PlatformStore>;
  /** Deletes a SQLite file database (a PostgreSQL one goes with the run's server). */
  remove(): void;
}

/**
 * A database for restart tests: a SQLite file in a temporary directory, or a fresh migrated
 * database on the run's PostgreSQL server. Close each store before opening the next one, as a
 * server that stops does.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (onPostgres()) {
    const url = await createTestDatabase("store", { migrated: true });
    return { open: (options = {}) => openTestPostgresStoreOn(url, options), remove: () => {} };
  }
  const dir = makeTempDir("groundwork-test-store-");
  const file = join(dir.path, "groundwork.db");
  return {
    open: async (options = {}) => openStore({ file, ...options }),
    remove: () => dir.remove(),
  };
}

/**
 * The rows one SQL statement answers on the database under a test store, for the few tests that
 * check what is stored rather than what the store answers (a secret sealed, a text erased). `?`
 * placeholders on either database; the rows are the driver's: PostgreSQL's BOOLEAN and BIGINT
 * columns read as booleans and strings where SQLite answers numbers.
 */
export async function queryTestStore<Row = Record<string, unknown>>(
  store: PlatformStore,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const client = testStoreClient(store);
  if (client === undefined) {
    const statement = (store as unknown as Store).db.prepare(sql);
    if (statement.reader) return statement.all(...params) as Row[];
    statement.run(...params);
    return [];
  }
  let index = 0;
  const { rows } = await client.query<Row>(
    sql.replace(/\?/g, () => `$${++index}`),
    params,
  );
  return rows;
}
