/**
 * What the knowledge-base benches share: the knowledge base they create (hash-embedding-1536,
 * FIXED chunks of 100 tokens, English text search) and a timer.
 */
import type { KnowledgeBaseConfig } from "@groundwork/kb";

export const benchKnowledgeBase = (slug: string): KnowledgeBaseConfig => ({
  name: slug,
  slug,
  description: null,
  embeddingProviderId: "builtin",
  // HASH_EMBEDDING_MODEL, written out so the keyword bench needs no gateway import.
  embeddingModel: "hash-embedding-1536",
  embeddingDim: 1536,
  chunkingStrategy: "FIXED",
  chunkSize: 100,
  chunkOverlap: 0,
  parentChunkSize: 1500,
  hybridSearchEnabled: true,
  rerankerProviderId: null,
  textSearchLanguage: "english",
});

/** `run`'s result and its wall time in ms. */
export function time<T>(run: () => T): [T, number] {
  const started = performance.now();
  const result = run();
  return [result, performance.now() - started];
}
