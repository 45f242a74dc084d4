/**
 * One real PostgreSQL server for the whole test run of this package: starting one costs
 * seconds (initdb), so test files share it and each creates its own database
 * (`createTestDatabase`). Stopped and removed when the run ends.
 */
import type { TestProject } from "vitest/node";
import { startTestServer } from "./embedded-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer();
  project.provide("postgresAdminUrl", server.adminUrl);
  return () => server.stop();
}
