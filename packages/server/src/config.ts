/**
 * Server configuration from CLI flags and the environment (DESIGN.md contracts):
 * flags win over GROUNDWORK_* variables, which win over defaults.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TokenPrice } from "@groundwork/gateway";
import type { GroundworkConfigInput } from "@groundwork/platform";
import type { LogLevel } from "./logger.js";

export interface ServerConfig {
  dataDir: string;
  host: string;
  port: number;
  /** Master key for provider credentials (AES-256-GCM); from GROUNDWORK_SECRET or `<data>/secret`. */
  secret: string;
  logLevel: LogLevel;
  /** The platform's settings, from the GROUNDWORK_* variables (see `platformConfigFromEnv`). */
  platform: GroundworkConfigInput;
  /** Whether `/console/` serves the web console; GROUNDWORK_CONSOLE=0 turns it off (PLATFORM.md §16). */
  console: boolean;
}

export interface ConfigFlags {
  dataDir?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
}

export const DEFAULT_DATA_DIR = "./.groundwork";
export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = "127.0.0.1";

export function databaseFile(dataDir: string): string {
  return join(dataDir, "groundwork.db");
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.GROUNDWORK_DATA_DIR ?? DEFAULT_DATA_DIR);
}

export function parsePort(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new Error(`Invalid port "${raw}": expected 0-65535`);
  return Number(raw);
}

function parsePositiveInteger(raw: string, name: string): number {
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`Invalid ${name} "${raw}": expected a positive integer`);
  return Number(raw);
}

/**
 * The server runs on SQLite only so far: `@groundwork/store-postgres` holds the job queue, not
 * yet every store family (README status table). A database URL is refused rather than ignored,
 * so nobody believes their data is in PostgreSQL when it is in the data folder.
 */
function refuseDatabaseUrl(env: NodeJS.ProcessEnv): void {
  if (env.GROUNDWORK_DATABASE_URL === undefined || env.GROUNDWORK_DATABASE_URL === "") return;
  throw new Error(
    "GROUNDWORK_DATABASE_URL is set, but the server cannot run on PostgreSQL yet: only the job queue has been " +
      "ported (@groundwork/store-postgres). Unset it to run on SQLite in GROUNDWORK_DATA_DIR.",
  );
}

export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  refuseDatabaseUrl(env);
  const dataDir = resolveDataDir(flags.dataDir, env);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const level = env.GROUNDWORK_LOG_LEVEL ?? "info";
  if (!["debug", "info", "warn", "error"].includes(level)) {
    throw new Error(`Invalid GROUNDWORK_LOG_LEVEL "${level}": expected debug, info, warn or error`);
  }
  const host = flags.host ?? DEFAULT_HOST;
  const port = parsePort(flags.port ?? env.GROUNDWORK_PORT ?? String(DEFAULT_PORT));
  const platform = platformConfigFromEnv(env);
  return {
    dataDir,
    host,
    port,
    secret: env.GROUNDWORK_SECRET ?? loadOrCreateSecret(dataDir),
    logLevel: level as LogLevel,
    console: consoleEnabled(env),
    // Connector pauses point to GROUNDWORK_CHAT_URL, by default the server's own origin.
    platform: {
      ...platform,
      chatUrl: platform.chatUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    },
  };
}

/** GROUNDWORK_CONSOLE: `0` turns the web console off, `1` or unset leaves it on; anything else is refused. */
export function consoleEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.GROUNDWORK_CONSOLE?.trim() ?? "";
  if (raw === "" || raw === "1") return true;
  if (raw === "0") return false;
  throw new Error(`Invalid GROUNDWORK_CONSOLE "${raw}": expected 0 (off) or 1 (on)`);
}

/**
 * The environment's share of the platform config (DESIGN.md contracts; the README's
 * configuration reference lists every variable). Error messages name these variables.
 */
export function platformConfigFromEnv(env: NodeJS.ProcessEnv = process.env): GroundworkConfigInput {
  const baseUrl = env.GROUNDWORK_BUILTIN_BASE_URL || null;
  const agents: NonNullable<GroundworkConfigInput["agents"]> = {};
  if (env.GROUNDWORK_PAUSE_WINDOW_SECONDS) {
    agents.pauseTimeoutMs =
      parsePositiveInteger(env.GROUNDWORK_PAUSE_WINDOW_SECONDS, "GROUNDWORK_PAUSE_WINDOW_SECONDS") * 1000;
  }
  // The `auto`-mode judge's model (PLATFORM.md §6); unset or blank: each run's answering model.
  const judgeModel = env.GROUNDWORK_JUDGE_MODEL?.trim();
  if (judgeModel) agents.judgeModel = judgeModel;
  return {
    builtin: baseUrl === null ? null : { baseUrl, apiKey: env.GROUNDWORK_BUILTIN_API_KEY ?? "" },
    visionModel: env.GROUNDWORK_VLM_MODEL || null,
    conversion: env.GROUNDWORK_TESSDATA_DIR ? { tessdataDir: resolve(env.GROUNDWORK_TESSDATA_DIR) } : {},
    allowPrivateNetwork: env.GROUNDWORK_ALLOW_PRIVATE_NETWORK === "1",
    ...(env.GROUNDWORK_CHAT_URL ? { chatUrl: env.GROUNDWORK_CHAT_URL.replace(/\/+$/, "") } : {}),
    byokConcurrency: parsePositiveInteger(
      env.GROUNDWORK_BYOK_CONCURRENCY ?? "16",
      "GROUNDWORK_BYOK_CONCURRENCY",
    ),
    ...(Object.keys(agents).length === 0 ? {} : { agents }),
    ...(env.GROUNDWORK_CHAT_PRICES?.trim()
      ? { chatPrices: parseChatPrices(env.GROUNDWORK_CHAT_PRICES) }
      : {}),
    // How long a claimed or updated annotation-queue item stays locked (PLATFORM.md §12; default 300, minimum 1).
    ...(env.GROUNDWORK_QUEUE_LOCK_SECONDS
      ? {
          queues: {
            lockSeconds: parsePositiveInteger(
              env.GROUNDWORK_QUEUE_LOCK_SECONDS,
              "GROUNDWORK_QUEUE_LOCK_SECONDS",
            ),
          },
        }
      : {}),
    webSearch: env.GROUNDWORK_WEB_SEARCH_URL
      ? {
          url: parseHttpUrl(env.GROUNDWORK_WEB_SEARCH_URL, "GROUNDWORK_WEB_SEARCH_URL"),
          apiKey: env.GROUNDWORK_WEB_SEARCH_API_KEY || null,
        }
      : null,
    settingNames: SERVER_SETTING_NAMES,
  };
}

/**
 * GROUNDWORK_CHAT_PRICES: the built-in chat price table as JSON, replacing the default —
 * `{"<model>|*": {"inputPerMillion": EUR, "outputPerMillion": EUR, "cachedInputPerMillion"?: EUR}}`.
 */
export function parseChatPrices(raw: string): Record<string, TokenPrice> {
  const fail = (why: string): never => {
    throw new Error(
      `Invalid GROUNDWORK_CHAT_PRICES: ${why}; expected {"<model>": {"inputPerMillion": EUR, "outputPerMillion": EUR}, …}`,
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail("not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return fail("not a JSON object");
  const prices: Record<string, TokenPrice> = {};
  for (const [model, entry] of Object.entries(parsed)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      fail(`"${model}" is not an object`);
    const price = entry as Record<string, unknown>;
    const amount = (field: string): number | undefined => {
      const value = price[field];
      if (value === undefined) return undefined;
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
        fail(`"${model}".${field} must be a number ≥ 0`);
      return value as number;
    };
    const input = amount("inputPerMillion");
    const output = amount("outputPerMillion");
    if (input === undefined || output === undefined)
      fail(`"${model}" needs inputPerMillion and outputPerMillion`);
    const cached = amount("cachedInputPerMillion");
    prices[model] = {
      inputPerMillion: input as number,
      outputPerMillion: output as number,
      ...(cached === undefined ? {} : { cachedInputPerMillion: cached }),
    };
  }
  return prices;
}

function parseHttpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Invalid ${name} "${value}": expected an http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`Invalid ${name} "${value}": expected an http(s) URL`);
  }
  return value;
}

/** How the platform's errors name a setting under the server: its environment variable. */
export const SERVER_SETTING_NAMES = {
  allowPrivateNetwork: "GROUNDWORK_ALLOW_PRIVATE_NETWORK=1",
  visionModel:
    "GROUNDWORK_VLM_MODEL, together with GROUNDWORK_BUILTIN_BASE_URL and GROUNDWORK_BUILTIN_API_KEY, when starting the server",
  builtin: "GROUNDWORK_BUILTIN_BASE_URL and GROUNDWORK_BUILTIN_API_KEY",
  judgeModel: "GROUNDWORK_JUDGE_MODEL",
  webSearch: "GROUNDWORK_WEB_SEARCH_URL",
} as const;

/** Generated once into the data folder so restarts can still decrypt stored credentials. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return secret;
}
