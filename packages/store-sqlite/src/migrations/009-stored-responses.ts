import type { Migration } from "./migration.js";

export const storedResponses: Migration = {
  version: 9,
  name: "stored responses: every /v1/responses answer with its owner and input items",
  sql: `
    -- A plain model answer keeps its response object; an agent run keeps only its owner and input
    -- (the run state in agent_runs renders the current object). expires_at is null while a
    -- conversation holds the response (it goes with the conversation).
    CREATE TABLE stored_responses (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      created_by_key_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('model', 'agent')),
      conversation_id TEXT,
      input TEXT NOT NULL,
      response TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER
    );
    CREATE INDEX stored_responses_expiry ON stored_responses(expires_at) WHERE expires_at IS NOT NULL;
    CREATE INDEX stored_responses_conversation ON stored_responses(conversation_id) WHERE conversation_id IS NOT NULL;
  `,
};
