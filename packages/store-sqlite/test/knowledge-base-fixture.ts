// Knowledge-base fixtures of the store's index tests: one configuration (FIXED chunks, the
// `simple` text-search language) and a text document uploaded and chunked one chunk per text.
import type { KnowledgeBaseConfig, KnowledgeBaseRecord } from "@groundwork/kb";
import { openStore, type Store } from "../src/open-store.js";

export const knowledgeBaseConfig = (slug: string): KnowledgeBaseConfig => ({
  name: slug,
  slug,
  description: null,
  embeddingProviderId: "builtin",
  embeddingModel: "hash-embedding-1536",
  embeddingDim: 1536,
  chunkingStrategy: "FIXED",
  chunkSize: 100,
  chunkOverlap: 0,
  parentChunkSize: 1500,
  hybridSearchEnabled: true,
  rerankerProviderId: null,
  textSearchLanguage: "simple",
});

/** Uploads a text document named `name` and writes one FIXED chunk per text (not yet served). */
export function writeDocument(
  store: Store,
  knowledgeBase: KnowledgeBaseRecord,
  name: string,
  texts: readonly string[],
  metadata: Record<string, unknown> = {},
) {
  const { revision, document } = store.knowledgeBases.acceptUpload({
    knowledgeBase,
    filename: name,
    mime: "text/plain",
    bytes: new TextEncoder().encode(name),
    metadata,
    apiKeyId: null,
  });
  const chunks = store.knowledgeBases.replaceChunks(
    revision.id,
    texts.map((text, position) => ({
      kind: "fixed" as const,
      parentPosition: null,
      position,
      text,
      tokenCount: 3,
      pageStart: null,
      pageEnd: null,
      headingPath: [],
    })),
  );
  return { revision, document, chunks };
}

/**
 * A store (`file`, in memory by default) with one knowledge base, deterministic random vectors of
 * `width` components, and `addDocument`: a document of `rows` chunks with a vector each (not yet served).
 */
export function vectorKnowledgeBase(file = ":memory:", width = 64) {
  const store = openStore({ file });
  const org = store.organizations.create("acme", "enterprise");
  const kb = store.knowledgeBases.create(org.id, knowledgeBaseConfig("kb"));
  let state = 3;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
  const vector = () => Float32Array.from({ length: width }, random);
  const addDocument = (name: string, rows: number) => {
    const written = writeDocument(
      store,
      kb,
      name,
      Array.from({ length: rows }, (_, position) => `${name} ${position}`),
    );
    store.kbVectors.upsert(
      kb.id,
      written.chunks.map((chunk) => ({ chunkId: chunk.id, vector: vector() })),
    );
    return written;
  };
  return { store, kb, vector, addDocument };
}
