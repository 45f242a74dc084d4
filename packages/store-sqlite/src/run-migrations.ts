/** Applies the numbered migrations of ./migrations, each in its own transaction. */
import type { Database } from "better-sqlite3";
import { type Migration, migrations } from "./migrations/index.js";

export type { Migration } from "./migrations/index.js";
export { migrations } from "./migrations/index.js";

/** Applies every migration newer than the database's version; returns the versions applied. */
export function runMigrations(db: Database, list: readonly Migration[] = migrations): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const current =
    (db.prepare("SELECT MAX(version) AS version FROM schema_migrations").get() as { version: number | null })
      .version ?? 0;
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const applied: number[] = [];
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
