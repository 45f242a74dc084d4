/**
 * A test database that outlives the stores on it, on the store `GROUNDWORK_TEST_STORE` picks
 * (./test-store.ts): a SQLite file, or a copy of the run's migrated template on the PostgreSQL
 * server. For the tests `openTestStore` cannot serve: a restart (close, open again), two stores at
 * once (another connection or process), a child process given its location, and reads of what is
 * at rest (ciphertexts, content left out, rows swept) that no store method shows.
 */
import { join } from "node:path";
import { openStore, type Store } from "@groundwork/store-sqlite";
import { makeTempDir } from "@groundwork/testkit";
import { queryPostgresAt } from "../../store-postgres/test/store-at-url.js";
import { createTestDatabase } from "../../store-postgres/test/test-database.js";
import type { PlatformStore } from "../src/store-port.js";
import { openStoreAt } from "./store-at.js";
import { onPostgres, type TestStoreOptions } from "./test-store.js";

export interface TestDatabase {
  /** What another process opens with `openStoreAt` (./store-at.ts): a SQLite file or a PostgreSQL URL. */
  readonly location: string;
  /** Another store on the database at each call. */
  open(options?: TestStoreOptions): Promise<PlatformStore>;
  /**
   * One SQL statement without parameters (write literals: `?` and `$1` differ), on a connection
   * of its own; answers the rows it reads. PostgreSQL answers `COUNT(*)` and BIGINT as strings.
   */
  query(text: string): Promise<Record<string, unknown>[]>;
  /** Closes the query connection and deletes a SQLite file (a PostgreSQL copy goes with the server). */
  remove(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  if (onPostgres()) {
    const url = await createTestDatabase("durable", { migrated: true });
    return {
      location: url,
      open: (options) => openStoreAt(url, options),
      query: (text) => queryPostgresAt(url, text),
      remove: async () => {},
    };
  }
  const dir = makeTempDir("gw-test-db-");
  const file = join(dir.path, "groundwork.db");
  let reader: Store | null = null;
  return {
    location: file,
    open: (options) => openStoreAt(file, options),
    async query(text) {
      reader ??= openStore({ file });
      const statement = reader.db.prepare(text);
      if (statement.reader) return statement.all() as Record<string, unknown>[];
      statement.run();
      return [];
    },
    async remove() {
      reader?.close();
      dir.remove();
    },
  };
}
