/**
 * The one thing the PostgreSQL stores need of a driver: parameterised queries, multi-statement
 * scripts (migrations), transactions on one connection, and LISTEN. Two adapters: node-postgres
 * (`pg.Pool`, a real server) and PGlite (in-process Postgres, for tests and single-process apps).
 */
import type { Pool, PoolClient } from "pg";

export interface SqlQueryable {
  /** One statement with `$1…` parameters. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface SqlClient extends SqlQueryable {
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify` with each NOTIFY payload sent on `channel`; resolves to a function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Channel names are identifiers in LISTEN (no parameters there): only plain ones are accepted. */
function channelName(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
  return channel;
}

function onConnection(client: Pool | PoolClient): SqlQueryable {
  return {
    query: async <Row>(text: string, params?: readonly unknown[]) => {
      const result = await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as Row[] };
    },
    exec: async (script) => {
      // Without parameters node-postgres uses the simple query protocol, which runs every statement.
      await client.query(script);
    },
  };
}

/** A client over a node-postgres pool (a real PostgreSQL server). `close` ends the pool. */
export function fromPgPool(pool: Pool): SqlClient {
  // An idle pooled connection that the server drops (a restart, an administrator's terminate) is
  // discarded by the pool and the next query connects anew; without a listener Node would treat
  // the pool's `error` event as an uncaught exception and stop the process.
  pool.on("error", () => {});
  // Listening connections stay checked out of the pool, and `pool.end()` waits for every checked-out
  // connection: closing the client stops them first, so a close never waits on a listener.
  const listeners = new Set<() => Promise<void>>();
  return {
    ...onConnection(pool),
    async transaction(work) {
      const connection = await pool.connect();
      try {
        await connection.query("BEGIN");
        const result = await work(onConnection(connection));
        await connection.query("COMMIT");
        return result;
      } catch (error) {
        await connection.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    async listen(channel, onNotify) {
      // A dedicated connection: a pooled one would be handed to other queries between notifications.
      const connection = await pool.connect();
      // A dropped listening connection only stops the wake-ups: the workers' polls go on.
      const dropped = () => {};
      connection.on("error", dropped);
      const name = channelName(channel);
      const handler = (message: { channel: string; payload?: string | undefined }) => {
        if (message.channel === name) onNotify(message.payload ?? "");
      };
      connection.on("notification", handler);
      await connection.query(`LISTEN ${name}`);
      const stop = async () => {
        if (!listeners.delete(stop)) return;
        connection.off("notification", handler);
        await connection.query(`UNLISTEN ${name}`).catch(() => {});
        connection.off("error", dropped);
        connection.release();
      };
      listeners.add(stop);
      return stop;
    },
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

/** What this package uses of a PGlite instance (`@electric-sql/pglite`), so it stays a dev dependency. */
export interface PGliteLike {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  exec(script: string): Promise<unknown>;
  transaction<T>(work: (tx: Pick<PGliteLike, "query" | "exec">) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

function onPGlite(db: Pick<PGliteLike, "query" | "exec">): SqlQueryable {
  return {
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      db.query<Row>(text, params as unknown[] | undefined),
    exec: async (script) => {
      await db.exec(script);
    },
  };
}

/** A client over PGlite (in-process PostgreSQL). `close` closes the database. */
export function fromPGlite(db: PGliteLike): SqlClient {
  return {
    ...onPGlite(db),
    transaction: (work) => db.transaction((tx) => work(onPGlite(tx))),
    listen: (channel, onNotify) => db.listen(channelName(channel), onNotify),
    close: () => db.close(),
  };
}
