/**
 * The conversations contract on SQLite (the reference), PGlite and a real PostgreSQL server.
 * `stored_responses` belongs to the stored-responses family (ported by another change): until it
 * merges, the PostgreSQL runs create it with SQLite's columns when it is missing.
 */

import { describeConversationsContract } from "../test/families/conversations-contract.js";
import { openSqlite, postgresBackend } from "../test/families/family-fixture.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresAgentStore } from "./postgres-agents.js";
import { PostgresConversationStore } from "./postgres-conversations.js";
import type { SqlClient } from "./sql-client.js";

describeConversationsContract("SQLite", async (clock) => {
  const { store, backend, close } = openSqlite(clock);
  return {
    family: store.conversations,
    agents: store.agents,
    backend,
    storeResponse: async (organizationId, id, conversationId) => {
      store.storedResponses.save({
        id,
        organizationId,
        createdByKeyId: "key_1",
        kind: conversationId === null ? "agent" : "model",
        conversationId,
        input: [],
        response: null,
        retainForMs: null,
      });
    },
    responseStored: async (organizationId, id) => store.storedResponses.get(organizationId, id) !== null,
    close,
  };
});

const STORED_RESPONSES_UNTIL_PORTED = `CREATE TABLE IF NOT EXISTS stored_responses (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  created_by_key_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('model', 'agent')),
  conversation_id TEXT,
  input TEXT NOT NULL,
  response TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT
)`;

const storedResponses = (client: SqlClient) => ({
  storeResponse: async (organizationId: string, id: string, conversationId: string | null) => {
    await client.exec(STORED_RESPONSES_UNTIL_PORTED);
    await client.query(
      `INSERT INTO stored_responses (id, organization_id, created_by_key_id, kind, conversation_id, input, created_at)
         VALUES ($1, $2, 'key_1', $3, $4, '[]', 0)`,
      [id, organizationId, conversationId === null ? "agent" : "model", conversationId],
    );
  },
  responseStored: async (organizationId: string, id: string) =>
    (
      await client.query("SELECT 1 FROM stored_responses WHERE organization_id = $1 AND id = $2", [
        organizationId,
        id,
      ])
    ).rows.length > 0,
});

for (const backend of postgresBackends("conversations")) {
  describeConversationsContract(backend.label, async (clock) => {
    await backend.client().exec(STORED_RESPONSES_UNTIL_PORTED);
    return {
      family: new PostgresConversationStore(backend.client(), clock),
      agents: new PostgresAgentStore(backend.client(), clock),
      backend: postgresBackend(backend.client(), clock),
      ...storedResponses(backend.client()),
      close: () => {},
    };
  });
}
