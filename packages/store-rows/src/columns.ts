/**
 * Column values as either store hands them over. node-postgres answers BIGINT as a string and
 * JSONB already parsed; SQLite answers booleans as 0/1 and JSON as text. A row mapper reads
 * its columns through these, so one mapper serves both stores.
 */

/** An INTEGER/BIGINT column (epoch ms, counts): a number on SQLite, a string for BIGINT on PostgreSQL. */
export const int = (value: unknown): number => Number(value);

/** A nullable INTEGER/BIGINT column. */
export const intOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A boolean column: 0/1 on SQLite, true/false on PostgreSQL. */
export const bool = (value: unknown): boolean => value === true || value === 1 || value === "1";

/**
 * A JSON column: text on SQLite (and PostgreSQL TEXT), already parsed from PostgreSQL JSONB.
 * node-postgres hands a JSONB holding a top-level string over as that string, which this would
 * parse again: select such a column as `column::text` on PostgreSQL.
 */
export function json<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
