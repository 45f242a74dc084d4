import type { Migration } from "./migration.js";

export const memory: Migration = {
  version: 7,
  name: "memory files per member",
  sql: `
    -- One row per file of a member's /memories tree; directories are implied by paths.
    -- member_id is the API key id; the key's deletion is not cascaded because a
    -- revoked key's memory stays until erased.
    CREATE TABLE memory_files (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL,
      path TEXT NOT NULL,
      content TEXT NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      line_count INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, member_id, path)
    );
  `,
};
