/**
 * The PostgreSQL backends a store-family test file runs on: PGlite in-process and a database on
 * the run's real server (test/global-setup.ts), each migrated once for the whole file. A family
 * test runs its contract on the SQLite store (the reference) and on each of these, so the two
 * stores are held to the same answers. Call at the top level of a test file.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { runPostgresMigrations } from "../src/migrations.js";
import { fromPGlite, fromPgPool, type PGliteLike, type SqlClient } from "../src/sql-client.js";
import { createTestDatabase } from "./test-database.js";

export interface PostgresBackend {
  label: string;
  /** The migrated client; valid inside tests (after the file's `beforeAll`). */
  client(): SqlClient;
}

export function postgresBackends(databaseName: string): PostgresBackend[] {
  let inProcess: SqlClient | undefined;
  let onServer: SqlClient | undefined;
  beforeAll(async () => {
    inProcess = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
    onServer = fromPgPool(new pg.Pool({ connectionString: await createTestDatabase(databaseName), max: 4 }));
    for (const client of [inProcess, onServer]) await runPostgresMigrations(client);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([inProcess?.close(), onServer?.close()]);
  });
  const ready = (client: SqlClient | undefined): SqlClient => {
    if (!client) throw new Error("postgresBackends: the client is ready only inside tests");
    return client;
  };
  return [
    { label: "PGlite", client: () => ready(inProcess) },
    { label: "PostgreSQL server", client: () => ready(onServer) },
  ];
}
