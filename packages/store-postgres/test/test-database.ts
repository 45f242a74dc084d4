/** A fresh database on the run's shared PostgreSQL server (test/global-setup.ts). */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { createDatabaseOn } from "./embedded-server.js";

export interface TestDatabaseOptions {
  /** Copy the run's migrated template instead of starting empty. */
  migrated?: boolean;
}

export function createTestDatabase(name: string, options: TestDatabaseOptions = {}): Promise<string> {
  return createDatabaseOn(
    inject("postgresAdminUrl"),
    `${name}_${randomBytes(4).toString("hex")}`,
    options.migrated ? inject("postgresTemplate") : undefined,
  );
}
