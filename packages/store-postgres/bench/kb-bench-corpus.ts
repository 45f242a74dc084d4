/**
 * The synthetic corpus the store-postgres knowledge-base benches load into each backend: the same
 * texts (30 words drawn with a skew from a vocabulary, from a fixed seed) and the same vectors, so
 * SQLite and PostgreSQL are measured on identical data in the same run.
 */
import { indexTerms, type KnowledgeBaseRecord } from "@groundwork/kb";
import { baseConfig, type KbBackend, vectorSource } from "../../kb/test/kb-ports-contract.js";

export interface BenchCorpus {
  documents: number;
  chunksPerDocument: number;
  dim: number;
  /** Words the chunk texts are drawn from (low indexes most often). */
  vocabulary: readonly string[];
}

/** Loads the corpus into `backend` as one knowledge base of activated documents. */
export async function loadBenchCorpus(backend: KbBackend, corpus: BenchCorpus): Promise<KnowledgeBaseRecord> {
  let seed = 7;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const { vocabulary } = corpus;
  const sentence = () =>
    Array.from({ length: 30 }, () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]).join(" ");
  const nextVector = vectorSource(corpus.dim, 11);
  const kb = await backend.store.create(backend.organizationId, { ...baseConfig, embeddingDim: corpus.dim });
  for (let d = 0; d < corpus.documents; d++) {
    const { revision } = await backend.store.acceptUpload({
      knowledgeBase: kb,
      filename: `d${d}.txt`,
      mime: "text/plain",
      bytes: new Uint8Array([1]),
      metadata: {},
      apiKeyId: null,
    });
    const chunks = await backend.store.replaceChunks(
      revision.id,
      Array.from({ length: corpus.chunksPerDocument }, (_, position) => ({
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
    await backend.vectors.upsert(
      kb.id,
      chunks.map((chunk) => ({ chunkId: chunk.id, vector: nextVector() })),
    );
    await backend.keywords.add(
      kb.id,
      "simple",
      chunks.map((chunk) => ({ chunkId: chunk.id, terms: indexTerms(chunk.text ?? "", "simple") })),
    );
    await backend.store.activateRevision(revision.id);
  }
  return kb;
}
