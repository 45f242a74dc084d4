/**
 * `platform_bash` (PLATFORM.md §6): a simulated shell (just-bash) over an in-memory file
 * system. No host process is started and there is no network: only the built-ins of §6 are
 * registered (anything else is `command not found`, exit 127), the file system is built from
 * the conversation's snapshot (or reused, with its shell, from the previous call while the
 * stored tree has not changed, `BashTreeCache`), and only `/workspace` and `/tmp` are
 * writable (`/skills` holds read-only copies of the resolved skills). A command's changes are
 * found where it wrote (`bash-write-log.ts`, PT14).
 *
 * Limits: 64 KiB per output stream (`truncated`), 50 MiB and 1,000 files in the writable
 * tree (exceeding → exit 1 "No space left on device", the command's changes are dropped),
 * 5 s per command (exit 124), command ≤ 16 KiB (checked by the caller's schema).
 */
import { posix } from "node:path";
import type { MaybePromise } from "@groundwork/core";
import { Bash, type CommandName, InMemoryFs } from "just-bash";
import { literalGrep } from "./bash-grep.js";
import { lineCountWc } from "./bash-wc.js";
import {
  type BashChange,
  type BashSnapshot,
  diffTrees,
  isWritablePath,
  loggedChanges,
  WRITABLE_ROOTS,
  WriteLog,
  walkTree,
} from "./bash-write-log.js";

export { type BashChange, type BashSnapshot, isWritablePath, WRITABLE_ROOTS } from "./bash-write-log.js";

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
export const SKILLS_ROOT = "/skills";

/** A file of a resolved skill, copied read-only to `/skills/<qualifiedName>/<path>`. */
export interface SkillFiles {
  qualifiedName: string;
  files: ReadonlyArray<{ path: string; bytes: Uint8Array }>;
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
  /**
   * How the command's changes are found: from the paths it wrote (default, PT14) or by
   * comparing the whole writable tree (the reference the first is tested against).
   */
  compare?: "written-paths" | "whole-tree";
  /** Reuse the file system of an earlier call of the same tree (PT13). */
  cache?: { trees: BashTreeCache; key: string; revision: string };
}

interface CachedTree {
  revision: string;
  fs: InMemoryFs;
  snapshot: BashSnapshot;
  /** The shell over `fs` (each `exec` starts from a fresh shell state; only the file system persists). */
  shell: Bash;
  guard: Guard;
  /** The in-memory bound and limits the file system and shell were made with. */
  shape: string;
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
  take(key: string, revision: string, shape: string): CachedTree | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry !== undefined && entry.revision === revision && entry.shape === shape ? entry : undefined;
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

/** File system methods that may change it, with the positions of the paths they change. */
const MUTATORS: Record<string, number[]> = {
  writeFile: [0],
  writeFileSync: [0],
  writeFileLazy: [0],
  appendFile: [0],
  mkdir: [0],
  mkdirSync: [0],
  rm: [0],
  cp: [1],
  mv: [0, 1],
  chmod: [0],
  utimes: [0],
  symlink: [1],
  link: [1],
};

const SYNC_MUTATORS = new Set<string | symbol>(["writeFileSync", "writeFileLazy", "mkdirSync"]);

/** File system methods that never change it (a call of any other method is compared in full afterwards). */
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

function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** The guard's state for the command running now (armed once the shell is set up). */
interface Guard {
  on: boolean;
  log: WriteLog;
}

/**
 * The file system the shell sees: writes outside `/workspace` and `/tmp` are refused with
 * EROFS and links are never created (so no path can alias outside the writable roots). Every
 * write call it lets through is logged by path (PT14), so only those places are compared
 * afterwards; a call of a method it does not know makes the whole tree compared.
 */
function guarded(fs: InMemoryFs, guard: Guard): InMemoryFs {
  // Reads are handed on bound once (grep reads hundreds of files per command).
  const readers = new Map<string | symbol, unknown>();
  return new Proxy(fs, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (READERS.has(property)) {
        let bound = readers.get(property);
        if (bound === undefined) {
          bound = value.bind(target);
          readers.set(property, bound);
        }
        return bound;
      }
      const positions = MUTATORS[property as string];
      return (...args: unknown[]) => {
        if (guard.on) {
          if (positions === undefined) guard.log.unknown = true;
          else {
            if (property === "symlink" || property === "link") {
              return Promise.reject(fsError("EPERM", "links are not supported in this file system"));
            }
            for (const index of positions) {
              const path = args[index];
              const sink = path === "/dev/null" && (property === "writeFile" || property === "appendFile");
              if (typeof path === "string" && !sink && !isWritablePath(path)) {
                const error = fsError("EROFS", `read-only file system, '${path}'`);
                if (SYNC_MUTATORS.has(property)) throw error;
                return Promise.reject(error);
              }
            }
            for (const index of positions) guard.log.record(args[index]);
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
  tree: BashSnapshot | (() => MaybePromise<BashSnapshot>),
  command: string,
  options: BashOptionsIn = {},
): Promise<BashRun> {
  const limits = { ...BASH_LIMITS, ...options.limits };
  const skills = options.skills ?? [];
  let skillBytes = 0;
  for (const skill of skills) for (const file of skill.files) skillBytes += file.bytes.length;
  // A hard bound while the command runs; the exact quota is checked on the tree afterwards.
  const bound = limits.fsBytes + skillBytes + 1024 * 1024;
  const shape = `${bound}:${limits.timeoutMs}:${limits.streamBytes}:${limits.commandBytes}`;
  const cache = options.cache;
  const cached = cache?.trees.take(cache.key, cache.revision, shape);
  let fs: InMemoryFs;
  let snapshot: BashSnapshot;
  let shell: Bash;
  let guard: Guard;
  if (cached !== undefined) {
    // The same tree as last time: only `/skills` is written afresh (the command could not change it).
    ({ fs, snapshot, shell, guard } = cached);
    await fs.rm(SKILLS_ROOT, { recursive: true, force: true });
    writeSkills(fs, skills);
  } else {
    snapshot = typeof tree === "function" ? await tree() : tree;
    fs = new InMemoryFs(undefined, { maxTotalBytes: bound });
    for (const root of WRITABLE_ROOTS) fs.mkdirSync(root, { recursive: true });
    writeSkills(fs, skills);
    const sorted = [...snapshot.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [path, bytes] of sorted) {
      if (!isWritablePath(path)) continue;
      if (bytes === null) fs.mkdirSync(path, { recursive: true });
      else fs.writeFileSync(path, bytes);
    }
    guard = { on: false, log: new WriteLog() };
    const shellFs = guarded(fs, guard);
    shell = new Bash({
      fs: shellFs,
      commands: BASH_BUILTINS.filter((name) => name !== "cd") as CommandName[],
      // Literal patterns are searched without re2js, `wc -l` of a pipe counts newlines; the
      // bundled commands answer everything else (PT13, PT14).
      customCommands: [literalGrep(shellFs), lineCountWc],
      cwd: WORKSPACE,
      env: { HOME: WORKSPACE, PWD: WORKSPACE },
      executionLimitProfile: "hardened",
      executionLimits: {
        maxExecutionTimeMs: limits.timeoutMs,
        maxOutputSize: limits.streamBytes * 16,
        maxSourceBytes: limits.commandBytes * 2,
      },
    });
  }
  // Stays armed: the shell (kept with the file system) only ever writes through the guard.
  guard.log = new WriteLog();
  guard.on = true;
  const started = performance.now();
  const signal = AbortSignal.timeout(limits.timeoutMs + 250);
  let stdout = "";
  let stderr = "";
  let exitCode: number;
  try {
    const result = await shell.exec(command, {
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

  // The writable tree after the command and its changes: read back where the command wrote
  // (PT14), or the whole tree compared when the write log cannot tell.
  let after: BashSnapshot;
  let changes: BashChange[];
  const logged = options.compare === "whole-tree" ? null : await loggedChanges(fs, snapshot, guard.log);
  if (logged !== null) ({ after, changes } = logged);
  else {
    after = await walkTree(fs);
    changes = diffTrees(snapshot, after);
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
  const run: BashRun = {
    result: { stdout: out.text, stderr: err.text, exitCode, truncated: out.truncated || err.truncated },
    changes,
  };
  if (cache !== undefined) {
    run.keep = (revision) => {
      cache.trees.put(cache.key, {
        revision,
        fs,
        snapshot: after,
        shell,
        guard,
        shape,
        bytes: usage.bytes + skillBytes,
      });
    };
  }
  return run;
}
