/**
 * The frame every SQLite store of a resource family shares: the database, its statement
 * cache, the clock and id generator, and an immediate transaction for a service's
 * read-check-write. Stores extend it instead of repeating the constructor.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import type { Database, Statement } from "better-sqlite3";
import { runAtomically } from "./atomic-work.js";
import { statementCache } from "./statement-cache.js";

export abstract class SqliteStore {
  protected readonly sql: (text: string) => Statement;

  constructor(
    protected readonly db: Database,
    protected readonly clock: Clock = systemClock,
    protected readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * Runs `work` in an immediate transaction: no other writer between its reads and its
   * writes, and nothing written when it throws (inner store transactions nest as savepoints).
   * `work` may be async (a service awaiting the store): see atomic-work.ts.
   */
  atomically<T>(work: () => T): T {
    return runAtomically(this.db, work);
  }
}
