/**
 * A column lowered for ASCII letters only, as SQLite's `lower()` does (without ICU): matched
 * with `LIKE … ESCAPE '\'` against store-rows' `likePattern`, a search finds on PostgreSQL
 * exactly what it finds on SQLite. `lower()` and `ILIKE` would fold every script (É → é).
 */
export function asciiLower(column: string): string {
  return `translate(${column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;
}
