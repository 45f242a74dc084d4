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

/** `(?, ?, …), (?, ?, …)` for `rowCount` rows of `columnCount` columns, made once per shape. */
const valueLists = new Map<string, string>();
function valueList(columnCount: number, rowCount: number): string {
  const key = `${columnCount}x${rowCount}`;
  let text = valueLists.get(key);
  if (text === undefined) {
    const tuple = `(${new Array(columnCount).fill("?").join(", ")})`;
    text = new Array(rowCount).fill(tuple).join(", ");
    valueLists.set(key, text);
  }
  return text;
}

/**
 * Inserts `rows`, 64 per statement, each row's parameters given by `values` (one per column).
 * With `returning`, answers the returned rows of every statement; else nothing.
 */
export function insertRows<Row, Returned = never>(
  sql: (text: string) => Statement,
  into: MultiRowInsert,
  rows: readonly Row[],
  values: (row: Row) => readonly unknown[],
): Returned[] {
  const head = `INSERT INTO ${into.table} (${into.columns.join(", ")}) VALUES`;
  const tail = `${into.onConflict === undefined ? "" : ` ${into.onConflict}`}${into.returning === undefined ? "" : ` RETURNING ${into.returning}`}`;
  const returned: Returned[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const end = Math.min(rows.length, start + ROWS_PER_INSERT);
    const parameters: unknown[] = [];
    for (let i = start; i < end; i++) {
      for (const value of values(rows[i] as Row)) parameters.push(value);
    }
    const statement = sql(`${head} ${valueList(into.columns.length, end - start)}${tail}`);
    if (into.returning === undefined) statement.run(...parameters);
    else returned.push(...(statement.all(...parameters) as Returned[]));
  }
  return returned;
}
