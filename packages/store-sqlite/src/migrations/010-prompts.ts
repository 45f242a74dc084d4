import type { Migration } from "./migration.js";

export const prompts: Migration = {
  version: 10,
  name: "prompts, versions, labels",
  sql: `
    -- tags is a JSON array of strings; name is unique per organization.
    CREATE TABLE prompts (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      description TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX prompts_organization ON prompts(organization_id, created_at);

    -- Versions are immutable: only active/deactivated_at change. prompt is the JSON of a
    -- string (text) or a message array (chat); variables is derived at commit.
    CREATE TABLE prompt_versions (
      id TEXT PRIMARY KEY,
      prompt_id TEXT NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
      version_number INTEGER NOT NULL,
      prompt TEXT NOT NULL,
      config TEXT NOT NULL DEFAULT '{}',
      variables TEXT NOT NULL DEFAULT '[]',
      change_description TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      copied_from_version_id TEXT,
      created_at INTEGER NOT NULL,
      deactivated_at INTEGER,
      UNIQUE (prompt_id, version_number)
    );

    -- The system label 'latest' is a row like the others; prompt_version_id is NULL while no version is active.
    CREATE TABLE prompt_labels (
      prompt_id TEXT NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      prompt_version_id TEXT REFERENCES prompt_versions(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (prompt_id, name)
    );
    CREATE INDEX prompt_labels_version ON prompt_labels(prompt_version_id);
  `,
};
