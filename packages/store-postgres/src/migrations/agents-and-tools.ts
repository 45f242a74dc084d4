/**
 * The agents area on PostgreSQL (issue #24): agents with their versions, labels, conversations,
 * runs and items; members' memory files; skills; connectors; the bash file systems of
 * conversations; plugins. The same tables, columns, constraints and indexes as store-sqlite's
 * migrations 006–008, 014 and 016–018, in PostgreSQL types (decisions PG60–PG66): epoch-ms
 * BIGINT, JSON kept as the exact TEXT SQLite keeps, BYTEA for bytes, BOOLEAN flags, and
 * `COLLATE "C"` on the text columns that are ordered or compared by range (SQLite compares
 * bytes). Foreign keys to organizations and api_keys are added when those families merge.
 */
import type { PostgresMigration } from "../migrations.js";

export const agentsAndToolsMigrations: readonly PostgresMigration[] = [
  {
    version: 21,
    name: "memory files per member",
    // member_id is the API key id; the key's deletion is not cascaded (a revoked key's memory stays).
    sql: `
      CREATE TABLE memory_files (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        member_id TEXT COLLATE "C" NOT NULL,
        path TEXT COLLATE "C" NOT NULL,
        content TEXT NOT NULL,
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        line_count BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, member_id, path)
      );
    `,
  },
  {
    version: 23,
    name: "connectors: remote MCP servers, members' connections and allowances, tool lists, input requests",
    sql: `
      CREATE TABLE connectors (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        server_label TEXT COLLATE "C" NOT NULL,
        url TEXT NOT NULL,
        host TEXT NOT NULL,
        auth_kind TEXT NOT NULL CHECK (auth_kind IN ('none', 'bearer', 'oauth')),
        description TEXT,
        -- JSON array of agent ids, or NULL for every agent.
        agent_ids TEXT,
        enabled BOOLEAN NOT NULL,
        plugin_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, server_label)
      );
      CREATE INDEX connectors_org_created ON connectors (organization_id, created_at DESC, id DESC);

      -- A member's sign-in: the token sealed with the connector id and the key id as associated data.
      CREATE TABLE connector_connections (
        connector_id TEXT NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
        member_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('connected', 'expired')),
        token_encrypted TEXT,
        connected_at BIGINT NOT NULL,
        PRIMARY KEY (connector_id, member_id)
      );

      CREATE TABLE connector_allowances (
        connector_id TEXT NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
        member_id TEXT NOT NULL,
        agent_id TEXT COLLATE "C" NOT NULL,
        destinations TEXT NOT NULL,
        allowed_at BIGINT NOT NULL,
        PRIMARY KEY (connector_id, member_id, agent_id)
      );

      -- The last successful tools/list per connector and member (tool catalogs).
      CREATE TABLE connector_tool_lists (
        connector_id TEXT NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
        member_id TEXT NOT NULL,
        tools TEXT NOT NULL,
        listed_at BIGINT NOT NULL,
        PRIMARY KEY (connector_id, member_id)
      );

      CREATE TABLE connector_inputs (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
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
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        answered_at BIGINT
      );
      CREATE INDEX connector_inputs_response ON connector_inputs (response_id);
      CREATE INDEX connector_inputs_open ON connector_inputs (status) WHERE status = 'open';
    `,
  },
  {
    version: 25,
    name: "plugins",
    sql: `
      CREATE TABLE plugins (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        version TEXT NOT NULL,
        description TEXT,
        manifest TEXT NOT NULL,
        source_type TEXT NOT NULL CHECK (source_type IN ('upload', 'url')),
        source_url TEXT,
        skill_ids TEXT NOT NULL,
        connector_ids TEXT NOT NULL,
        agent_ids TEXT NOT NULL,
        warnings TEXT NOT NULL,
        installed_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_synced_at BIGINT,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX plugins_org_installed ON plugins (organization_id, installed_at DESC, id DESC);
    `,
  },
];
