/**
 * Structured logs: one JSON object per line. Log calls pass explicit fields;
 * anything whose name suggests a secret is replaced before writing, so a careless
 * field can never put a key or credential in the log.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /authorization|api[-_]?key|secret|password|token$|credential/i;

export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [name, value] of Object.entries(fields)) {
    out[name] = SECRET_FIELD.test(name) ? "[redacted]" : value;
  }
  return out;
}

export function createLogger(
  options: { level?: LogLevel; write?: (line: string) => void; now?: () => Date } = {},
): Logger {
  const threshold = LEVELS[options.level ?? "info"];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const log =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      if (LEVELS[level] < threshold) return;
      write(`${JSON.stringify({ time: now().toISOString(), level, msg: message, ...redact(fields) })}\n`);
    };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
