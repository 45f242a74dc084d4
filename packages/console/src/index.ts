/**
 * The web console's location on disk. The server serves this folder at `/console/`; it holds
 * `index.html`, the bundled `app.js` and `styles.css` that `scripts/build-web.ts` writes.
 */
import { fileURLToPath } from "node:url";

/**
 * The folder with the built console. Resolved from this module, so it is the same from the
 * sources (src/index.ts → ../dist/web) and from a packed install (dist/index.js → ../dist/web).
 */
export function consoleDir(): string {
  return fileURLToPath(new URL("../dist/web/", import.meta.url));
}

/** The file the server answers for every `/console/*` path that is not a file (deep links). */
export const CONSOLE_INDEX = "index.html";
