/**
 * Bundles the browser console (web/main.ts → app.js) with esbuild and copies the static
 * files of public/ beside it. Run by the package's build script; tests call `buildWeb()` so the
 * browser tests never run against a stale bundle.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url));

export async function buildWeb(outDir = join(PACKAGE_DIR, "dist", "web")): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(PACKAGE_DIR, "web", "main.ts")],
    outfile: join(outDir, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    minify: true,
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
  });
  const publicDir = join(PACKAGE_DIR, "public");
  for (const file of readdirSync(publicDir)) copyFileSync(join(publicDir, file), join(outDir, file));
  return outDir;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildWeb();
}
