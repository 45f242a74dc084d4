/**
 * What a store-family contract runs on: the family (SQLite's, answering values, or
 * PostgreSQL's, answering Promises — the contract awaits both), a clock the test moves, and
 * fresh organizations: a row on both stores (foreign keys hold on both, PG160).
 */
import { defaultIdGenerator, type IdGenerator, type MaybePromise } from "@groundwork/core";
import { openStore, type Store } from "../../../store-sqlite/src/open-store.js";
import type { ScoreStore } from "../../../store-sqlite/src/scores.js";
import { PostgresScoreStore } from "../../src/postgres-scores.js";
import type { SqlClient } from "../../src/sql-client.js";
import type { PostgresBackend } from "../postgres-backends.js";
import { postgresOrganization } from "./family-fixture.js";

/** A family as a port: every method may answer a value or a Promise of it. */
export type Port<F> = MethodsAsPorts<Omit<F, "atomically" | "transaction">> & {
  atomically<T>(work: () => Promise<T>): MaybePromise<T>;
};

type MethodsAsPorts<F> = {
  [K in keyof F]: F[K] extends (...args: infer A) => infer R
    ? (...args: A) => MaybePromise<Awaited<R>>
    : F[K];
};

/** A clock the test moves; starts at a fixed instant so both stores see the same times. */
export class TestClock {
  private time = 1_767_225_600_000;
  now(): number {
    return this.time;
  }
  advance(ms = 1): void {
    this.time += ms;
  }
}

export interface FamilyHarness<F> {
  family: Port<F>;
  clock: TestClock;
  /** A new organization's id. */
  organization(): Promise<string>;
  /** The scores family on the same database (annotation-queue items list the scores given through them). */
  scores: Port<ScoreStore>;
}

export interface HarnessOptions {
  /** Ids for the family's new rows (default: core's generator). */
  ids?: IdGenerator;
}

export type OpenFamily<F> = (options?: HarnessOptions) => Promise<FamilyHarness<F>>;

/** The SQLite family of a fresh in-memory store (the reference). */
export function onSqlite<F>(pick: (store: Store) => F): OpenFamily<F> {
  return async (options = {}) => {
    const clock = new TestClock();
    const store = openStore({ file: ":memory:", clock, ids: options.ids ?? defaultIdGenerator });
    let organizations = 0;
    return {
      family: pick(store) as Port<F>,
      clock,
      organization: async () => store.organizations.create(`org ${++organizations}`, "enterprise").id,
      scores: store.scores,
    };
  };
}

/**
 * A PostgreSQL family on the backend's migrated database; organizations are fresh rows. `F` is
 * the SQLite family it stands in for: the PostgreSQL class must be assignable to its port.
 */
export function onPostgres<F>(
  backend: PostgresBackend,
  make: (client: SqlClient, clock: TestClock, ids: IdGenerator) => Port<F>,
): OpenFamily<F> {
  return async (options = {}) => {
    const clock = new TestClock();
    const ids = options.ids ?? defaultIdGenerator;
    return {
      family: make(backend.client(), clock, ids),
      clock,
      organization: () => postgresOrganization(backend.client(), clock),
      scores: new PostgresScoreStore(backend.client(), clock, ids),
    };
  };
}

/**
 * Ids handed out in order from `list` (then core's generator), after a tag of their own so
 * runs on one database never collide: lets a test choose how ids sort.
 */
export function scriptedIds(list: readonly string[]): IdGenerator {
  const tag = Math.random().toString(36).slice(2, 8);
  let next = 0;
  return (prefix) => {
    const id = list[next++];
    return id === undefined ? defaultIdGenerator(prefix) : `${prefix}_${tag}_${id}`;
  };
}

/** Bytewise order of two strings (SQLite's BINARY collation; PostgreSQL's "C"). */
export const bytewise = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every page of a listing (pages are 0-based) read with `size`, concatenated; checks that
 * each page reports the same total and that no page past the last has items.
 */
export async function readAllPages<T>(
  list: (page: { page: number; size: number }) => MaybePromise<{ items: T[]; total: number }>,
  size: number,
): Promise<{ items: T[]; total: number }> {
  const first = await list({ page: 0, size });
  const items = [...first.items];
  const pages = Math.ceil(first.total / size);
  for (let page = 1; page < pages; page++) {
    const next = await list({ page, size });
    if (next.total !== first.total)
      throw new Error(`page ${page} reports total ${next.total}, not ${first.total}`);
    items.push(...next.items);
  }
  const past = await list({ page: Math.max(pages, 1), size });
  if (past.items.length > 0) throw new Error("a page past the last has items");
  return { items, total: first.total };
}

/** Lets `expect(...).rejects/resolves` take a call that may answer synchronously (SQLite) or not. */
export const settle = <T>(call: () => MaybePromise<T>): Promise<T> => Promise.resolve().then(call);
