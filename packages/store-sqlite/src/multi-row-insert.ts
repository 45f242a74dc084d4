/**
 * INSERTs of many rows in one statement. A statement run has a fixed cost (binding, stepping,
 * resetting) that a row inserted on its own pays every time; the write-behind batches (usage
 * rows, traces and their spans) insert up to a few hundred rows at once, so they go 64 to a
 * statement (HP56).
 */
import type { Statement } from "better-sqlite3";

/** Rows per statement: 64 rows of up to 20 columns stay far under SQLite's 32,766 parameters. */
export const ROWS_PER_INSERT = 64;

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
 * Runs `{head} VALUES (…), (…) {tail}` over `rows`, 64 rows per statement, each row's
 * parameters given by `values` (`columnCount` of them). With a `RETURNING` tail, answers the
 * returned rows of every statement.
 */
export function insertRows<Row, Returned = never>(
  sql: (text: string) => Statement,
  statement: { head: string; columnCount: number; tail?: string },
  rows: readonly Row[],
  values: (row: Row) => readonly unknown[],
): Returned[] {
  const returning = statement.tail?.includes("RETURNING") === true;
  const returned: Returned[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const end = Math.min(rows.length, start + ROWS_PER_INSERT);
    const parameters: unknown[] = [];
    for (let i = start; i < end; i++) {
      for (const value of values(rows[i] as Row)) parameters.push(value);
    }
    const text = `${statement.head} VALUES ${valueList(statement.columnCount, end - start)}${statement.tail ?? ""}`;
    if (returning) returned.push(...(sql(text).all(...parameters) as Returned[]));
    else sql(text).run(...parameters);
  }
  return returned;
}
