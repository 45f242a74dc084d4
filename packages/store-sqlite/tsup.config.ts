import { defineConfig } from "tsup";

export default defineConfig({
  // kb-pack-reader-worker is a separate entry: the worker thread loads it by file name.
  entry: ["src/index.ts", "src/kb-pack-reader-worker.ts"],
  dts: { entry: ["src/index.ts"] },
  format: ["esm"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
