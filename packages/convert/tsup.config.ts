import { defineConfig } from "tsup";

export default defineConfig({
  // parse-worker is a separate entry: worker threads load it by file name.
  entry: ["src/index.ts", "src/ocr.ts", "src/parse-worker.ts"],
  format: ["esm"],
  dts: { entry: ["src/index.ts", "src/ocr.ts"] },
  clean: true,
  sourcemap: true,
  target: "node20",
});
