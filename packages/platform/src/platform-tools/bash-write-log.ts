/**
 * Which parts of the writable tree a `platform_bash` command changed (decision PT14). The
 * guarded file system records the path arguments of every write call it lets through; after
 * the command only those subtrees (and parent directories a write may have created) are read
 * back and compared with the snapshot, instead of reading the whole tree and comparing every
 * file. A call the log cannot describe (a method it does not know, a relative or non-string
 * path, too many places) makes the caller walk and compare the whole tree as before.
 */
import { posix } from "node:path";
import type { InMemoryFs } from "just-bash";

/** The writable tree: absolute path → file bytes, or `null` for a directory. */
export type BashSnapshot = Map<string, Uint8Array | null>;

/** One change to the writable tree: bytes, `null` for a directory, `undefined` for a deletion. */
export interface BashChange {
  path: string;
  kind: "file" | "dir" | "deleted";
  bytes: Uint8Array | null;
}

/** Past this many separate places, comparing the whole tree is cheaper than one look per place. */
const MAX_PLACES = 64;

export const WRITABLE_ROOTS = ["/workspace", "/tmp"] as const;

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

export function isWritablePath(path: string): boolean {
  const normal = posix.normalize(path);
  return WRITABLE_ROOTS.some((root) => isUnder(normal, root) && normal !== root);
}

/** The write calls of one command, as far as they can be described by path. */
export class WriteLog {
  readonly paths = new Set<string>();
  /** A write the log cannot place: the whole tree must be compared. */
  unknown = false;

  get empty(): boolean {
    return !this.unknown && this.paths.size === 0;
  }

  /** A write call that may change `path` and everything below it. */
  record(path: unknown): void {
    if (typeof path !== "string" || !path.startsWith("/")) this.unknown = true;
    else this.paths.add(path);
  }
}

/** The logged places inside the writable roots, each once, none below another. */
function places(log: WriteLog): string[] | null {
  const normal = new Set<string>();
  for (const path of log.paths) {
    const clean = posix.normalize(path).replace(/\/+$/, "");
    // Writes elsewhere were refused (EROFS) or went to /dev/null: nothing to read back.
    if (isWritablePath(clean)) normal.add(clean);
  }
  const sorted = [...normal].sort();
  const out: string[] = [];
  for (const path of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && isUnder(path, last)) continue;
    out.push(path);
  }
  return out.length > MAX_PLACES ? null : out;
}

/** Every file and directory of the writable roots (the reference the log is checked against). */
export async function walkTree(fs: InMemoryFs): Promise<BashSnapshot> {
  const after: BashSnapshot = new Map();
  for (const path of fs.getAllPaths()) {
    if (!isWritablePath(path)) continue;
    const stat = await fs.lstat(path);
    if (stat.isDirectory) after.set(path, null);
    else if (stat.isFile) after.set(path, await fs.readFileBuffer(path));
  }
  return after;
}

function sameEntry(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** The changes that turn `before` into `after`, for paths `within` accepts (all writable paths by default). */
export function diffTrees(
  before: BashSnapshot,
  after: BashSnapshot,
  within: (path: string) => boolean = isWritablePath,
): BashChange[] {
  const changes: BashChange[] = [];
  for (const [path, bytes] of after) {
    if (!within(path)) continue;
    const old = before.get(path);
    if (old === undefined || !sameEntry(old, bytes)) {
      changes.push({ path, kind: bytes === null ? "dir" : "file", bytes });
    }
  }
  for (const path of before.keys()) {
    if (!after.has(path) && within(path) && isWritablePath(path)) {
      changes.push({ path, kind: "deleted", bytes: null });
    }
  }
  return changes;
}

/**
 * The tree after a command and its changes, read back only where the log says it wrote;
 * null when the log cannot tell (then the whole tree is compared). `fs` held exactly
 * `snapshot` (its writable part) before the command.
 */
export async function loggedChanges(
  fs: InMemoryFs,
  snapshot: BashSnapshot,
  log: WriteLog,
): Promise<{ after: BashSnapshot; changes: BashChange[] } | null> {
  if (log.empty) return { after: snapshot, changes: [] };
  if (log.unknown) return null;
  const roots = places(log);
  if (roots === null) return null;
  if (roots.length === 0) return { after: snapshot, changes: [] };
  // Every entry at or below a place, and the directories above one (a write may have
  // created them: `mkdir -p`, a file in a new folder); read from the same listing as
  // `walkTree`, so both see the same tree.
  const touched = (path: string) =>
    isWritablePath(path) && roots.some((root) => isUnder(path, root) || isUnder(root, path));
  const now: BashSnapshot = new Map();
  for (const path of fs.getAllPaths()) {
    if (!touched(path)) continue;
    const stat = await fs.lstat(path);
    if (stat.isDirectory) now.set(path, null);
    else if (stat.isFile) now.set(path, await fs.readFileBuffer(path));
  }
  const changes = diffTrees(snapshot, now, touched);
  if (changes.length === 0) return { after: snapshot, changes };
  const after = new Map(snapshot);
  for (const change of changes) {
    if (change.kind === "deleted") after.delete(change.path);
    else after.set(change.path, change.bytes);
  }
  return { after, changes };
}
