import { defineConfig } from "tsup";

// The Node entry (where the built console lives); scripts/build-web.ts bundles the browser app.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
