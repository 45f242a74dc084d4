/**
 * The knowledge-base members contract (test/families/knowledge-bases-contract.ts) on the SQLite
 * families (the reference), PGlite with pgvector (exact search by the database), PGlite without
 * it and a real PostgreSQL server (exact search in the application over the float vectors).
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { defaultIdGenerator } from "@groundwork/core";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openStore } from "../../store-sqlite/src/open-store.js";
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

let organizations = 0;
function onPostgres(client: () => SqlClient): OpenKnowledgeMembers {
  return async (options = {}) => {
    const clock = new TestClock();
    return {
      knowledgeBases: new PostgresKnowledgeStore(client(), clock, options.ids ?? defaultIdGenerator),
      kbVectors: new PostgresVectorIndex(client()),
      kbKeywords: new PostgresKeywordIndex(client()),
      clock,
      organization: async () => `org_${++organizations}_${Math.random().toString(36).slice(2, 10)}`,
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
