import type { Migration } from "./migration.js";

export const schemasExtractions: Migration = {
  version: 4,
  name: "schemas, versions, labels, extractions",
  sql: `
    CREATE TABLE schemas (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX schemas_organization ON schemas(organization_id, created_at);

    -- Versions are immutable: only active/deactivated_at and the support-set extraction_config change.
    CREATE TABLE schema_versions (
      id TEXT PRIMARY KEY,
      schema_id TEXT NOT NULL REFERENCES schemas(id) ON DELETE CASCADE,
      version_number INTEGER NOT NULL,
      json_schema TEXT NOT NULL,
      change_description TEXT,
      extraction_config TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      copied_from_version_id TEXT,
      created_at INTEGER NOT NULL,
      deactivated_at INTEGER,
      UNIQUE (schema_id, version_number)
    );

    -- The system label 'latest' is a row like the others; schema_version_id is NULL while no version is active.
    CREATE TABLE schema_labels (
      schema_id TEXT NOT NULL REFERENCES schemas(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      schema_version_id TEXT REFERENCES schema_versions(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (schema_id, name)
    );

    -- Extractions outlive their schema: schema and version ids are kept as plain text.
    CREATE TABLE extractions (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      schema_id TEXT NOT NULL,
      schema_version_id TEXT NOT NULL,
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
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      started_at INTEGER,
      completed_at INTEGER
    );
    CREATE INDEX extractions_organization ON extractions(organization_id, created_at);
    CREATE INDEX extractions_version ON extractions(organization_id, schema_version_id);

    -- Images of a background extraction, kept only until it finishes (images are never stored for good).
    CREATE TABLE extraction_images (
      extraction_id TEXT NOT NULL REFERENCES extractions(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      mime_type TEXT NOT NULL,
      data TEXT NOT NULL,
      PRIMARY KEY (extraction_id, position)
    );
  `,
};
