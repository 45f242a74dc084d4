/**
 * Serves the web console (PLATFORM.md §16) as static files at `/console/`: a file of the built
 * console when the path names one, its `index.html` for every other `/console/*` path (deep
 * links). No auth here: the console signs in against /v1 like any client. The security
 * headers keep every request on this origin (no CDN, works offline).
 */
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { CONSOLE_INDEX, consoleDir } from "@groundwork/console";
import { notFound } from "@groundwork/core";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/env.js";

export const CONSOLE_PATH = "/console";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/** Same-origin only; converted HTML may embed data: images, downloads are blob: URLs. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  // The Convert page shows an uploaded PDF in the browser's viewer from a blob: URL.
  "frame-src blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

async function fileIn(root: string, relative: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return null;
  }
  const file = resolve(root, `.${sep}${decoded}`);
  // Never outside the console folder (`..`, encoded or not).
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

export function registerConsole(app: Hono<AppEnv>, dir: string = consoleDir()): void {
  const root = resolve(dir);
  const send = async (c: Context<AppEnv>, file: string) => {
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      throw notFound("The web console is not built (run the @groundwork/console build)");
    }
    const isIndex = file === join(root, CONSOLE_INDEX);
    return c.body(new Uint8Array(body), 200, {
      "Content-Type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      // The index names the bundle by a fixed path, so nothing may be cached without revalidation.
      "Cache-Control": "no-cache",
      "Content-Security-Policy": CONSOLE_CSP,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      ...(isIndex ? { "X-Frame-Options": "DENY" } : {}),
    });
  };
  app.get(CONSOLE_PATH, (c) => c.redirect(`${CONSOLE_PATH}/`, 308));
  app.get(`${CONSOLE_PATH}/*`, async (c) => {
    const relative = c.req.path.slice(CONSOLE_PATH.length + 1);
    const file = relative === "" ? null : await fileIn(root, relative);
    return send(c, file ?? join(root, CONSOLE_INDEX));
  });
}
