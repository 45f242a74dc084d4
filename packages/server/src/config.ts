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
  /** Where the data is: SQLite in the data folder, or PostgreSQL (GROUNDWORK_DATABASE_URL). */
  database: DatabaseConfig;
  /** Whether `serve` also runs the background workers; GROUNDWORK_WORKERS=0 or `--no-workers` turns them off. */
  workers: boolean;
  /**
   * `serve` warms the knowledge bases serving at least this many vectors after it starts listening
   * (GROUNDWORK_KB_WARM_MIN_CHUNKS; 0 turns it off; default `DEFAULT_KB_WARM_MIN_CHUNKS`).
   */
  kbWarmMinChunks?: number;
}

/** The database a server or CLI command opens (see `openServerStore`). */
export type DatabaseConfig =
  | { kind: "sqlite"; file: string }
  | {
      kind: "postgres";
      /** `postgres://…` or `postgresql://…`, credentials included: never logged nor printed. */
      url: string;
      /** Connections of this process's pool (GROUNDWORK_DATABASE_POOL_SIZE, default 10). */
      poolSize: number;
    };

export const DEFAULT_DATABASE_POOL_SIZE = 10;

export interface ConfigFlags {
  dataDir?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  /** `--no-workers`: serve the API only (the workers run elsewhere, `groundwork worker`). */
  noWorkers?: boolean | undefined;
}

export const DEFAULT_DATA_DIR = "./.groundwork";
/** Below ~50k vectors a knowledge base's first search loads in well under a second (HP68). */
export const DEFAULT_KB_WARM_MIN_CHUNKS = 50_000;
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
 * GROUNDWORK_DATABASE_URL selects PostgreSQL (`postgres://` or `postgresql://`); unset or empty,
 * the SQLite file in the data folder. Any other scheme is refused rather than ignored, so nobody
 * believes their data is in one database when it is in another. Messages name the scheme only:
 * the URL may carry a password.
 */
export function databaseFromEnv(dataDir: string, env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const url = env.GROUNDWORK_DATABASE_URL?.trim() ?? "";
  if (url === "") return { kind: "sqlite", file: databaseFile(dataDir) };
  return {
    kind: "postgres",
    url: parseDatabaseUrl(url),
    poolSize: parsePositiveInteger(
      env.GROUNDWORK_DATABASE_POOL_SIZE ?? String(DEFAULT_DATABASE_POOL_SIZE),
      "GROUNDWORK_DATABASE_POOL_SIZE",
    ),
  };
}

export function parseDatabaseUrl(raw: string): string {
  const expected = "expected postgres://user:password@host:5432/database (or postgresql://…)";
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1];
  if (scheme === undefined) throw new Error(`Invalid GROUNDWORK_DATABASE_URL: ${expected}`);
  if (scheme !== "postgres" && scheme !== "postgresql") {
    throw new Error(
      `Invalid GROUNDWORK_DATABASE_URL: scheme "${scheme}:" is not supported; ${expected}. ` +
        "Unset it to use SQLite in GROUNDWORK_DATA_DIR.",
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Invalid GROUNDWORK_DATABASE_URL (a ${scheme}: URL that does not parse): ${expected}`);
  }
  if (url.hostname === "" && !url.searchParams.has("host")) {
    throw new Error(`Invalid GROUNDWORK_DATABASE_URL: it names no host; ${expected}`);
  }
  return raw;
}

/** GROUNDWORK_KB_WARM_MIN_CHUNKS: a non-negative integer; `0` warms nothing at start. */
export function kbWarmMinChunks(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.GROUNDWORK_KB_WARM_MIN_CHUNKS?.trim() ?? "";
  if (raw === "") return DEFAULT_KB_WARM_MIN_CHUNKS;
  if (!/^(0|[1-9]\d*)$/.test(raw))
    throw new Error(`Invalid GROUNDWORK_KB_WARM_MIN_CHUNKS "${raw}": expected 0 (off) or a number of chunks`);
  return Number(raw);
}

/** GROUNDWORK_WORKERS: `0` serves the API without the background workers, `1` or unset runs them. */
export function workersEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.GROUNDWORK_WORKERS?.trim() ?? "";
  if (raw === "" || raw === "1") return true;
  if (raw === "0") return false;
  throw new Error(`Invalid GROUNDWORK_WORKERS "${raw}": expected 0 (API only) or 1 (API and workers)`);
}

export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolveDataDir(flags.dataDir, env);
  const database = databaseFromEnv(dataDir, env);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const level = env.GROUNDWORK_LOG_LEVEL ?? "info";
  if (!["debug", "info", "warn", "error"].includes(level)) {
    throw new Error(`Invalid GROUNDWORK_LOG_LEVEL "${level}": expected debug, info, warn or error`);
  }
  const host = flags.host ?? DEFAULT_HOST;
  const port = parsePort(flags.port ?? env.GROUNDWORK_PORT ?? String(DEFAULT_PORT));
  const platform = platformConfigFromEnv(env);
  const workers = flags.noWorkers !== true && workersEnabled(env);
  if (!workers && database.kind === "sqlite") {
    // On SQLite nothing else runs the jobs: they would wait forever.
    throw new Error(
      "Serving without workers (--no-workers or GROUNDWORK_WORKERS=0) needs GROUNDWORK_DATABASE_URL: " +
        "on SQLite the server runs the background workers itself.",
    );
  }
  return {
    dataDir,
    host,
    port,
    secret: env.GROUNDWORK_SECRET ?? loadOrCreateSecret(dataDir),
    logLevel: level as LogLevel,
    console: consoleEnabled(env),
    database,
    workers,
    kbWarmMinChunks: kbWarmMinChunks(env),
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
    // How long a background job's lease lasts: a worker that dies mid-job loses it after this (default 30).
    ...(env.GROUNDWORK_JOB_LEASE_SECONDS
      ? {
          workers: {
            leaseMs:
              parsePositiveInteger(env.GROUNDWORK_JOB_LEASE_SECONDS, "GROUNDWORK_JOB_LEASE_SECONDS") * 1000,
          },
        }
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
