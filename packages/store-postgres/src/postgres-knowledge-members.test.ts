/**
 * The knowledge-base members contract (test/families/knowledge-bases-contract.ts) on the SQLite
 * families (the reference), PGlite with pgvector (exact search by the database), PGlite without
 * it and a real PostgreSQL server (exact search in the application over the float vectors).
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { defaultIdGenerator } from "@groundwork/core";
import { configSnapshot } from "@groundwork/store-rows";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseConfig } from "../../kb/test/kb-ports-contract.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { postgresOrganization } from "../test/families/family-fixture.js";
import { TestClock } from "../test/families/family-harness.js";
import {
  describeKnowledgeMembersContract,
  type OpenKnowledgeMembers,
} from "../test/families/knowledge-bases-contract.js";
import { createTestDatabase } from "../test/test-database.js";
import { runPostgresMigrations } from "./migrations.js";
import { PostgresKeywordIndex } from "./postgres-keyword-index.js";
import { PostgresKnowledgeStore } from "./postgres-knowledge-store.js";
import { PostgresVectorIndex } from "./postgres-vector-index.js";
import { fromPGlite, fromPgPool, type PGliteLike, type SqlClient } from "./sql-client.js";

const onSqlite: OpenKnowledgeMembers = async (options = {}) => {
  const clock = new TestClock();
  const store = openStore({ file: ":memory:", clock, ids: options.ids ?? defaultIdGenerator });
  let organizations = 0;
  return {
    knowledgeBases: store.knowledgeBases,
    kbVectors: store.kbVectors,
    kbKeywords: store.kbKeywords,
    clock,
    organization: async () => store.organizations.create(`org ${++organizations}`, "enterprise").id,
  };
};
describeKnowledgeMembersContract("SQLite", onSqlite);

function onPostgres(client: () => SqlClient): OpenKnowledgeMembers {
  return async (options = {}) => {
    const clock = new TestClock();
    return {
      knowledgeBases: new PostgresKnowledgeStore(client(), clock, options.ids ?? defaultIdGenerator),
      kbVectors: new PostgresVectorIndex(client()),
      kbKeywords: new PostgresKeywordIndex(client()),
      clock,
      // A real row: knowledge bases reference their organization (migration 50, PG160).
      organization: () => postgresOrganization(client(), clock),
    };
  };
}

let withVector: SqlClient;
let withoutVector: SqlClient;
let onServer: SqlClient;
beforeAll(async () => {
  withVector = fromPGlite((await PGlite.create({ extensions: { vector } })) as unknown as PGliteLike);
  withoutVector = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
  onServer = fromPgPool(new pg.Pool({ connectionString: await createTestDatabase("kb_members"), max: 4 }));
  for (const client of [withVector, withoutVector, onServer]) await runPostgresMigrations(client);
}, 120_000);
afterAll(async () => {
  await Promise.all([withVector?.close(), withoutVector?.close(), onServer?.close()]);
}, 60_000);

describeKnowledgeMembersContract(
  "PGlite with pgvector",
  onPostgres(() => withVector),
);
describeKnowledgeMembersContract(
  "PGlite without pgvector",
  onPostgres(() => withoutVector),
);
describeKnowledgeMembersContract(
  "a PostgreSQL server",
  onPostgres(() => onServer),
);

describe("reindex rows and a concurrent change of the pending language (real server)", () => {
  it("rows written for a language that a committed change dropped are never left behind", async () => {
    const store = new PostgresKnowledgeStore(onServer);
    const keywords = new PostgresKeywordIndex(onServer);
    const kb = await store.create(await postgresOrganization(onServer), {
      ...baseConfig,
      slug: "race",
      name: "race",
    });
    const { revision } = await store.acceptUpload({
      knowledgeBase: kb,
      filename: "r.txt",
      mime: "text/plain",
      bytes: new Uint8Array([1]),
      metadata: {},
      apiKeyId: null,
    });
    const [chunk] = await store.replaceChunks(revision.id, [
      {
        kind: "fixed",
        parentPosition: null,
        position: 0,
        text: "Datenbanken speichern Zeilen",
        tokenCount: 3,
        pageStart: null,
        pageEnd: null,
        headingPath: [],
      },
    ]);
    await store.update(kb.organizationId, kb.id, configSnapshot(kb), "german");
    const germanRows = async () =>
      Number(
        (
          await onServer.query<{ n: string }>(
            "SELECT COUNT(*) AS n FROM kb_keywords WHERE knowledge_base_id = $1 AND language = 'german'",
            [kb.id],
          )
        ).rows[0]?.n,
      );
    // Another process cancels the reindex: its transaction has dropped the language and its rows
    // but not committed yet when the reindex writes its batch.
    let written: Promise<boolean> | undefined;
    await onServer.transaction(async (tx) => {
      await tx.query("SELECT 1 FROM knowledge_bases WHERE id = $1 FOR UPDATE", [kb.id]);
      await tx.query("UPDATE knowledge_bases SET pending_text_search_language = NULL WHERE id = $1", [kb.id]);
      await tx.query("DELETE FROM kb_keywords WHERE knowledge_base_id = $1 AND language = 'german'", [kb.id]);
      written = keywords.addTerms(kb.id, "german", [{ chunkId: chunk?.id ?? "", terms: "" }]);
      let settled = false;
      void written.then(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false); // it waits for the change to end
    });
    expect(await written).toBe(false);
    expect(await germanRows()).toBe(0);
  });
});
