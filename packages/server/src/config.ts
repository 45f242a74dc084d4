/**
 * Server configuration from CLI flags and the environment (DESIGN.md contracts):
 * flags win over GROUNDWORK_* variables, which win over defaults.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LogLevel } from "./logger.js";

export interface ServerConfig {
  dataDir: string;
  host: string;
  port: number;
  /** Master key for provider credentials (AES-256-GCM); from GROUNDWORK_SECRET or `<data>/secret`. */
  secret: string;
  builtinBaseUrl: string | null;
  builtinApiKey: string | null;
  allowPrivateNetwork: boolean;
  logLevel: LogLevel;
  /** Concurrent calls to an organization's own providers (GROUNDWORK_BYOK_CONCURRENCY, default 16). */
  byokConcurrency: number;
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

export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolveDataDir(flags.dataDir, env);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const level = env.GROUNDWORK_LOG_LEVEL ?? "info";
  if (!["debug", "info", "warn", "error"].includes(level)) {
    throw new Error(`Invalid GROUNDWORK_LOG_LEVEL "${level}": expected debug, info, warn or error`);
  }
  return {
    dataDir,
    host: flags.host ?? DEFAULT_HOST,
    port: parsePort(flags.port ?? env.GROUNDWORK_PORT ?? String(DEFAULT_PORT)),
    secret: env.GROUNDWORK_SECRET ?? loadOrCreateSecret(dataDir),
    builtinBaseUrl: env.GROUNDWORK_BUILTIN_BASE_URL || null,
    builtinApiKey: env.GROUNDWORK_BUILTIN_API_KEY || null,
    allowPrivateNetwork: env.GROUNDWORK_ALLOW_PRIVATE_NETWORK === "1",
    logLevel: level as LogLevel,
    byokConcurrency: parsePositiveInteger(
      env.GROUNDWORK_BYOK_CONCURRENCY ?? "16",
      "GROUNDWORK_BYOK_CONCURRENCY",
    ),
  };
}

/** Generated once into the data folder so restarts can still decrypt stored credentials. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return secret;
}
