/**
 * Starts the real `groundwork serve` process (the built CLI) on an ephemeral
 * loopback port and a temporary data folder, and reads its first-start output:
 * the listening URL and the bootstrap Admin key. For end-to-end tests (the MCP
 * server, the CLI contract) that must see the server exactly as users run it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "./temp-dir.js";

export interface StartServerOptions {
  /** Data folder; a temporary one (removed on stop) when omitted. */
  dataDir?: string;
  /** Extra environment, e.g. GROUNDWORK_BUILTIN_BASE_URL pointing at a scripted upstream. */
  env?: Record<string, string>;
  /** Path of the server CLI; defaults to the monorepo's packages/server/dist/cli.js. */
  cliPath?: string;
  timeoutMs?: number;
}

export interface StartedServer {
  url: string;
  dataDir: string;
  /** The bootstrap Admin key printed on first start (null when the data folder was not empty). */
  adminKey: string | null;
  process: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and waits for the exit code. */
  stop(): Promise<number | null>;
}

const DEFAULT_CLI = fileURLToPath(new URL("../../server/dist/cli.js", import.meta.url));

export async function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const cliPath = options.cliPath ?? DEFAULT_CLI;
  if (!existsSync(cliPath)) {
    throw new Error(`Server CLI not found at ${cliPath}: run \`pnpm build\` first`);
  }
  const temp = options.dataDir === undefined ? makeTempDir("groundwork-server-") : null;
  const dataDir = options.dataDir ?? temp?.path ?? "";
  const child = spawn(process.execPath, [cliPath, "serve", "--port", "0", "--data", dataDir], {
    env: { ...process.env, GROUNDWORK_LOG_LEVEL: "warn", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`Server did not start within ${options.timeoutMs ?? 15_000} ms:\n${output}`));
    }, options.timeoutMs ?? 15_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    url,
    dataDir,
    adminKey: /^(gw_[A-Za-z0-9_-]+)$/m.exec(output)?.[1] ?? null,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      temp?.remove();
      return code;
    },
  };
}
