import type { Migration } from "./migration.js";

export const connectors: Migration = {
  version: 16,
  name: "connectors: remote MCP servers, members' connections and allowances, tool lists, input requests",
  sql: `
    CREATE TABLE connectors (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      server_label TEXT NOT NULL,
      url TEXT NOT NULL,
      host TEXT NOT NULL,
      auth_kind TEXT NOT NULL CHECK (auth_kind IN ('none', 'bearer', 'oauth')),
      description TEXT,
      -- JSON array of agent ids, or NULL for every agent.
      agent_ids TEXT,
      enabled INTEGER NOT NULL,
      plugin_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, server_label)
    );
    CREATE INDEX connectors_org_created ON connectors(organization_id, created_at DESC, id DESC);

    -- A member's sign-in: the token sealed with the connector id and the key id as associated data.
    CREATE TABLE connector_connections (
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('connected', 'expired')),
      token_encrypted TEXT,
      connected_at INTEGER NOT NULL,
      PRIMARY KEY (connector_id, member_id)
    );

    CREATE TABLE connector_allowances (
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      destinations TEXT NOT NULL,
      allowed_at INTEGER NOT NULL,
      PRIMARY KEY (connector_id, member_id, agent_id)
    );

    -- The last successful tools/list per connector and member (tool catalogs).
    CREATE TABLE connector_tool_lists (
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL,
      tools TEXT NOT NULL,
      listed_at INTEGER NOT NULL,
      PRIMARY KEY (connector_id, member_id)
    );

    CREATE TABLE connector_inputs (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL,
      response_id TEXT NOT NULL,
      connector_id TEXT,
      server_label TEXT NOT NULL,
      tool TEXT NOT NULL,
      call_id TEXT NOT NULL,
      mode TEXT NOT NULL,
      message TEXT NOT NULL,
      requested_schema TEXT,
      url TEXT,
      status TEXT NOT NULL CHECK (status IN ('open', 'answered', 'expired', 'cancelled')),
      action TEXT,
      content TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      answered_at INTEGER
    );
    CREATE INDEX connector_inputs_response ON connector_inputs(response_id);
    CREATE INDEX connector_inputs_open ON connector_inputs(status) WHERE status = 'open';
  `,
};
