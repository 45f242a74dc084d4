/**
 * `platform_bash` (PLATFORM.md §6): a simulated shell (just-bash) over an in-memory file
 * system. No host process is started and there is no network: only the built-ins of §6 are
 * registered (anything else is `command not found`, exit 127), the file system is built from
 * the conversation's snapshot (or reused from the previous call while the stored tree has not
 * changed, `BashTreeCache`), and only `/workspace` and `/tmp` are
 * writable (`/skills` holds read-only copies of the resolved skills).
 *
 * Limits: 64 KiB per output stream (`truncated`), 50 MiB and 1,000 files in the writable
 * tree (exceeding → exit 1 "No space left on device", the command's changes are dropped),
 * 5 s per command (exit 124), command ≤ 16 KiB (checked by the caller's schema).
 */
import { posix } from "node:path";
import { Bash, type CommandName, InMemoryFs } from "just-bash";
import { literalGrep } from "./bash-grep.js";

export const BASH_BUILTINS = [
  "cd",
  "pwd",
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "find",
  "echo",
  "printf",
  "mkdir",
  "touch",
  "rm",
  "mv",
  "cp",
  "sort",
  "uniq",
  "cut",
  "tr",
  "diff",
  "tee",
  "true",
  "false",
] as const;

export const BASH_LIMITS = {
  commandBytes: 16 * 1024,
  streamBytes: 64 * 1024,
  fsBytes: 50 * 1024 * 1024,
  fsFiles: 1000,
  timeoutMs: 5000,
} as const;

export const WORKSPACE = "/workspace";
export const WRITABLE_ROOTS = ["/workspace", "/tmp"] as const;
export const SKILLS_ROOT = "/skills";

/** A file of a resolved skill, copied read-only to `/skills/<qualifiedName>/<path>`. */
export interface SkillFiles {
  qualifiedName: string;
  files: ReadonlyArray<{ path: string; bytes: Uint8Array }>;
}

/** The writable tree: absolute path → file bytes, or `null` for a directory. */
export type BashSnapshot = Map<string, Uint8Array | null>;

/** One change to the writable tree: bytes, `null` for a directory, `undefined` for a deletion. */
export interface BashChange {
  path: string;
  kind: "file" | "dir" | "deleted";
  bytes: Uint8Array | null;
}

export interface BashResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  truncated: boolean;
}

export interface BashRun {
  result: BashResult;
  /** The changes to apply to the snapshot (empty when the command was refused or overflowed). */
  changes: BashChange[];
  /**
   * With `options.cache`, after a completed command: keeps its file system for the next call,
   * once the changes are committed and the tree has this revision. Not called → not kept.
   */
  keep?: (revision: string) => void;
}

export interface BashOptionsIn {
  skills?: readonly SkillFiles[];
  limits?: Partial<Record<keyof typeof BASH_LIMITS, number>>;
  /** Reuse the file system of an earlier call of the same tree (PT13). */
  cache?: { trees: BashTreeCache; key: string; revision: string };
}

interface CachedTree {
  revision: string;
  fs: InMemoryFs;
  snapshot: BashSnapshot;
  /** The in-memory bound the file system was made with (it depends on the skills' size). */
  bound: number;
  bytes: number;
}

/**
 * In-memory file systems kept between the calls of a conversation (PT13), at most
 * `maxEntries` of them holding at most `maxBytes` together (least recently used go first).
 * An entry is only used when its revision equals the store's current one, and it is taken
 * out while a command runs (a concurrent call of the same conversation rebuilds its own).
 */
export class BashTreeCache {
  private readonly entries = new Map<string, CachedTree>();

  constructor(
    readonly maxEntries = 8,
    readonly maxBytes = 128 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** @internal */
  take(key: string, revision: string, bound: number): CachedTree | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry !== undefined && entry.revision === revision && entry.bound === bound ? entry : undefined;
  }

  /** @internal */
  put(key: string, entry: CachedTree): void {
    this.entries.delete(key);
    if (entry.bytes > this.maxBytes || this.maxEntries < 1) return;
    this.entries.set(key, entry);
    let total = 0;
    for (const value of this.entries.values()) total += value.bytes;
    for (const [oldest, value] of this.entries) {
      if (this.entries.size <= this.maxEntries && total <= this.maxBytes) break;
      this.entries.delete(oldest);
      total -= value.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

const MUTATORS: Record<string, number[]> = {
  writeFile: [0],
  appendFile: [0],
  mkdir: [0],
  rm: [0],
  cp: [1],
  mv: [0, 1],
  chmod: [0],
  utimes: [0],
  symlink: [1],
  link: [1],
};

/** File system methods that never change it (any other call marks the tree as touched). */
const READERS = new Set<string | symbol>([
  "readFile",
  "readFileBytes",
  "readFileBuffer",
  "exists",
  "stat",
  "lstat",
  "readdir",
  "readdirWithFileTypes",
  "getAllPaths",
  "resolvePath",
  "readlink",
  "realpath",
]);

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

export function isWritablePath(path: string): boolean {
  const normal = posix.normalize(path);
  return WRITABLE_ROOTS.some((root) => isUnder(normal, root) && normal !== root);
}

function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/**
 * The file system the shell sees: writes outside `/workspace` and `/tmp` are refused with
 * EROFS and links are never created (so no path can alias outside the writable roots).
 */
function guarded(fs: InMemoryFs, armed: { on: boolean; touched: boolean }): InMemoryFs {
  return new Proxy(fs, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      // Anything but a known read may change the tree: the command's changes are then computed.
      if (armed.on && !READERS.has(property)) armed.touched = true;
      const positions = MUTATORS[property as string];
      if (positions === undefined) return value.bind(target);
      return (...args: unknown[]) => {
        if (armed.on) {
          if (property === "symlink" || property === "link") {
            return Promise.reject(fsError("EPERM", "links are not supported in this file system"));
          }
          for (const index of positions) {
            const path = args[index];
            const sink = path === "/dev/null" && (property === "writeFile" || property === "appendFile");
            if (typeof path === "string" && !sink && !isWritablePath(path)) {
              return Promise.reject(fsError("EROFS", `read-only file system, '${path}'`));
            }
          }
        }
        return value.apply(target, args);
      };
    },
  });
}

function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  // Cut at a character boundary: drop continuation bytes at the cut.
  let end = maxBytes;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString("utf8"), truncated: true };
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Size and file count of a snapshot. */
export function snapshotUsage(snapshot: BashSnapshot): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const value of snapshot.values()) {
    if (value !== null) {
      bytes += value.length;
      files++;
    }
  }
  return { bytes, files };
}

/** Applies changes to a snapshot (a copy). */
export function applyChanges(snapshot: BashSnapshot, changes: readonly BashChange[]): BashSnapshot {
  const next = new Map(snapshot);
  for (const change of changes) {
    if (change.kind === "deleted") next.delete(change.path);
    else next.set(change.path, change.kind === "dir" ? null : (change.bytes as Uint8Array));
  }
  return next;
}

/** Runs one command over a snapshot of the writable tree. */
function writeSkills(fs: InMemoryFs, skills: readonly SkillFiles[]): void {
  fs.mkdirSync(SKILLS_ROOT, { recursive: true });
  for (const skill of skills) {
    for (const file of skill.files) {
      const path = posix.join(SKILLS_ROOT, skill.qualifiedName, posix.normalize(`/${file.path}`));
      if (!isUnder(path, SKILLS_ROOT)) continue;
      fs.writeFileSync(path, file.bytes);
    }
  }
}

/**
 * Runs one command over a snapshot of the writable tree (or a function loading it, called
 * only when no cached file system of the same revision is at hand).
 */
export async function runBash(
  tree: BashSnapshot | (() => BashSnapshot),
  command: string,
  options: BashOptionsIn = {},
): Promise<BashRun> {
  const limits = { ...BASH_LIMITS, ...options.limits };
  const skills = options.skills ?? [];
  let skillBytes = 0;
  for (const skill of skills) for (const file of skill.files) skillBytes += file.bytes.length;
  // A hard bound while the command runs; the exact quota is checked on the tree afterwards.
  const bound = limits.fsBytes + skillBytes + 1024 * 1024;
  const cache = options.cache;
  const cached = cache?.trees.take(cache.key, cache.revision, bound);
  let fs: InMemoryFs;
  let snapshot: BashSnapshot;
  if (cached !== undefined) {
    // The same tree as last time: only `/skills` is written afresh (the command could not change it).
    fs = cached.fs;
    snapshot = cached.snapshot;
    await fs.rm(SKILLS_ROOT, { recursive: true, force: true });
    writeSkills(fs, skills);
  } else {
    snapshot = typeof tree === "function" ? tree() : tree;
    fs = new InMemoryFs(undefined, { maxTotalBytes: bound });
    for (const root of WRITABLE_ROOTS) fs.mkdirSync(root, { recursive: true });
    writeSkills(fs, skills);
    const sorted = [...snapshot.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [path, bytes] of sorted) {
      if (!isWritablePath(path)) continue;
      if (bytes === null) fs.mkdirSync(path, { recursive: true });
      else fs.writeFileSync(path, bytes);
    }
  }
  const armed = { on: false, touched: false };
  const shellFs = guarded(fs, armed);
  const bash = new Bash({
    fs: shellFs,
    commands: BASH_BUILTINS.filter((name) => name !== "cd") as CommandName[],
    // Literal patterns are searched without re2js; the bundled grep answers the rest (PT13).
    customCommands: [literalGrep],
    cwd: WORKSPACE,
    env: { HOME: WORKSPACE, PWD: WORKSPACE },
    executionLimitProfile: "hardened",
    executionLimits: {
      maxExecutionTimeMs: limits.timeoutMs,
      maxOutputSize: limits.streamBytes * 16,
      maxSourceBytes: limits.commandBytes * 2,
    },
  });
  armed.on = true;
  const started = performance.now();
  const signal = AbortSignal.timeout(limits.timeoutMs + 250);
  let stdout = "";
  let stderr = "";
  let exitCode: number;
  try {
    const result = await bash.exec(command, {
      signal,
      replaceEnv: true,
      env: { HOME: WORKSPACE, PWD: WORKSPACE },
    });
    stdout = result.stdout;
    // Commands outside the allow-list always read as "command not found".
    stderr = result.stderr.replace(
      /^bash: ([^:\n]+): command not available[^\n]*$/gm,
      "bash: $1: command not found",
    );
    exitCode = result.exitCode;
  } catch (error) {
    stderr = `bash: ${error instanceof Error ? error.message : String(error)}\n`;
    exitCode = 1;
  }
  const elapsed = performance.now() - started;
  if (
    signal.aborted ||
    elapsed >= limits.timeoutMs ||
    /execution time|timed? ?out|time limit/i.test(exitCode === 0 ? "" : stderr)
  ) {
    return {
      result: {
        stdout: truncateUtf8(stdout, limits.streamBytes).text,
        stderr: `bash: the command exceeded the time limit of ${limits.timeoutMs / 1000} s\n`,
        exitCode: 124,
        truncated: false,
      },
      changes: [],
    };
  }
  const out = truncateUtf8(stdout, limits.streamBytes);
  const err = truncateUtf8(stderr, limits.streamBytes);

  // The writable tree after the command, compared with the snapshot. A reused file system the
  // command only read is still exactly the snapshot (the walk that made it), so it is not walked.
  let after: BashSnapshot = new Map();
  if (cached !== undefined && !armed.touched) after = snapshot;
  else {
    for (const path of fs.getAllPaths()) {
      if (!isWritablePath(path)) continue;
      const stat = await fs.lstat(path);
      if (stat.isDirectory) after.set(path, null);
      else if (stat.isFile) after.set(path, await fs.readFileBuffer(path));
    }
  }
  const usage = snapshotUsage(after);
  // ENOSPC: a write went past the in-memory bound while the command ran.
  if (usage.bytes > limits.fsBytes || usage.files > limits.fsFiles || /ENOSPC/.test(stderr)) {
    return {
      result: {
        stdout: out.text,
        stderr: `${err.text}bash: No space left on device (the file system holds at most ${limits.fsBytes / (1024 * 1024)} MiB and ${limits.fsFiles} files; this command's changes were discarded)\n`,
        exitCode: 1,
        truncated: out.truncated || err.truncated,
      },
      changes: [],
    };
  }
  const changes: BashChange[] = [];
  for (const [path, bytes] of after) {
    const before = snapshot.get(path);
    if (before === undefined || !sameBytes(before, bytes) || (before === null) !== (bytes === null)) {
      changes.push({ path, kind: bytes === null ? "dir" : "file", bytes });
    }
  }
  for (const path of snapshot.keys()) {
    if (!after.has(path) && isWritablePath(path)) changes.push({ path, kind: "deleted", bytes: null });
  }
  const run: BashRun = {
    result: { stdout: out.text, stderr: err.text, exitCode, truncated: out.truncated || err.truncated },
    changes,
  };
  if (cache !== undefined) {
    run.keep = (revision) => {
      cache.trees.put(cache.key, { revision, fs, snapshot: after, bound, bytes: usage.bytes + skillBytes });
    };
  }
  return run;
}
