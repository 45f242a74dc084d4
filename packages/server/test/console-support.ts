/** Builds the web console into a fresh temporary folder for the server's console tests. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWeb } from "../../console/scripts/build-web.ts";

/** A fresh build (never a stale dist) in its own folder, so parallel test files do not race. */
export function buildConsole(): Promise<string> {
  return buildWeb(mkdtempSync(join(tmpdir(), "groundwork-console-")));
}

/** Debian's chromium, or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
