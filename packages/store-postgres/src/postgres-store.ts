/**
 * The frame every PostgreSQL store of a resource family shares, as `SqliteStore` is on SQLite:
 * the client, the clock and id generator, multi-statement writes in one transaction, and
 * `atomically` for a service's read-check-write.
 *
 * A unit of work (a transaction) is found through the async context: every family built on
 * this frame over the same client runs its statements on the open transaction's connection
 * while `work` runs, so a service's block spanning several families (plugins writing skills,
 * connectors and agents) commits or rolls back as one. One nested inside another is a savepoint,
 * as on SQLite (decision PG61).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

interface OpenUnit {
  client: SqlClient;
  tx: SqlQueryable;
  savepoints: number;
}

const openUnit = new AsyncLocalStorage<OpenUnit>();

/**
 * Held (transaction-scoped) by every `atomically` unit: units serialise as SQLite's
 * BEGIN IMMEDIATE serialises them, across processes too, so a quota or `ifMatch` check sees
 * no concurrent unit's write. Plain statements outside units do not take it.
 */
const ATOMIC_LOCK = 0x67_77_61_74; // "gwat"

export abstract class PostgresStore {
  constructor(
    protected readonly client: SqlClient,
    protected readonly clock: Clock = systemClock,
    protected readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** Where a statement runs: the open unit of work's connection, else the pool. */
  protected get db(): SqlQueryable {
    const open = openUnit.getStore();
    return open !== undefined && open.client === this.client ? open.tx : this.client;
  }

  protected async rows<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.db.query<Row>(text, params)).rows;
  }

  protected async row<Row>(text: string, params: readonly unknown[] = []): Promise<Row | undefined> {
    return (await this.db.query<Row>(text, params)).rows[0];
  }

  /** Rows a statement with `RETURNING` touched (UPDATE/DELETE … RETURNING 1). */
  protected async changes(text: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.db.query(text, params)).rows.length;
  }

  /**
   * Runs `work` as one transaction: inside an open unit of work as a savepoint (rolled back
   * alone when it throws), else on a connection of its own.
   */
  protected async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const open = openUnit.getStore();
    if (open === undefined || open.client !== this.client) {
      return this.client.transaction((tx) => openUnit.run({ client: this.client, tx, savepoints: 0 }, work));
    }
    const name = `gw_unit_${++open.savepoints}`;
    await open.tx.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await open.tx.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await open.tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
      await open.tx.query(`RELEASE SAVEPOINT ${name}`);
      throw error;
    }
  }

  /**
   * Runs `work` in one transaction that no other unit interleaves with (an advisory lock every
   * unit takes), and nothing written when it throws; the store calls it makes, on any family
   * over this client, join it.
   */
  atomically<T>(work: () => T | Promise<T>): Promise<T> {
    const nested = openUnit.getStore()?.client === this.client;
    return this.inTransaction(async () => {
      if (!nested) await this.db.query("SELECT pg_advisory_xact_lock($1)", [ATOMIC_LOCK]);
      return work();
    });
  }
}
