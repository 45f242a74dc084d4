/**
 * Substring filters as SQLite answers them, for both stores: SQLite's `lower()` and `LIKE`
 * fold ASCII letters only, so a name filter is case-insensitive for ASCII and exact for other
 * letters. PostgreSQL's `lower()`/`ILIKE` fold every letter; it folds ASCII with
 * {@link ASCII_LOWER} instead, so both stores keep the same rows.
 */

/** A `LIKE … ESCAPE '\'` pattern for a substring, lower-cased as the callers lower-case it. */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL (PostgreSQL) that lower-cases ASCII letters only, as SQLite's `lower()`: `${ASCII_LOWER("name")}`. */
export const ASCII_LOWER = (expression: string): string =>
  `translate(${expression}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;
