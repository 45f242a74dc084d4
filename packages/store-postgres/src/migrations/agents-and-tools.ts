/**
 * The agents area on PostgreSQL (issue #24): agents with their versions, labels, conversations,
 * runs and items; members' memory files; skills; connectors; the bash file systems of
 * conversations; plugins. The same tables, columns, constraints and indexes as store-sqlite's
 * migrations 006–008, 014 and 016–018, in PostgreSQL types (decisions PG60–PG66): epoch-ms
 * BIGINT, JSON kept as the exact TEXT SQLite keeps, BYTEA for bytes, BOOLEAN flags, and
 * `COLLATE "C"` on the text columns that are ordered or compared by range (SQLite compares
 * bytes). Foreign keys to organizations and api_keys are added when those families merge.
 */
import type { PostgresMigration } from "../migrations.js";

export const agentsAndToolsMigrations: readonly PostgresMigration[] = [
  {
    version: 21,
    name: "memory files per member",
    // member_id is the API key id; the key's deletion is not cascaded (a revoked key's memory stays).
    sql: `
      CREATE TABLE memory_files (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        member_id TEXT COLLATE "C" NOT NULL,
        path TEXT COLLATE "C" NOT NULL,
        content TEXT NOT NULL,
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        line_count BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, member_id, path)
      );
    `,
  },
  {
    version: 25,
    name: "plugins",
    sql: `
      CREATE TABLE plugins (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        version TEXT NOT NULL,
        description TEXT,
        manifest TEXT NOT NULL,
        source_type TEXT NOT NULL CHECK (source_type IN ('upload', 'url')),
        source_url TEXT,
        skill_ids TEXT NOT NULL,
        connector_ids TEXT NOT NULL,
        agent_ids TEXT NOT NULL,
        warnings TEXT NOT NULL,
        installed_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_synced_at BIGINT,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX plugins_org_installed ON plugins (organization_id, installed_at DESC, id DESC);
    `,
  },
];
