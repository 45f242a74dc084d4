import type { Migration } from "./migration.js";

export const plugins: Migration = {
  version: 18,
  name: "plugins",
  sql: `
    -- A plugin installation: its manifest, where it came from and the ids of the components it
    -- installed (JSON arrays; the components carry plugin_id themselves where their tables have one).
    CREATE TABLE plugins (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      version TEXT NOT NULL,
      description TEXT,
      manifest TEXT NOT NULL,
      source_type TEXT NOT NULL CHECK (source_type IN ('upload', 'url')),
      source_url TEXT,
      skill_ids TEXT NOT NULL,
      connector_ids TEXT NOT NULL,
      agent_ids TEXT NOT NULL,
      warnings TEXT NOT NULL,
      installed_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      last_synced_at INTEGER,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX plugins_org_installed ON plugins(organization_id, installed_at DESC, id DESC);
  `,
};
