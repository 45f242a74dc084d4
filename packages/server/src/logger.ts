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

/** Whether a field name looks like a secret's, remembered: log calls use a handful of names. */
const secretNames = new Map<string, boolean>();
const SECRET_NAMES_KEPT = 1_000;

function isSecretName(name: string): boolean {
  let secret = secretNames.get(name);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(name);
    if (secretNames.size < SECRET_NAMES_KEPT) secretNames.set(name, secret);
  }
  return secret;
}

export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const name in fields) {
    if (!Object.hasOwn(fields, name)) continue;
    out[name] = isSecretName(name) ? "[redacted]" : fields[name];
  }
  return out;
}

/**
 * Field names that would not keep their place after `time`, `level` and `msg` in an object
 * (those three, which a field would overwrite in place, and array indices, which come first).
 */
const MOVED_NAME = /^(?:time|level|msg|__proto__|\d+)$/;

/** `"name":` of a field name, or null for a name that looks like a secret's; remembered like secretNames. */
const fieldPrefixes = new Map<string, string | null>();

function fieldPrefix(name: string): string | null {
  let prefix = fieldPrefixes.get(name);
  if (prefix === undefined) {
    prefix = isSecretName(name) ? null : `,${JSON.stringify(name)}:`;
    if (fieldPrefixes.size < SECRET_NAMES_KEPT) fieldPrefixes.set(name, prefix);
  }
  return prefix;
}

const REDACTED = `"[redacted]"`;

/**
 * The JSON line `JSON.stringify({ time, level, msg, ...redact(fields) })` gives, written field by
 * field without the two objects in between (the access log writes one per request, HP15).
 */
export function logLine(time: string, level: LogLevel, message: string, fields: LogFields): string {
  let line = `{"time":"${time}","level":"${level}","msg":${JSON.stringify(message)}`;
  for (const name in fields) {
    if (!Object.hasOwn(fields, name)) continue;
    if (MOVED_NAME.test(name)) return JSON.stringify({ time, level, msg: message, ...redact(fields) });
    const prefix = fieldPrefix(name);
    if (prefix === null) {
      line += `,${JSON.stringify(name)}:${REDACTED}`;
      continue;
    }
    // As in an object: a field whose value JSON has no form for (undefined, a function) is left out.
    const value = JSON.stringify(fields[name]);
    if (value !== undefined) line += prefix + value;
  }
  return `${line}}`;
}

/** The minute the cached ISO prefix belongs to, and that prefix (`YYYY-MM-DDTHH:MM:`). */
let cachedMinute = Number.NaN;
let cachedMinutePrefix = "";

/**
 * `new Date(ms).toISOString()` for the years 1970–9999, with the date, hour and minute reused from
 * the previous call in the same minute (formatting a Date was a third of a log line's cost).
 */
export function isoTime(ms: number): string {
  const minute = ms - (ms % 60_000);
  if (minute !== cachedMinute || ms < 0) {
    if (ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
    cachedMinute = minute;
    cachedMinutePrefix = new Date(minute).toISOString().slice(0, 17);
  }
  const inMinute = ms - minute;
  const seconds = Math.floor(inMinute / 1000);
  const millis = Math.floor(inMinute % 1000);
  return `${cachedMinutePrefix}${seconds < 10 ? "0" : ""}${seconds}.${millis < 100 ? (millis < 10 ? "00" : "0") : ""}${millis}Z`;
}

/** Log lines not yet written to stderr (see writeToStderr). */
let heldForStderr = "";

function flushStderr(): void {
  if (heldForStderr === "") return;
  const out = heldForStderr;
  heldForStderr = "";
  process.stderr.write(out);
}

let flushesOnExit = false;

/**
 * The default writer: the lines of one turn of the event loop leave in one write. Stderr to a file
 * or a pipe is written synchronously, a system call per line (one per request for the access log).
 * Whatever is held is written when the process exits.
 */
function writeToStderr(line: string): void {
  if (!flushesOnExit) {
    flushesOnExit = true;
    process.once("exit", flushStderr);
  }
  if (heldForStderr === "") setImmediate(flushStderr);
  heldForStderr += line;
}

export function createLogger(
  options: { level?: LogLevel; write?: (line: string) => void; now?: () => Date } = {},
): Logger {
  const threshold = LEVELS[options.level ?? "info"];
  const write = options.write ?? writeToStderr;
  const now = options.now;
  const log =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      if (LEVELS[level] < threshold) return;
      const time = now === undefined ? isoTime(Date.now()) : now().toISOString();
      write(`${logLine(time, level, message, fields)}\n`);
    };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
