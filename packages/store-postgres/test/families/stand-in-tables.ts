/**
 * Tables other helpers port to PostgreSQL (pgA: api_keys, files, schemas, extractions; pgB:
 * skills, skill_versions, plugins; pgC: scores), as the SQLite migrations define them in the
 * types their briefs name (BIGINT times, BOOLEAN flags, JSONB for the JSON that analytics reads;
 * its SQL works on TEXT JSON, 0/1 integers and any collation of the columns alike). Only the columns the contracts write and
 * the NOT NULL ones. `IF NOT EXISTS`: once those families merge their migrations create the
 * real tables and these statements do nothing (the contracts' rows must then fit them).
 * Includes the extraction quality columns of SQLite migration 022 (confidence … quality_computed).
 */
import type { SqlClient } from "../../src/sql-client.js";

export const STAND_IN_TABLES = `
  CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT
  );
  CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    filename TEXT NOT NULL,
    purpose TEXT NOT NULL,
    mime TEXT NOT NULL,
    byte_size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content BYTEA,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
  );
  CREATE TABLE IF NOT EXISTS skills (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    namespace TEXT,
    qualified_name TEXT NOT NULL,
    description TEXT NOT NULL,
    plugin_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS skill_versions (
    id TEXT PRIMARY KEY,
    skill_id TEXT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    version_number INTEGER NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    frontmatter TEXT NOT NULL,
    skill_md TEXT NOT NULL,
    files TEXT NOT NULL,
    total_size BIGINT NOT NULL,
    source TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT true,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS plugins (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    manifest TEXT NOT NULL,
    source_type TEXT NOT NULL,
    skill_ids TEXT NOT NULL,
    connector_ids TEXT NOT NULL,
    agent_ids TEXT NOT NULL,
    warnings TEXT NOT NULL,
    installed_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS schemas (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS extractions (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    schema_id TEXT NOT NULL,
    schema_version_id TEXT NOT NULL,
    status TEXT NOT NULL,
    strategy TEXT NOT NULL,
    model TEXT NOT NULL,
    result JSONB,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    confidence DOUBLE PRECISION,
    flag_count INTEGER,
    validation_applied BOOLEAN,
    violation_count INTEGER,
    quality_computed BOOLEAN NOT NULL DEFAULT false
  );
  CREATE TABLE IF NOT EXISTS scores (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    name TEXT NOT NULL,
    data_type TEXT NOT NULL,
    value JSONB NOT NULL,
    comment TEXT,
    source TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
`;

export async function createStandInTables(client: SqlClient): Promise<void> {
  await client.exec(STAND_IN_TABLES);
}
