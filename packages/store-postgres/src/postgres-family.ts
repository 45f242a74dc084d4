/**
 * The frame every PostgreSQL store family shares (the counterpart of store-sqlite's
 * `SqliteStore`): the client, the clock and id generator, the connection a call runs on, and
 * units of work.
 *
 * A unit of work (`atomically`) is one transaction on one connection: the family's calls made
 * inside it — from any family on the same client, found through the async context (decision
 * PG22) — run on that connection, so a service's read-check-write sees and writes one state and
 * nothing of it stays when it throws. SQLite's units take the database's write lock (BEGIN
 * IMMEDIATE); here a unit takes one transaction-scoped advisory lock, so units from every
 * process on the database run one at a time as they do on SQLite, while plain reads and the
 * families' single-statement writes do not wait (decision PG80). A unit inside a unit, and a
 * family's own multi-statement write inside a unit, is a savepoint.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

interface OpenUnit {
  client: SqlClient;
  tx: SqlQueryable;
}

const openUnit = new AsyncLocalStorage<OpenUnit>();

/** The advisory lock every unit of work takes ("gwuw"); the migrations' lock is another number. */
export const UNIT_OF_WORK_LOCK = 0x67_77_75_77;

/** The connection to run on: the open unit's when the caller is inside one on this client. */
export function connectionOf(client: SqlClient): SqlQueryable {
  const unit = openUnit.getStore();
  return unit?.client === client ? unit.tx : client;
}

async function inSavepoint<T>(tx: SqlQueryable, work: () => Promise<T>): Promise<T> {
  await tx.query('SAVEPOINT "atomic_work"');
  try {
    const result = await work();
    await tx.query('RELEASE SAVEPOINT "atomic_work"');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT "atomic_work"');
    await tx.query('RELEASE SAVEPOINT "atomic_work"');
    throw error;
  }
}

/** Runs `work` as a unit of work on `client` (see the file comment). */
export async function atomicallyOn<T>(client: SqlClient, work: () => Promise<T>): Promise<T> {
  const unit = openUnit.getStore();
  if (unit?.client === client) return inSavepoint(unit.tx, work);
  return client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [UNIT_OF_WORK_LOCK]);
    return openUnit.run({ client, tx }, work);
  });
}

/**
 * Runs a family's multi-statement write in one transaction: a savepoint of the open unit when
 * the caller is in one, else a transaction of its own (without the units' lock: the write
 * locks the rows it reads with FOR UPDATE where another writer could race it).
 */
export async function transactionOn<T>(
  client: SqlClient,
  work: (tx: SqlQueryable) => Promise<T>,
): Promise<T> {
  const unit = openUnit.getStore();
  if (unit?.client === client) return inSavepoint(unit.tx, () => work(unit.tx));
  return client.transaction((tx) => openUnit.run({ client, tx }, () => work(tx)));
}

/**
 * Whether a key can match no stored row because it holds a NUL character: PostgreSQL's text
 * cannot hold one (SQLite's can), and as a parameter it is refused as an encoding error. A
 * lookup by such a key (an id from a request path) answers "not found" without asking, as the
 * same lookup on SQLite does.
 */
export function matchesNoRow(...keys: readonly string[]): boolean {
  return keys.some((key) => key.includes("\0"));
}

export abstract class PostgresFamily {
  constructor(
    protected readonly client: SqlClient,
    protected readonly clock: Clock = systemClock,
    protected readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** The connection this call runs on (the open unit's, if any). */
  protected get db(): SqlQueryable {
    return connectionOf(this.client);
  }

  /** The rows of one statement on the call's connection. */
  protected async rows<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.db.query<Row>(text, params)).rows;
  }

  /** The first row of one statement, or undefined. */
  protected async row<Row>(text: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    return (await this.db.query<Row>(text, params)).rows[0];
  }

  /** How many rows a statement with `RETURNING` touched (UPDATE/DELETE … RETURNING 1). */
  protected async changes(text: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.db.query(text, params)).rows.length;
  }

  /** A multi-statement write whose statements go through `this.db` (see `transactionOn`). */
  protected inTransaction<T>(work: () => Promise<T>): Promise<T> {
    return transactionOn(this.client, () => work());
  }

  /** A family's own multi-statement write (see `transactionOn`). */
  protected transactionally<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return transactionOn(this.client, work);
  }

  /**
   * Runs `work` so that no other unit of work interleaves with its reads and writes, and
   * nothing it wrote stays when it throws (the platform's `AtomicPort`).
   */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return atomicallyOn(this.client, work);
  }
}

/** `$n` placeholders for a statement built from optional clauses: `p(value)` adds a parameter and answers its placeholder. */
export function parameters(initial: readonly unknown[] = []): {
  values: unknown[];
  p: (value: unknown) => string;
} {
  const values = [...initial];
  return {
    values,
    p: (value) => {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

/** Whether `error` is PostgreSQL's unique violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}
