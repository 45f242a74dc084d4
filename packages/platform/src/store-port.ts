/**
 * The store the platform needs, as ports whose every method may answer a value or a
 * Promise of it (issue #24). The SQLite store answers synchronously and satisfies these
 * ports as it is — no wrapper, so no per-call cost on SQLite; a PostgreSQL store answers
 * Promises. Platform, server and MCP code therefore `await` every store call and never
 * start a transaction themselves: a multi-step atomic write is one store method.
 *
 * The families' shapes are read from store-sqlite's classes (type-only import); a later
 * step may spell them out as interfaces of their own.
 */
import type { MaybePromise } from "@groundwork/core";
import type { Store } from "@groundwork/store-sqlite";

/**
 * A store family as a port: each method answers `MaybePromise` of what the SQLite method
 * answers (a method that already answers a Promise keeps it); non-method members stay as they
 * are. Generic methods lose their type parameter through `infer` (and an overloaded one keeps
 * its last signature), so those few are written out by hand below. The check is on `[R]`, not
 * `R`, so that it does not distribute: `T | null` must become `MaybePromise<T | null>`.
 */
export type StorePort<F> = {
  [K in keyof F]: F[K] extends (...args: infer A) => infer R
    ? (...args: A) => [R] extends [Promise<unknown>] ? R : MaybePromise<R>
    : F[K];
};

/**
 * `atomically` of a family: runs `work` so that no other writer interleaves with its
 * reads and writes, and nothing it wrote stays when it throws. `work` awaits the store.
 */
export interface AtomicPort {
  atomically<T>(work: () => Promise<T>): Promise<T>;
}

type Families = Omit<Store, "db" | "close">;
type GenericMembers = "atomically" | "transaction";

/** Each family of the store as a port (see {@link StorePort}), `atomically` typed by hand. */
export type StoreFamilies = {
  readonly [K in keyof Families]: StorePort<Omit<Families[K], GenericMembers>> &
    ("atomically" extends keyof Families[K] ? AtomicPort : unknown);
};

/** The store a Groundwork runs on: its families as ports, a liveness probe and `close()`. */
export type PlatformStore = StoreFamilies & {
  /** Answers when the database answers (the server's health check); throws when it does not. */
  ping(): MaybePromise<void>;
  close(): MaybePromise<void>;
};
