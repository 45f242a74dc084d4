import type { Migration } from "./migration.js";

export const platformTools: Migration = {
  version: 17,
  name: "platform tools: the bash file system of each conversation (committed and held changes)",
  sql: `
    -- One row per file or directory of a conversation's bash file system (/workspace, /tmp).
    -- stage '' is the committed tree; a non-empty stage is the call id of a platform_bash call
    -- whose outputs are held: its changes (content NULL and kind 'deleted' for a deletion) wait
    -- for the approval. Rows go with the conversation.
    CREATE TABLE bash_files (
      conversation_id TEXT NOT NULL REFERENCES agent_conversations(id) ON DELETE CASCADE,
      organization_id TEXT NOT NULL,
      stage TEXT NOT NULL DEFAULT '',
      path TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('file', 'dir', 'deleted')),
      content BLOB,
      size INTEGER NOT NULL DEFAULT 0,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (conversation_id, stage, path)
    );
    -- The held outputs of platform_bash calls, keyed by call id (released on approval).
    CREATE TABLE bash_held_outputs (
      conversation_id TEXT NOT NULL REFERENCES agent_conversations(id) ON DELETE CASCADE,
      call_id TEXT NOT NULL,
      result TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (conversation_id, call_id)
    );
  `,
};
