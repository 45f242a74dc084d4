/**
 * Schemas, skills and experiments on PostgreSQL (versions 16, 22, 36): the tables, constraints
 * and indexes of store-sqlite's migrations 004 (schemas), 014 (skills) and 019 (experiments,
 * whose tables version 34 created) in PostgreSQL types (decisions PG130–PG139): epoch-ms BIGINT,
 * JSON as TEXT holding the exact text the store wrote, BYTEA for file bytes, BOOLEAN flags, ids,
 * names, label names and paths `COLLATE "C"` (SQLite compares text bytewise), and the foreign
 * keys to organizations that the SQLite tables have.
 */
import type { PostgresMigration } from "../migrations.js";

export const schemasSkillsExperimentsMigrations: readonly PostgresMigration[] = [
  {
    version: 16,
    name: "schemas, versions, labels",
    // Versions are immutable: only active/deactivated_at and the support-set extraction_config
    // change. The system label 'latest' is a row like the others (NULL while no version is active).
    sql: `
      CREATE TABLE schemas (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX schemas_organization ON schemas (organization_id, created_at);
      CREATE TABLE schema_versions (
        id TEXT COLLATE "C" PRIMARY KEY,
        schema_id TEXT COLLATE "C" NOT NULL REFERENCES schemas (id) ON DELETE CASCADE,
        version_number INTEGER NOT NULL,
        json_schema TEXT NOT NULL,
        change_description TEXT,
        extraction_config TEXT,
        active BOOLEAN NOT NULL DEFAULT TRUE,
        copied_from_version_id TEXT,
        created_at BIGINT NOT NULL,
        deactivated_at BIGINT,
        UNIQUE (schema_id, version_number)
      );
      CREATE TABLE schema_labels (
        schema_id TEXT COLLATE "C" NOT NULL REFERENCES schemas (id) ON DELETE CASCADE,
        name TEXT COLLATE "C" NOT NULL,
        schema_version_id TEXT COLLATE "C" REFERENCES schema_versions (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (schema_id, name)
      );
      CREATE INDEX schema_labels_version ON schema_labels (schema_version_id);
    `,
  },
  {
    version: 22,
    name: "skills, versions, files, labels",
    // namespace is NULL for imported skills and the plugin's name for a plugin's skills;
    // qualified_name is name or namespace:name; description follows the latest active version.
    // files is the sorted manifest [{path, size, sha256}]; the bytes are in skill_files.
    sql: `
      CREATE TABLE skills (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name TEXT COLLATE "C" NOT NULL,
        namespace TEXT COLLATE "C",
        qualified_name TEXT COLLATE "C" NOT NULL,
        description TEXT NOT NULL,
        plugin_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, qualified_name)
      );
      CREATE INDEX skills_name ON skills (organization_id, name);
      CREATE TABLE skill_versions (
        id TEXT COLLATE "C" PRIMARY KEY,
        skill_id TEXT COLLATE "C" NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
        version_number INTEGER NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        frontmatter TEXT NOT NULL,
        skill_md TEXT NOT NULL,
        files TEXT NOT NULL,
        total_size BIGINT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('import', 'plugin', 'skills_apply')),
        change_description TEXT,
        active BOOLEAN NOT NULL DEFAULT TRUE,
        copied_from_version_id TEXT,
        created_at BIGINT NOT NULL,
        deactivated_at BIGINT,
        UNIQUE (skill_id, version_number)
      );
      CREATE TABLE skill_files (
        skill_version_id TEXT COLLATE "C" NOT NULL REFERENCES skill_versions (id) ON DELETE CASCADE,
        path TEXT COLLATE "C" NOT NULL,
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        content BYTEA NOT NULL,
        PRIMARY KEY (skill_version_id, path)
      );
      CREATE TABLE skill_labels (
        skill_id TEXT COLLATE "C" NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
        name TEXT COLLATE "C" NOT NULL,
        skill_version_id TEXT COLLATE "C" REFERENCES skill_versions (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (skill_id, name)
      );
      CREATE INDEX skill_labels_version ON skill_labels (skill_version_id);
    `,
  },
  {
    version: 36,
    name: "experiments belong to their organization",
    // Version 34 created the experiment tables without it (organizations were not on this store
    // yet); SQLite's experiments reference organizations, the runs and results do not.
    sql: `
      ALTER TABLE experiments
        ADD CONSTRAINT experiments_organization_fk FOREIGN KEY (organization_id)
        REFERENCES organizations (id) ON DELETE CASCADE;
    `,
  },
];
