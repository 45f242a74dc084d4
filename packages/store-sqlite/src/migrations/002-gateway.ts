import type { Migration } from "./migration.js";

export const gateway: Migration = {
  version: 2,
  name: "providers and usage records",
  sql: `
    CREATE TABLE providers (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      config TEXT NOT NULL,
      -- AES-256-GCM under the master secret, bound to the row id; NULL for kinds without a key
      api_key_encrypted TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX providers_organization ON providers(organization_id, type, created_at);

    CREATE TABLE usage_records (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      api_key_id TEXT,
      model TEXT NOT NULL,
      surface TEXT NOT NULL CHECK (surface IN ('CHAT', 'VISION', 'EMBEDDINGS', 'RESPONSES', 'AUDIO')),
      byok INTEGER NOT NULL,
      prompt_tokens INTEGER NOT NULL,
      completion_tokens INTEGER NOT NULL,
      cached_tokens INTEGER,
      cost_eur REAL NOT NULL,
      latency_ms REAL NOT NULL,
      outcome TEXT NOT NULL,
      end_user TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX usage_records_organization ON usage_records(organization_id, created_at);
  `,
};
