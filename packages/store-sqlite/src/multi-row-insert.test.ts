import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertRows, type MultiRowInsert } from "./multi-row-insert.js";
import { statementCache } from "./statement-cache.js";

describe("insertRows", () => {
  it("inserts every row once, in order, with at most seven statement shapes per target", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (n INTEGER PRIMARY KEY, label TEXT NOT NULL)");
    const cached = statementCache(db);
    const texts = new Set<string>();
    const sql = (text: string) => {
      texts.add(text);
      return cached(text);
    };
    const into: MultiRowInsert = { table: "t", columns: ["n", "label"], returning: "n" };
    let next = 0;
    fc.assert(
      fc.property(fc.nat({ max: 300 }), (size) => {
        const rows = Array.from({ length: size }, () => next++);
        const returned = insertRows<number, { n: number }>(sql, into, rows, (n) => [n, `row ${n}`]);
        expect(returned.map((row) => row.n)).toEqual(rows);
        const stored = db.prepare("SELECT n, label FROM t WHERE n >= ? ORDER BY n").all(rows[0] ?? next);
        expect(stored).toEqual(rows.map((n) => ({ n, label: `row ${n}` })));
      }),
      { numRuns: 150 },
    );
    expect(texts.size).toBeLessThanOrEqual(7);
    db.close();
  });
});
