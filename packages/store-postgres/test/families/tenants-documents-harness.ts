/**
 * What the contracts of the tenants-and-documents families (pgA: organizations, apiKeys,
 * providers, files, conversionTasks, storedResponses, extractions) open: those families as the
 * platform's ports (every method may answer a value or a Promise, so a contract `await`s every
 * call and runs on the synchronous SQLite store too), over a clock the test moves.
 */
import type { StorePort } from "../../../platform/src/store-port.js";
import type { Store } from "../../../store-sqlite/src/open-store.js";

export interface TestClock {
  time: number;
  now(): number;
}

export function testClock(start = Date.UTC(2026, 0, 1)): TestClock {
  const clock: TestClock = { time: start, now: () => clock.time };
  return clock;
}

export type FamilyPorts<K extends keyof Store> = { [P in K]: StorePort<Store[P]> };

/** Opens the families on a fresh store (SQLite) or on the backend's shared database (PostgreSQL). */
export type OpenFamilies<K extends keyof Store> = (clock: TestClock) => Promise<FamilyPorts<K>>;

let names = 0;
/** An organization name no other test (nor a previous run on the same server) has used. */
export function uniqueName(label = "org"): string {
  return `${label}-${++names}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The master secret the contracts seal provider keys with. */
export const TEST_SECRET = "a-test-master-secret-of-some-length";
