/**
 * Tables of organizations, API keys, providers, files, conversion tasks, stored responses,
 * extractions and schemas (versions 10–19), the same columns, constraints and indexes as the
 * SQLite migrations 001–005, 009, 022 (extraction quality facts) and 027 (source placements).
 * Decisions PG40–PG59 (docs/decisions.md): ids and names are `COLLATE "C"` so ordering and
 * uniqueness compare bytes as SQLite does; JSON is TEXT (the exact text round-trips, JSONB
 * would reorder keys); booleans that SQLite keeps as 0/1 are BOOLEAN; BLOB is BYTEA.
 * Foreign keys to tables other helpers port (agents' agent_runs) are added when the families merge.
 */
import type { PostgresMigration } from "../migrations.js";

export const tenantsDocumentsMigrations: readonly PostgresMigration[] = [
  {
    version: 10,
    name: "organizations and api keys",
    sql: `
      CREATE TABLE organizations (
        id TEXT COLLATE "C" PRIMARY KEY,
        name TEXT COLLATE "C" NOT NULL UNIQUE,
        plan TEXT NOT NULL CHECK (plan IN ('free', 'team', 'business', 'enterprise')),
        created_at BIGINT NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'member', 'admin')),
        prefix TEXT NOT NULL,
        key_hash TEXT COLLATE "C" NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT,
        revoked_at BIGINT
      );
      CREATE INDEX api_keys_organization ON api_keys (organization_id);
    `,
  },
  {
    version: 11,
    name: "providers",
    // organization_id without a foreign key while other helpers' families take plain ids (PG3);
    // the lead adds REFERENCES organizations(id) ON DELETE CASCADE when every family is here.
    sql: `
      CREATE TABLE providers (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL,
        name TEXT NOT NULL,
        type TEXT COLLATE "C" NOT NULL,
        config TEXT NOT NULL,
        api_key_encrypted TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX providers_organization ON providers (organization_id, type, created_at);
    `,
  },
  {
    version: 12,
    name: "files",
    sql: `
      CREATE TABLE files (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL,
        filename TEXT NOT NULL,
        purpose TEXT COLLATE "C" NOT NULL,
        mime TEXT NOT NULL,
        byte_size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        content BYTEA,
        created_at BIGINT NOT NULL,
        deleted_at BIGINT
      );
      CREATE INDEX files_organization ON files (organization_id, created_at);
    `,
  },
  {
    version: 13,
    name: "conversion tasks and their inputs",
    sql: `
      CREATE TABLE conversion_tasks (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'success', 'failure')),
        num_docs INTEGER NOT NULL,
        num_processed INTEGER NOT NULL DEFAULT 0,
        num_succeeded INTEGER,
        num_failed INTEGER,
        request TEXT NOT NULL,
        result TEXT,
        error TEXT,
        job_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        started_at BIGINT,
        finished_at BIGINT
      );
      CREATE INDEX conversion_tasks_organization ON conversion_tasks (organization_id, created_at);

      CREATE TABLE conversion_task_inputs (
        task_id TEXT COLLATE "C" NOT NULL REFERENCES conversion_tasks(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('bytes', 'http')),
        filename TEXT,
        mime_type TEXT,
        url TEXT,
        headers TEXT,
        content BYTEA,
        PRIMARY KEY (task_id, position)
      );
    `,
  },
  {
    version: 14,
    name: "stored responses",
    sql: `
      CREATE TABLE stored_responses (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL,
        created_by_key_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('model', 'agent')),
        conversation_id TEXT COLLATE "C",
        input TEXT NOT NULL,
        response TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT
      );
      CREATE INDEX stored_responses_expiry ON stored_responses (expires_at) WHERE expires_at IS NOT NULL;
      CREATE INDEX stored_responses_conversation ON stored_responses (conversation_id)
        WHERE conversation_id IS NOT NULL;
    `,
  },
  {
    version: 15,
    name: "extractions with their quality facts and source placements, and their images",
    sql: `
      CREATE TABLE extractions (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL,
        schema_id TEXT COLLATE "C" NOT NULL,
        schema_version_id TEXT COLLATE "C" NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
        strategy TEXT NOT NULL CHECK (strategy IN ('SINGLE_SHOT', 'CHUNKED', 'ASYNC')),
        model TEXT NOT NULL,
        input_text TEXT,
        image_count INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        error_message TEXT,
        rerun_of TEXT,
        job_id TEXT,
        api_key_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        started_at BIGINT,
        completed_at BIGINT,
        confidence DOUBLE PRECISION,
        flag_count INTEGER,
        validation_applied BOOLEAN,
        violation_count INTEGER,
        quality_computed BOOLEAN NOT NULL DEFAULT false,
        source_placements TEXT
      );
      CREATE INDEX extractions_organization ON extractions (organization_id, created_at);
      CREATE INDEX extractions_version ON extractions (organization_id, schema_version_id);
      CREATE INDEX extractions_quality_pending ON extractions (organization_id) WHERE NOT quality_computed;

      CREATE TABLE extraction_images (
        extraction_id TEXT COLLATE "C" NOT NULL REFERENCES extractions(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        mime_type TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (extraction_id, position)
      );
    `,
  },
];
