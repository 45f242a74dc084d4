/**
 * A store on the database at a location: a SQLite file or a PostgreSQL URL. A child process of a
 * test opens its parent's database with it (it has no vitest to ask for a test store, so this
 * module imports none).
 */
import { openStore } from "@groundwork/store-sqlite";
import { openPostgresStoreAt } from "../../store-postgres/test/store-at-url.js";
import type { PlatformStore } from "../src/store-port.js";
import type { TestStoreOptions } from "./test-store.js";

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}

export async function openStoreAt(location: string, options: TestStoreOptions = {}): Promise<PlatformStore> {
  if (isPostgresUrl(location)) return openPostgresStoreAt(location, options);
  return openStore({ file: location, ...options });
}
