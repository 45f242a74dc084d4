import { defineConfig } from "tsup";

export default defineConfig({
  // The worker modules are separate entries: a worker thread loads its module by file name (worker-thread.ts).
  entry: ["src/index.ts", "src/kb-pack-reader-worker.ts", "src/wal-checkpoint-worker.ts"],
  dts: { entry: ["src/index.ts"] },
  format: ["esm"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
