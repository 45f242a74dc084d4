/**
 * Numbered migrations, applied in order at open inside one transaction each.
 * A migration is never edited once released: add the next number instead.
 */
import type { Database } from "better-sqlite3";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "organizations, api keys, jobs",
    sql: `
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL CHECK (plan IN ('free', 'team', 'business', 'enterprise')),
        created_at INTEGER NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'member', 'admin')),
        -- first characters of the key, enough to recognise it in a list; never the secret part
        prefix TEXT NOT NULL,
        -- SHA-256 of the whole key: keys are 256-bit random, so a fast hash is not brute-forceable
        key_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_organization ON api_keys(organization_id);

      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
        payload TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        result TEXT,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        run_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_expires_at INTEGER
      );
      CREATE INDEX jobs_claimable ON jobs(status, kind, run_at);
    `,
  },
];

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
