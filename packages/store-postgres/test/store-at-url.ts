/**
 * A PostgreSQL store on a database a test already has by its URL: opened again after a close (a
 * restart), by a second store at once (another connection), or in a child process given the URL.
 * Also one raw statement on it, for tests that look at what is at rest (ciphertexts, rows swept).
 */
import type { Clock, IdGenerator } from "@groundwork/core";
import pg from "pg";
import { openPostgresStore, type PostgresStore } from "../src/open-postgres-store.js";
import { fromPgPool, type SqlClient } from "../src/sql-client.js";

export interface PostgresStoreAtOptions {
  secret?: string;
  clock?: Clock;
  ids?: IdGenerator;
  /** Connections of the store's pool (default 4). */
  connections?: number;
}

/** A client on the database at `url` with the pool settings every test store uses. */
export function testClientAt(url: string, connections = 4): SqlClient {
  return fromPgPool(
    new pg.Pool({
      connectionString: url,
      max: connections,
      // A test that never closes its store must not keep connections (or the worker) alive.
      idleTimeoutMillis: 1_000,
      allowExitOnIdle: true,
    }),
  );
}

/** `openPostgresStore` over `client` with the options a test gave (absent ones left out). */
export function openPostgresStoreWith(
  client: SqlClient,
  options: PostgresStoreAtOptions,
): Promise<PostgresStore> {
  return openPostgresStore({
    client,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.ids === undefined ? {} : { ids: options.ids }),
  });
}

export function openPostgresStoreAt(
  url: string,
  options: PostgresStoreAtOptions = {},
): Promise<PostgresStore> {
  return openPostgresStoreWith(testClientAt(url, options.connections), options);
}

/** Runs one statement without parameters on its own connection and answers its rows. */
export async function queryPostgresAt(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
