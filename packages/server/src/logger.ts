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
