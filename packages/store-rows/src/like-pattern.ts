/**
 * Case-insensitive substring search as both stores run it: the column lowered for ASCII letters
 * only (SQLite's `lower()` and `LIKE` fold ASCII only) matched with `LIKE … ESCAPE '\'` against
 * this pattern. PostgreSQL lowers the column with `asciiLower` (store-postgres), not `lower()` or
 * `ILIKE`, which fold every script and would find what SQLite does not.
 */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
