import type { Migration } from "./migration.js";

export const skills: Migration = {
  version: 14,
  name: "skills, versions, files, labels",
  sql: `
    -- namespace is NULL for imported skills and the plugin's name for a plugin's skills;
    -- qualified_name is name or namespace:name. description follows the latest active version.
    CREATE TABLE skills (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      namespace TEXT,
      qualified_name TEXT NOT NULL,
      description TEXT NOT NULL,
      plugin_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, qualified_name)
    );
    CREATE INDEX skills_name ON skills(organization_id, name);

    -- Versions are immutable: only active/deactivated_at change. files is the sorted
    -- manifest [{path, size, sha256}]; the bytes are in skill_files.
    CREATE TABLE skill_versions (
      id TEXT PRIMARY KEY,
      skill_id TEXT NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
      version_number INTEGER NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL,
      frontmatter TEXT NOT NULL,
      skill_md TEXT NOT NULL,
      files TEXT NOT NULL,
      total_size INTEGER NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('import', 'plugin', 'skills_apply')),
      change_description TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      copied_from_version_id TEXT,
      created_at INTEGER NOT NULL,
      deactivated_at INTEGER,
      UNIQUE (skill_id, version_number)
    );

    CREATE TABLE skill_files (
      skill_version_id TEXT NOT NULL REFERENCES skill_versions(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      content BLOB NOT NULL,
      PRIMARY KEY (skill_version_id, path)
    );

    -- The system label 'latest' is a row like the others; skill_version_id is NULL while no version is active.
    CREATE TABLE skill_labels (
      skill_id TEXT NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      skill_version_id TEXT REFERENCES skill_versions(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (skill_id, name)
    );
  `,
};
