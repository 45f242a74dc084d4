/**
 * INSERTs of many rows in one statement. A statement run has a fixed cost (binding, stepping,
 * resetting) that a row inserted on its own pays every time; the write-behind batches (usage
 * rows, traces and their spans) insert up to a few hundred rows at once, so they go 64 to a
 * statement (HP56).
 */
import type { Statement } from "better-sqlite3";

/** Rows per statement: 64 rows of up to 20 columns stay far under SQLite's 32,766 parameters. */
export const ROWS_PER_INSERT = 64;

/** Where the rows go, and what a conflict does or the statement answers (both optional). */
export interface MultiRowInsert {
  table: string;
  columns: readonly string[];
  /** An `ON CONFLICT …` clause. */
  onConflict?: string;
  /** The column `RETURNING` answers for each inserted row. */
  returning?: string;
}

/**
 * The statement text for `rowCount` rows, made once per target and count and then the same
 * string: a statement cache keyed by text hashes a new string of several kilobytes on every
 * lookup, and V8 keeps a string's hash with the string.
 */
const statementTexts = new WeakMap<MultiRowInsert, Map<number, string>>();
function statementText(into: MultiRowInsert, rowCount: number): string {
  let texts = statementTexts.get(into);
  if (texts === undefined) {
    texts = new Map();
    statementTexts.set(into, texts);
  }
  let text = texts.get(rowCount);
  if (text === undefined) {
    const tuple = `(${new Array(into.columns.length).fill("?").join(", ")})`;
    const tail = `${into.onConflict === undefined ? "" : ` ${into.onConflict}`}${into.returning === undefined ? "" : ` RETURNING ${into.returning}`}`;
    text = `INSERT INTO ${into.table} (${into.columns.join(", ")}) VALUES ${new Array(rowCount).fill(tuple).join(", ")}${tail}`;
    texts.set(rowCount, text);
  }
  return text;
}

/**
 * Inserts `rows`, 64 per statement and what is left in powers of two (so each target has at most
 * seven statements to prepare, not one per remainder: a remainder of each size prepared a
 * statement of its own, a visible cost in the first minutes of a gateway), each row's parameters
 * given by `values` (one per column). With `returning`, answers the returned rows of every
 * statement; else nothing.
 */
export function insertRows<Row, Returned = never>(
  sql: (text: string) => Statement,
  into: MultiRowInsert,
  rows: readonly Row[],
  values: (row: Row) => readonly unknown[],
): Returned[] {
  const returned: Returned[] = [];
  for (let start = 0; start < rows.length; ) {
    const left = rows.length - start;
    const count = left >= ROWS_PER_INSERT ? ROWS_PER_INSERT : 1 << (31 - Math.clz32(left));
    const end = start + count;
    const parameters: unknown[] = [];
    for (let i = start; i < end; i++) {
      for (const value of values(rows[i] as Row)) parameters.push(value);
    }
    const statement = sql(statementText(into, count));
    if (into.returning === undefined) statement.run(...parameters);
    else returned.push(...(statement.all(...parameters) as Returned[]));
    start = end;
  }
  return returned;
}
