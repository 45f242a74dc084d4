import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // The SDKs stay external: they are dependencies, resolved at run time.
  external: ["openai", "@anthropic-ai/sdk", "undici"],
});
