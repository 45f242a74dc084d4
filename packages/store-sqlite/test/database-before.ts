/**
 * A database as it was before migration `version` (every earlier migration applied), with
 * organization `org_1`: a migration test fills it as old code did, then runs the rest.
 */
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { migrations } from "../src/migrations/index.js";
import { runMigrations } from "../src/run-migrations.js";

export function databaseBefore(version: number): Database.Database {
  const db = new Database(":memory:");
  db.pragma("foreign_keys = ON");
  sqliteVec.load(db);
  runMigrations(
    db,
    migrations.filter((migration) => migration.version < version),
  );
  db.prepare(
    "INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_1', 'acme', 'team', 0)",
  ).run();
  return db;
}
