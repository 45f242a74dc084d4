/**
 * The store a platform, server or MCP test runs on, chosen by `GROUNDWORK_TEST_STORE`:
 * - unset (or `async`): a SQLite store in memory, as `openStore({ file: ":memory:" })`;
 *   with `async`, ./async-store-setup.ts additionally wraps the stores the platform composes;
 * - `postgres`: a fresh database on the run's PostgreSQL server (store-postgres' global setup,
 *   which the `*-on-postgres` projects of vitest.workspace.ts run), with every migration applied.
 * Tests `await` every call on it, so one test body holds both stores to the same answers.
 */
import type { Clock, IdGenerator } from "@groundwork/core";
import { openStore } from "@groundwork/store-sqlite";
import { openTestPostgresStore } from "../../store-postgres/test/test-store.js";
import type { PlatformStore } from "../src/store-port.js";

export type TestStoreKind = "sqlite" | "async" | "postgres";

export function testStoreKind(): TestStoreKind {
  const kind = process.env.GROUNDWORK_TEST_STORE ?? "sqlite";
  if (kind === "sqlite" || kind === "async" || kind === "postgres") return kind;
  throw new Error(`GROUNDWORK_TEST_STORE="${kind}": expected sqlite, async or postgres`);
}

/** Whether this run's tests are on PostgreSQL (for the few tests that read SQLite itself). */
export function onPostgres(): boolean {
  return testStoreKind() === "postgres";
}

export interface TestStoreOptions {
  secret?: string;
  clock?: Clock;
  ids?: IdGenerator;
}

export async function openTestStore(options: TestStoreOptions = {}): Promise<PlatformStore> {
  if (onPostgres()) return openTestPostgresStore(options);
  return openStore({ file: ":memory:", ...options });
}
