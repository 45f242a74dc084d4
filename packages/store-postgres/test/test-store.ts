/**
 * A whole PostgreSQL store for a test: a copy of the run's migrated template database on the
 * shared server (test/global-setup.ts), opened with `openPostgresStore`. Copying the template
 * costs a few hundred milliseconds where migrating costs seconds; emptying a database whose
 * store was closed costs a few tens, so a closed store's database is emptied and handed to the
 * next test of the same file instead of copying the template again.
 */
import type { PostgresStore } from "../src/open-postgres-store.js";
import type { SqlClient } from "../src/sql-client.js";
import { openPostgresStoreWith, type PostgresStoreAtOptions, testClientAt } from "./store-at-url.js";
import { createTestDatabase } from "./test-database.js";

export type TestPostgresStoreOptions = PostgresStoreAtOptions;

/** The client under each store this file opened, for tests that read what is stored (`testStoreClient`). */
const clients = new WeakMap<object, SqlClient>();

/** Databases of this test file whose store was closed: nothing can reach them any more. */
const closedDatabases: string[] = [];

export async function openTestPostgresStore(options: TestPostgresStoreOptions = {}): Promise<PostgresStore> {
  const reused = closedDatabases.pop();
  const url = reused ?? (await createTestDatabase("store", { migrated: true }));
  const store = await openTestPostgresStoreOn(url, options, reused !== undefined);
  const close = store.close;
  let closed = false;
  store.close = async () => {
    await close();
    if (closed) return;
    closed = true;
    closedDatabases.push(url);
  };
  return store;
}

/**
 * Deletes every row but the migration records, in one round trip. `session_replication_role =
 * replica` turns foreign-key checks off for the statement, so the order of the tables does not
 * matter (TRUNCATE would too, but costs a second for the sixty tables).
 */
async function emptyDatabase(client: SqlClient): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
     WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
  );
  await client.exec(
    `BEGIN; SET LOCAL session_replication_role = replica; ${rows
      .map((row) => `DELETE FROM ${row.name};`)
      .join(" ")} COMMIT;`,
  );
}

/**
 * A store on the database at `url` (a copy of the template from `createTestDatabase`): a second
 * store on one database is what a restarted server, or a second process, sees.
 */
export async function openTestPostgresStoreOn(
  url: string,
  options: TestPostgresStoreOptions = {},
  empty = false,
): Promise<PostgresStore> {
  const client = testClientAt(url, options.connections);
  if (empty) await emptyDatabase(client);
  const store = await openPostgresStoreWith(client, options);
  clients.set(store, client);
  return store;
}

/** The database client of a store `openTestPostgresStore` opened, or undefined for any other store. */
export function testStoreClient(store: object): SqlClient | undefined {
  return clients.get(store);
}
