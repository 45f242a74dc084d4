/**
 * A whole PostgreSQL store for a test: a copy of the run's migrated template database on the
 * shared server (test/global-setup.ts), opened with `openPostgresStore`. Copying the template
 * costs a few tens of milliseconds where migrating costs seconds, so a test can open one per case
 * as SQLite tests open `:memory:`.
 */
import type { Clock, IdGenerator } from "@groundwork/core";
import pg from "pg";
import { openPostgresStore, type PostgresStore } from "../src/open-postgres-store.js";
import { fromPgPool, type SqlClient } from "../src/sql-client.js";
import { createTestDatabase } from "./test-database.js";

export interface TestPostgresStoreOptions {
  secret?: string;
  clock?: Clock;
  ids?: IdGenerator;
  /** Connections of the store's pool (default 4). */
  connections?: number;
}

/** The client under each store this file opened, for tests that read what is stored (`testStoreClient`). */
const clients = new WeakMap<object, SqlClient>();

export async function openTestPostgresStore(options: TestPostgresStoreOptions = {}): Promise<PostgresStore> {
  return openTestPostgresStoreOn(await createTestDatabase("store", { migrated: true }), options);
}

/**
 * A store on the database at `url` (a copy of the template from `createTestDatabase`): a second
 * store on one database is what a restarted server, or a second process, sees.
 */
export async function openTestPostgresStoreOn(
  url: string,
  options: TestPostgresStoreOptions = {},
): Promise<PostgresStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.connections ?? 4,
    // Tests that never close their store must not keep connections (or the worker) alive.
    idleTimeoutMillis: 1_000,
    allowExitOnIdle: true,
  });
  const client = fromPgPool(pool);
  const store = await openPostgresStore({
    client,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.ids === undefined ? {} : { ids: options.ids }),
  });
  clients.set(store, client);
  return store;
}

/** The database client of a store `openTestPostgresStore` opened, or undefined for any other store. */
export function testStoreClient(store: object): SqlClient | undefined {
  return clients.get(store);
}
