/**
 * Runs a unit of work in one immediate transaction — synchronous work as better-sqlite3
 * runs it, and asynchronous work (a service that `await`s the store, issue #24) from
 * BEGIN IMMEDIATE to COMMIT around its awaits, ROLLBACK when it rejects.
 *
 * better-sqlite3 has one connection, so an open asynchronous transaction is the
 * connection's: a second asynchronous unit from elsewhere waits for it (they queue per
 * database), while one nested inside it (same async context) runs as a savepoint.
 * Known limit (decision PG22): a plain write that another request makes while such a unit
 * awaits lands in that transaction; SQLite calls answer synchronously, so the unit only
 * yields to microtasks and the window is small; the cure is the unit becoming one store method.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "better-sqlite3";

/** The database whose asynchronous transaction the current async context runs in. */
const owner = new AsyncLocalStorage<Database>();
/** Per database: settles when its open asynchronous transaction (and those queued) end. */
const tails = new WeakMap<Database, Promise<unknown>>();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

export function runAtomically<T>(db: Database, work: () => T): T {
  const nested = owner.getStore() === db;
  const tail = tails.get(db);
  // Another context's asynchronous transaction holds the connection: queue behind it.
  if (!nested && tail !== undefined) {
    const next = tail.then(
      () => runAtomically(db, work),
      () => runAtomically(db, work),
    );
    return next as T;
  }
  const savepoint = db.inTransaction;
  db.exec(savepoint ? 'SAVEPOINT "atomic_work"' : "BEGIN IMMEDIATE");
  let result: T;
  try {
    result = nested ? work() : owner.run(db, work);
  } catch (error) {
    undo(db, savepoint);
    throw error;
  }
  if (!isThenable(result)) {
    db.exec(savepoint ? 'RELEASE "atomic_work"' : "COMMIT");
    return result;
  }
  const settled = Promise.resolve(result).then(
    (value) => {
      db.exec(savepoint ? 'RELEASE "atomic_work"' : "COMMIT");
      return value;
    },
    (error: unknown) => {
      undo(db, savepoint);
      throw error;
    },
  );
  if (!nested) {
    const done = settled.finally(() => {
      if (tails.get(db) === done) tails.delete(db);
    });
    // The queue only orders; a rejection is the caller's, not the queue's.
    done.catch(() => undefined);
    tails.set(db, done);
  }
  return settled as T;
}

function undo(db: Database, savepoint: boolean): void {
  if (!db.inTransaction) return;
  if (savepoint) db.exec('ROLLBACK TO "atomic_work"; RELEASE "atomic_work"');
  else db.exec("ROLLBACK");
}
