/**
 * A whole PostgreSQL store for a test: a copy of the run's migrated template database on the
 * shared server (test/global-setup.ts), opened with `openPostgresStore`. Copying the template
 * costs a few tens of milliseconds where migrating costs seconds, so a test can open one per case
 * as SQLite tests open `:memory:`.
 */
import type { Clock, IdGenerator } from "@groundwork/core";
import pg from "pg";
import { openPostgresStore, type PostgresStore } from "../src/open-postgres-store.js";
import { fromPgPool } from "../src/sql-client.js";
import { createTestDatabase } from "./test-database.js";

export interface TestPostgresStoreOptions {
  secret?: string;
  clock?: Clock;
  ids?: IdGenerator;
  /** Connections of the store's pool (default 4). */
  connections?: number;
}

export async function openTestPostgresStore(options: TestPostgresStoreOptions = {}): Promise<PostgresStore> {
  const url = await createTestDatabase("store", { migrated: true });
  const pool = new pg.Pool({
    connectionString: url,
    max: options.connections ?? 4,
    // Tests that never close their store must not keep connections (or the worker) alive.
    idleTimeoutMillis: 1_000,
    allowExitOnIdle: true,
  });
  return openPostgresStore({
    client: fromPgPool(pool),
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.ids === undefined ? {} : { ids: options.ids }),
  });
}
