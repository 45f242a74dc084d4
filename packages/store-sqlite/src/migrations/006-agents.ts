import type { Migration } from "./migration.js";

export const agents: Migration = {
  version: 6,
  name: "agents, versions, labels, conversations, runs",
  sql: `
    CREATE TABLE agents (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      published INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX agents_organization ON agents(organization_id, created_at);

    -- Versions are immutable definitions; only active/deactivated_at change.
    CREATE TABLE agent_versions (
      id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
      version_number INTEGER NOT NULL,
      definition TEXT NOT NULL,
      active INTEGER NOT NULL DEFAULT 1,
      copied_from_version_id TEXT,
      created_at INTEGER NOT NULL,
      deactivated_at INTEGER,
      UNIQUE (agent_id, version_number)
    );

    CREATE TABLE agent_labels (
      agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      agent_version_id TEXT NOT NULL REFERENCES agent_versions(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (agent_id, name)
    );

    -- Conversations carry the mode and the tools approved with remember.
    CREATE TABLE agent_conversations (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      agent_id TEXT NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('plan', 'ask', 'auto')),
      remembered TEXT NOT NULL DEFAULT '[]',
      last_response_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    -- One row per response of an agent run; state is the engine's RunState as JSON.
    -- continued_by is set once, in the same statement that checks it is unset, so a paused
    -- response is continued at most once.
    CREATE TABLE agent_runs (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      agent_id TEXT NOT NULL,
      conversation_id TEXT NOT NULL,
      previous_response_id TEXT,
      continued_by TEXT,
      status TEXT NOT NULL,
      state TEXT NOT NULL,
      paused_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX agent_runs_agent_status ON agent_runs(agent_id, status);
  `,
};
