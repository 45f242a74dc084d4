/**
 * Memory paths (PLATFORM.md §3.1): a virtual tree under `/memories`. A path is
 * accepted only in its one canonical spelling — no `.`/`..`, no empty segment, no
 * trailing slash, no backslash — so two spellings never name one file and no
 * accepted path can climb out of the member's tree.
 */
import { invalidRequest } from "@groundwork/core";

export const MEMORY_ROOT = "/memories";
export const MEMORY_MAX_DEPTH = 8;
export const MEMORY_MAX_PATH_LENGTH = 512;
export const MEMORY_MAX_SEGMENT_LENGTH = 128;

const SEGMENT = /^[A-Za-z0-9._ -]+$/;

/** Why `path` is refused, or null when it is a valid memory path (the root only when `allowRoot`). */
export function memoryPathProblem(path: string, allowRoot: boolean): string | null {
  if (path === MEMORY_ROOT) return allowRoot ? null : `${MEMORY_ROOT} itself names no file`;
  if (path.length > MEMORY_MAX_PATH_LENGTH) return `is longer than ${MEMORY_MAX_PATH_LENGTH} characters`;
  if (!path.startsWith(`${MEMORY_ROOT}/`)) return `must start with ${MEMORY_ROOT}/`;
  const segments = path.slice(MEMORY_ROOT.length + 1).split("/");
  if (segments.length > MEMORY_MAX_DEPTH)
    return `is deeper than ${MEMORY_MAX_DEPTH} levels below ${MEMORY_ROOT}`;
  for (const segment of segments) {
    if (segment === "") return "has an empty segment or a trailing slash";
    if (segment === "." || segment === "..") return "may not contain . or .. segments";
    if (segment.length > MEMORY_MAX_SEGMENT_LENGTH) {
      return `has a segment longer than ${MEMORY_MAX_SEGMENT_LENGTH} characters`;
    }
    if (!SEGMENT.test(segment)) return "may only use letters, digits, '.', '_', '-' and spaces in a segment";
    if (segment.startsWith(" ") || segment.endsWith(" "))
      return "has a segment with a leading or trailing space";
  }
  return null;
}

/** `path` when valid; otherwise 400 `invalid_path` naming `param`. */
export function memoryPath(path: string, param: string, options: { allowRoot?: boolean } = {}): string {
  const problem = memoryPathProblem(path, options.allowRoot === true);
  if (problem !== null) throw invalidRequest(`${param} ${problem}`, { param, code: "invalid_path" });
  return path;
}

/** Whether `path` lies strictly below the directory `dir` (the root included). */
export function isUnder(path: string, dir: string): boolean {
  return path.startsWith(`${dir}/`);
}

/** Every ancestor directory of `path` below the root, nearest last (`/memories/a/b/c` → `/memories/a`, `/memories/a/b`). */
export function ancestorsOf(path: string): string[] {
  const segments = path.slice(MEMORY_ROOT.length + 1).split("/");
  return segments.slice(0, -1).map((_, i) => `${MEMORY_ROOT}/${segments.slice(0, i + 1).join("/")}`);
}

/** `path` moved from below `from` to below `to` (`from` itself becomes `to`). */
export function movedPath(path: string, from: string, to: string): string {
  return path === from ? to : `${to}${path.slice(from.length)}`;
}
