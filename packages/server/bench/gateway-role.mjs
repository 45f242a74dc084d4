/**
 * The gateway of gateway-overhead.ts, started the way `groundwork serve` starts it: the built
 * server (`dist`) in plain Node. Under the TypeScript loader (tsx) every function is compiled with
 * esbuild's `keepNames`, so each closure a request creates also gets a `name` property defined —
 * work the built server never does. GATEWAY_BENCH_FROM=src runs the sources under tsx instead
 * (for profiles that name the source files). Run by gateway-overhead.ts:
 *   node packages/server/bench/gateway-role.mjs <upstream URL>
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const upstream = process.argv[2];
const fromSource = process.env.GATEWAY_BENCH_FROM === "src";
const { loadConfig, serveGroundwork } = await import(fromSource ? "../src/index.ts" : "../dist/index.js");

const directory = mkdtempSync(join(tmpdir(), "groundwork-bench-"));
const config = loadConfig(
  { dataDir: directory, host: "127.0.0.1", port: "0" },
  {
    GROUNDWORK_BUILTIN_BASE_URL: `${upstream}/v1`,
    GROUNDWORK_BUILTIN_API_KEY: "upstream-key",
    GROUNDWORK_SECRET: "bench-secret-0123456789",
  },
);
const server = await serveGroundwork(config);
process.stdout.write(`KEY ${server.bootstrap?.key ?? ""}\n`);
process.once("SIGINT", () => {
  void server.close().finally(() => process.exit(0));
});
process.once("exit", () => rmSync(directory, { recursive: true, force: true }));
process.stdout.write(`READY http://127.0.0.1:${server.port}\n`);
