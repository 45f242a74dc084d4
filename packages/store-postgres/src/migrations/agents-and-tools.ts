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
    version: 20,
    name: "agents, versions, labels, conversations, runs, conversation items",
    // store-sqlite's 006 with 008's rebuilt agent_conversations (agent_id nullable, title,
    // metadata, owner) and conversation items.
    sql: `
      CREATE TABLE agents (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        description TEXT,
        published BOOLEAN NOT NULL DEFAULT false,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX agents_organization ON agents (organization_id, created_at);

      -- Versions are immutable definitions; only active/deactivated_at change.
      CREATE TABLE agent_versions (
        id TEXT COLLATE "C" PRIMARY KEY,
        agent_id TEXT NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        version_number INTEGER NOT NULL,
        definition TEXT NOT NULL,
        active BOOLEAN NOT NULL DEFAULT true,
        copied_from_version_id TEXT,
        created_at BIGINT NOT NULL,
        deactivated_at BIGINT,
        UNIQUE (agent_id, version_number)
      );

      CREATE TABLE agent_labels (
        agent_id TEXT NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        name TEXT COLLATE "C" NOT NULL,
        agent_version_id TEXT NOT NULL REFERENCES agent_versions (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (agent_id, name)
      );

      -- Conversations carry the mode and the tools approved with remember; agent_id is NULL
      -- until the first turn binds a conversation created without an agent.
      CREATE TABLE agent_conversations (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        agent_id TEXT,
        mode TEXT NOT NULL CHECK (mode IN ('plan', 'ask', 'auto')),
        remembered TEXT NOT NULL DEFAULT '[]',
        last_response_id TEXT,
        title TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_by_key_id TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX agent_conversations_organization ON agent_conversations (organization_id, created_at);

      -- One row per response of an agent run; state is the engine's RunState as JSON text.
      -- continued_by is set once, in the statement that checks it is unset, so a paused
      -- response is continued at most once.
      CREATE TABLE agent_runs (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        previous_response_id TEXT,
        continued_by TEXT,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        paused_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX agent_runs_agent_status ON agent_runs (agent_id, status);
      CREATE INDEX agent_runs_conversation ON agent_runs (conversation_id, created_at);

      -- The conversation as stored: each response's input and output items, in order.
      CREATE TABLE conversation_items (
        id TEXT COLLATE "C" PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES agent_conversations (id) ON DELETE CASCADE,
        response_id TEXT,
        position INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (conversation_id, position)
      );
      CREATE INDEX conversation_items_type ON conversation_items (conversation_id, type, position);
    `,
  },
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
    version: 24,
    name: "platform tools: the bash file system of each conversation (committed and held changes)",
    // stage '' is the committed tree; a non-empty stage is the call id of a held platform_bash
    // call. bash_tree_writes counts commits to each conversation's tree, for the revision that
    // tells a process its in-memory copy is current (SQLite reads PRAGMA data_version; PG67).
    sql: `
      CREATE TABLE bash_files (
        conversation_id TEXT NOT NULL REFERENCES agent_conversations (id) ON DELETE CASCADE,
        organization_id TEXT NOT NULL,
        stage TEXT COLLATE "C" NOT NULL DEFAULT '',
        path TEXT COLLATE "C" NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('file', 'dir', 'deleted')),
        content BYTEA,
        size BIGINT NOT NULL DEFAULT 0,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (conversation_id, stage, path)
      );
      CREATE TABLE bash_held_outputs (
        conversation_id TEXT NOT NULL REFERENCES agent_conversations (id) ON DELETE CASCADE,
        call_id TEXT COLLATE "C" NOT NULL,
        result TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (conversation_id, call_id)
      );
      CREATE TABLE bash_tree_writes (
        conversation_id TEXT PRIMARY KEY REFERENCES agent_conversations (id) ON DELETE CASCADE,
        writes BIGINT NOT NULL
      );
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
