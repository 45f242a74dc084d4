// Knowledge-base fixtures of the store's index tests: one configuration (FIXED chunks, the
// `simple` text-search language) and a text document uploaded and chunked one chunk per text.
import type { KnowledgeBaseConfig, KnowledgeBaseRecord } from "@groundwork/kb";
import type { Store } from "../src/open-store.js";

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
