/**
 * Opens the embedded database: better-sqlite3 in WAL mode (readers never block
 * the writer), sqlite-vec loaded for vector search, FTS5 checked for keyword
 * search, and migrations run. Fails loudly at start rather than at first use.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { runMigrations } from "./run-migrations.js";

export type { Database } from "better-sqlite3";

export function openDatabase(file: string): Database {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    sqliteVec.load(db);
    assertFts5(db);
    runMigrations(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function assertFts5(db: Database): void {
  try {
    db.exec("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(body); DROP TABLE temp.fts5_probe;");
  } catch (cause) {
    throw new Error("This SQLite build lacks FTS5, which keyword search needs", { cause });
  }
}
