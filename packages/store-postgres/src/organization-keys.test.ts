/**
 * Every foreign key of the SQLite schema exists on PostgreSQL with the same `ON DELETE`
 * behaviour, for every table both stores have (migration 50, decision PG160).
 */
import { describe, expect, it } from "vitest";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { postgresBackends } from "../test/postgres-backends.js";

interface ForeignKey {
  table: string;
  from: string;
  references: string;
  onDelete: string;
}

const key = (fk: ForeignKey) => `${fk.table}.${fk.from} → ${fk.references} ON DELETE ${fk.onDelete}`;

function sqliteForeignKeys(): { tables: Set<string>; keys: ForeignKey[] } {
  const store = openStore({ file: ":memory:" });
  try {
    const tables = (
      store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((row) => row.name);
    const keys = tables.flatMap((table) =>
      (
        store.db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as Array<{
          table: string;
          from: string;
          to: string;
          on_delete: string;
        }>
      ).map((fk) => ({
        table,
        from: fk.from,
        references: `${fk.table}(${fk.to})`,
        onDelete: fk.on_delete,
      })),
    );
    return { tables: new Set(tables), keys };
  } finally {
    store.close();
  }
}

const ON_DELETE: Record<string, string> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

describe.each(postgresBackends("organization_keys"))("foreign keys on $label", (backend) => {
  it("has every foreign key SQLite has, with its ON DELETE, on the tables both stores have", async () => {
    const { rows } = await backend.client().query<{
      table: string;
      from: string;
      ref_table: string;
      ref_column: string;
      action: string;
    }>(
      `SELECT c.conrelid::regclass::text AS table, a.attname AS from, c.confrelid::regclass::text AS ref_table,
              r.attname AS ref_column, c.confdeltype AS action
       FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1]
       WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
    );
    const postgres = new Set(
      rows.map((row) =>
        key({
          table: row.table,
          from: row.from,
          references: `${row.ref_table}(${row.ref_column})`,
          onDelete: ON_DELETE[row.action] ?? row.action,
        }),
      ),
    );
    const tables = new Set(
      (
        await backend
          .client()
          .query<{ name: string }>(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
          )
      ).rows.map((row) => row.name),
    );
    const sqlite = sqliteForeignKeys();
    const onBoth = sqlite.keys.filter((fk) => tables.has(fk.table));
    // Most of SQLite's tables are on PostgreSQL: the check is not vacuous.
    expect(onBoth.length).toBeGreaterThan(40);
    expect(onBoth.map(key).filter((each) => !postgres.has(each))).toEqual([]);
  });

  it("refuses a row of an organization that does not exist", async () => {
    await expect(
      backend.client().query(
        `INSERT INTO prompts (id, organization_id, name, type, created_at, updated_at)
           VALUES ('prompt_orphan', 'org_missing', 'orphan', 'text', 0, 0)`,
      ),
    ).rejects.toMatchObject({ code: "23503" });
  });
});
