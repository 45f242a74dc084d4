/**
 * File paths inside a skill package: relative, `/`-separated, no `.`/`..` or empty
 * segments, no backslash, no control characters, at most 255 characters.
 */
import { SKILL_PATH_MAX_LENGTH } from "./skill-limits.js";

/** Why `path` is not a valid file path of a skill package, or null when it is. */
export function skillPathProblem(path: string, maxLength: number = SKILL_PATH_MAX_LENGTH): string | null {
  if (path === "") return "is empty";
  if (path.length > maxLength) return `is longer than ${maxLength} characters`;
  if (path.includes("\\")) return "contains a backslash";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "is absolute";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) return "contains a control character";
  if (path.endsWith("/")) return "ends with /";
  for (const segment of path.split("/")) {
    if (segment === "..") return "has a .. segment";
    if (segment === ".") return "has a . segment";
    if (segment === "") return "has an empty segment";
  }
  return null;
}
