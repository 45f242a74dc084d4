// The one list of test projects. Vitest 4 no longer reads this file by itself:
// vitest.config.ts imports it as `test.projects`.
const packages = [
  "core",
  "scoring",
  "convert",
  "gateway",
  "extract",
  "kb",
  "agents",
  "store-sqlite",
  "platform",
  "server",
  "testkit",
  "client",
  "mcp",
] as const;

export const projects = packages.map((name) => ({
  extends: true as const,
  test: {
    name,
    root: `packages/${name}`,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
}));

export default projects;
