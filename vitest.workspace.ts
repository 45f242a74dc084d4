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

const packageProjects = packages.map((name) => ({
  extends: true as const,
  test: {
    name: name as string,
    root: `packages/${name}`,
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "fidelity/**/*.test.ts"],
    // One real PostgreSQL server shared by the package's test files (starting one takes seconds).
    globalSetup: name === "store-postgres" ? ["test/global-setup.ts"] : [],
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

export const projects = [...packageProjects, examplesProject];

export default projects;
