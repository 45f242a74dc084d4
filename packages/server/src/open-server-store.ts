/**
 * Opens the database the configuration names: the SQLite file in the data folder, or
 * PostgreSQL (GROUNDWORK_DATABASE_URL) for several server and worker processes on one
 * database. On PostgreSQL the per-organization limits are counted in the database too, so the
 * processes together never exceed one (issue #24); on SQLite they are counted in this process.
 */
import type { PlatformStore, SharedLimits } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";
import type { DatabaseConfig } from "./config.js";

export interface ServerStore {
  store: PlatformStore;
  /** Counters shared by every process on the database; empty on SQLite (in-process counters). */
  limits: SharedLimits;
  /** Which database, for people: the file, or PostgreSQL's host and database (never credentials). */
  description: string;
}

export async function openServerStore(
  database: DatabaseConfig,
  options: {
    secret?: string;
    /**
     * SQLite: WAL checkpoints on a thread of their own, so requests never wait for one (HP67).
     * `serve` sets it; a one-shot CLI command would only pay the thread's start and stop.
     */
    backgroundCheckpoints?: boolean;
  } = {},
): Promise<ServerStore> {
  if (database.kind === "sqlite") {
    return {
      store: openStore({
        file: database.file,
        backgroundCheckpoints: options.backgroundCheckpoints === true,
        ...(options.secret === undefined ? {} : { secret: options.secret }),
      }),
      limits: {},
      description: database.file,
    };
  }
  // Loaded only for PostgreSQL: a SQLite server (and every CLI command on it) starts without them.
  const [{ fromPgPool, openPostgresStore, PostgresConcurrencySlots, PostgresRequestCounter }, pg] =
    await Promise.all([import("@groundwork/store-postgres"), import("pg")]);
  const client = fromPgPool(new pg.default.Pool({ connectionString: database.url, max: database.poolSize }));
  // Migrates (once, under an advisory lock, however many processes start together).
  const store = await openPostgresStore({
    client,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
  }).catch(async (error: unknown) => {
    await client.close().catch(() => {});
    throw new Error(
      `Cannot open the PostgreSQL database ${describePostgres(database.url)}: ${messageOf(error)}`,
    );
  });
  return {
    store,
    limits: {
      requests: new PostgresRequestCounter(client),
      concurrency: new PostgresConcurrencySlots(client),
    },
    description: describePostgres(database.url),
  };
}

/** `postgresql://host:port/database`, without user nor password. */
export function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `postgresql://${parsed.host}${parsed.pathname}`;
  } catch {
    return "postgresql://…";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
