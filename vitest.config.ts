import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { projects } from "./vitest.workspace.ts";

const packagesDir = fileURLToPath(new URL("./packages/", import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources of sibling packages, not their dist builds.
    alias: [
      {
        find: /^@groundwork\/([a-z-]+)$/,
        replacement: `${packagesDir}$1/src/index.ts`,
      },
    ],
  },
  test: {
    projects,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
