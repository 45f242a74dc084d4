/**
 * An honest stand-in for a networked database (issue #24): the SQLite store with every port
 * method answering a Promise that settles on a LATER macrotask (`setImmediate`), the call
 * itself made then — as a query reaches a server after a round trip. Code that forgets an
 * `await`, or relies on a store call answering in the same turn, fails against it as it
 * would against PostgreSQL. Only method results are deferred, not the records they answer;
 * non-method members (flags, counters) read through.
 */
import type { Store } from "@groundwork/store-sqlite";
import type { PlatformStore } from "../src/store-port.js";

/** Members of the SQLite store that are not families of the port. */
const NOT_FAMILIES = new Set<PropertyKey>(["db", "ping", "close"]);

const wrapped = new WeakMap<object, PlatformStore>();
const standIns = new WeakSet<object>();

/** Answers `run()` on a later macrotask: its value, or its rejection. */
function later<T>(run: () => T): Promise<Awaited<T>> {
  return new Promise<Awaited<T>>((resolve, reject) => {
    setImmediate(() => {
      try {
        resolve(run() as Awaited<T>);
      } catch (error) {
        reject(error);
      }
    });
  });
}

function deferredFamily<F extends object>(family: F): F {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(family, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      let method = methods.get(key);
      if (method === undefined) {
        method = (...args: unknown[]) =>
          later(() => (value as (...a: unknown[]) => unknown).apply(target, args));
        methods.set(key, method);
      }
      return method;
    },
  });
}

/**
 * The SQLite store as an asynchronous `PlatformStore` (the same stand-in for the same store,
 * and a stand-in is never wrapped twice). Test setup may keep using the SQLite store itself:
 * both read and write the same database.
 */
export function asyncStore(store: Store | PlatformStore): PlatformStore {
  if (standIns.has(store)) return store as PlatformStore;
  const known = wrapped.get(store);
  if (known !== undefined) return known;
  const families: Record<string, unknown> = {};
  for (const key of Object.keys(store)) {
    if (NOT_FAMILIES.has(key)) continue;
    families[key] = deferredFamily((store as unknown as Record<string, object>)[key] as object);
  }
  const standIn = {
    ...families,
    ping: () => later(() => store.ping()),
    close: () => later(() => store.close()),
  } as unknown as PlatformStore;
  wrapped.set(store, standIn);
  standIns.add(standIn);
  return standIn;
}

/** Whether tests run the platform on the stand-in (`GROUNDWORK_TEST_STORE=async`). */
export function asyncStoreRequested(): boolean {
  return process.env.GROUNDWORK_TEST_STORE === "async";
}
