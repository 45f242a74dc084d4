import type { Migration } from "./migration.js";

export const conversations: Migration = {
  version: 8,
  name: "conversations as a resource: title, metadata, owner, unbound agent; items",
  sql: `
    -- agent_id becomes nullable (a conversation created without an agent is bound by its first
    -- turn), so the table is rebuilt; existing rows keep their ids and get an unknown owner.
    CREATE TABLE conversations_new (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      agent_id TEXT,
      mode TEXT NOT NULL CHECK (mode IN ('plan', 'ask', 'auto')),
      remembered TEXT NOT NULL DEFAULT '[]',
      last_response_id TEXT,
      title TEXT,
      metadata TEXT NOT NULL DEFAULT '{}',
      created_by_key_id TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    INSERT INTO conversations_new (id, organization_id, agent_id, mode, remembered, last_response_id, created_at, updated_at)
      SELECT id, organization_id, agent_id, mode, remembered, last_response_id, created_at, updated_at FROM agent_conversations;
    DROP TABLE agent_conversations;
    ALTER TABLE conversations_new RENAME TO agent_conversations;
    CREATE INDEX agent_conversations_organization ON agent_conversations(organization_id, created_at);
    CREATE INDEX agent_runs_conversation ON agent_runs(conversation_id, created_at);

    -- The conversation as stored: each response's input and output items, in order.
    CREATE TABLE conversation_items (
      id TEXT PRIMARY KEY,
      conversation_id TEXT NOT NULL REFERENCES agent_conversations(id) ON DELETE CASCADE,
      response_id TEXT,
      position INTEGER NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (conversation_id, position)
    );
    CREATE INDEX conversation_items_type ON conversation_items(conversation_id, type, position);
  `,
};
