import type { Migration } from "./migration.js";

export const foundation: Migration = {
  version: 1,
  name: "organizations, api keys, jobs",
  sql: `
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL CHECK (plan IN ('free', 'team', 'business', 'enterprise')),
        created_at INTEGER NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'member', 'admin')),
        -- first characters of the key, enough to recognise it in a list; never the secret part
        prefix TEXT NOT NULL,
        -- SHA-256 of the whole key: keys are 256-bit random, so a fast hash is not brute-forceable
        key_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_organization ON api_keys(organization_id);

      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
        payload TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        result TEXT,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        run_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_expires_at INTEGER
      );
      CREATE INDEX jobs_claimable ON jobs(status, kind, run_at);
    `,
};
