/**
 * Hybrid search: a dense leg (the query embedded by the knowledge base's model,
 * cosine over the vector index) and a keyword leg (FTS5 BM25 over terms analyzed
 * with the knowledge base's text-search language), fused by reciprocal rank
 * fusion (k = 60). Several knowledge bases (the agent tool) fuse all their legs
 * into one list. A failed query embedding degrades to keywords (`lexical_only`,
 * or `partial_lexical_only` when only some knowledge bases fell back), except a
 * refusal the caller must see (402, refused built-in call), which is thrown.
 */
import {
  defaultIdGenerator,
  type EmbeddingModel,
  type IdGenerator,
  type MaybePromise,
} from "@groundwork/core";
import { clampTopK } from "./config.js";
import { errorMessage, searchMustAnswerRefusal } from "./embedding-errors.js";
import { bestSentence } from "./matched-span.js";
import type {
  ChunkRecord,
  DocumentRecord,
  KeywordIndex,
  KnowledgeBaseRecord,
  KnowledgeStore,
  VectorIndex,
} from "./ports.js";
import { reciprocalRankFusion } from "./rrf.js";
import { queryTerms } from "./text-analysis.js";

export interface SearchHit {
  hitId: string;
  knowledgeBaseId: string;
  documentId: string;
  documentVersionId: string;
  documentName: string;
  chunkId: string;
  content: string;
  matchedSpan?: string;
  pageStart?: number;
  pageEnd?: number;
  headingPath: string[];
  score: number;
}

export type Degraded = "lexical_only" | "partial_lexical_only";

export interface SearchResult {
  query: string;
  hits: SearchHit[];
  degraded?: Degraded;
  /** Why the dense leg was skipped, per knowledge base (for logs; not part of the API answer). */
  denseFailures: Array<{ knowledgeBaseId: string; error: string }>;
}

export interface SearchRequest {
  query: string;
  topK?: number;
  metadataFilter?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface SearchDeps {
  store: KnowledgeStore;
  vectors: VectorIndex;
  keywords: KeywordIndex;
  /** The query embedder of a knowledge base (the gateway with the caller's principal). */
  embedderFor: (knowledgeBase: KnowledgeBaseRecord) => MaybePromise<EmbeddingModel>;
  ids?: IdGenerator;
}

/** A serving chunk with the passage a hit on it returns and its document (texts known present). */
interface ServingHit {
  chunk: ChunkRecord;
  chunkText: string;
  passage: ChunkRecord;
  passageText: string;
  document: DocumentRecord;
}

/**
 * Chunks each leg fetches per knowledge base: more than the rank window (topK passages), so that enough
 * distinct serving passages remain once children collapse into parents and stale revisions drop out.
 */
function legDepth(topK: number): number {
  return Math.max(50, topK * 4);
}

export async function searchKnowledgeBases(
  deps: SearchDeps,
  knowledgeBases: readonly KnowledgeBaseRecord[],
  request: SearchRequest,
): Promise<SearchResult> {
  const topK = clampTopK(request.topK);
  const depth = legDepth(topK);
  const ids = deps.ids ?? defaultIdGenerator;
  const lists: string[][] = [];
  const denseFailures: SearchResult["denseFailures"] = [];
  const knowledgeBaseById = new Map(knowledgeBases.map((kb) => [kb.id, kb]));
  const legs = await Promise.all(
    knowledgeBases.map(async (kb) => {
      const documentIds =
        request.metadataFilter === undefined || Object.keys(request.metadataFilter).length === 0
          ? null
          : await deps.store.documentsMatching(kb.id, request.metadataFilter);
      if (documentIds !== null && documentIds.length === 0) return { dense: [], keyword: [], failed: false };
      const base = { knowledgeBaseId: kb.id, k: depth, documentIds };
      const terms = queryTerms(request.query, kb.textSearchLanguage);
      const keywordLeg = async (): Promise<string[]> =>
        terms.length === 0
          ? []
          : (
              await deps.keywords.search({
                ...base,
                language: kb.textSearchLanguage,
                terms,
                text: request.query,
              })
            ).map((hit) => hit.chunkId);
      // With hybrid search on, the keyword leg starts beside the dense one: on a database that
      // answers asynchronously (PostgreSQL) the two legs then overlap instead of adding up.
      const early = kb.hybridSearchEnabled ? keywordLeg() : null;
      // Settled later; a rejection here must not go unhandled while the dense leg runs.
      early?.catch(() => {});
      let dense: string[] = [];
      let failed = false;
      try {
        const embedded = await (await deps.embedderFor(kb)).embed(
          { model: kb.embeddingModel, input: [request.query], dimensions: kb.embeddingDim },
          request.signal === undefined ? {} : { signal: request.signal },
        );
        const vector = embedded.vectors[0];
        if (vector === undefined || vector.length !== kb.embeddingDim) {
          throw new Error(`The embedding model answered no vector of width ${kb.embeddingDim}`);
        }
        dense = (await deps.vectors.search({ ...base, vector })).map((hit) => hit.chunkId);
      } catch (error) {
        if (searchMustAnswerRefusal(kb.embeddingProviderId, error)) throw error;
        if (request.signal?.aborted) throw error;
        failed = true;
        denseFailures.push({ knowledgeBaseId: kb.id, error: errorMessage(error) });
      }
      // Keywords always answer when the dense leg failed, even with hybrid search off.
      const keyword = early !== null ? await early : failed ? await keywordLeg() : [];
      return { dense, keyword, failed };
    }),
  );
  for (const leg of legs) lists.push(leg.dense, leg.keyword);

  // Hydrate every candidate: its chunk, the chunk's parent passage and its document.
  const candidateIds = [...new Set(lists.flat())];
  // Chunk ids are unique across knowledge bases; ask each store slice for its own.
  const chunks = new Map<string, ChunkRecord>();
  for (const kb of knowledgeBases) {
    for (const chunk of await deps.store.chunksById(kb.id, candidateIds)) chunks.set(chunk.id, chunk);
  }
  const parentIds = [...chunks.values()].flatMap((chunk) =>
    chunk.parentId === null ? [] : [chunk.parentId],
  );
  const parents = new Map<string, ChunkRecord>();
  for (const kb of knowledgeBases) {
    for (const parent of await deps.store.chunksById(kb.id, parentIds)) parents.set(parent.id, parent);
  }
  const documents = new Map<string, DocumentRecord>(
    (await deps.store.documentsById([...new Set([...chunks.values()].map((c) => c.documentId))])).map((d) => [
      d.id,
      d,
    ]),
  );
  /** What a hit on this chunk returns (its parent passage, or itself), or undefined when it no longer serves. */
  const servingHit = (chunk: ChunkRecord): ServingHit | undefined => {
    const document = documents.get(chunk.documentId);
    if (
      chunk.text === null ||
      document === undefined ||
      document.deletedAt !== null ||
      document.servingRevisionId !== chunk.revisionId
    )
      return undefined;
    const passage = chunk.parentId === null ? chunk : parents.get(chunk.parentId);
    if (passage === undefined || passage.text === null) return undefined;
    return { chunk, chunkText: chunk.text, passage, passageText: passage.text, document };
  };

  // Each leg becomes a ranking of distinct serving passages (several children of one parent count once, at
  // the best child), cut to its first topK: the rank window. With k = 60 and windows of at most 61, every
  // passage both legs found outranks every passage only one found, so deep windows would let passages
  // that both legs rank poorly bury a passage one leg ranks first.
  const bestChild = new Map<string, { hit: ServingHit; rank: number }>();
  const windows = lists.map((list) => {
    const window: string[] = [];
    for (const chunkId of list) {
      if (window.length >= topK) break;
      const chunk = chunks.get(chunkId);
      const hit = chunk === undefined ? undefined : servingHit(chunk);
      if (hit === undefined || window.includes(hit.passage.id)) continue;
      window.push(hit.passage.id);
      const best = bestChild.get(hit.passage.id);
      if (best === undefined || window.length < best.rank)
        bestChild.set(hit.passage.id, { hit, rank: window.length });
    }
    return window;
  });
  const fused = reciprocalRankFusion(windows.filter((window) => window.length > 0));

  const hits: SearchHit[] = [];
  for (const item of fused.slice(0, topK)) {
    const best = bestChild.get(item.id);
    if (best === undefined) continue;
    const { chunk, chunkText, passage, passageText, document } = best.hit;
    const kb = knowledgeBaseById.get(chunk.knowledgeBaseId);
    const span =
      passage !== chunk
        ? chunkText
        : kb === undefined
          ? null
          : bestSentence(passageText, request.query, kb.textSearchLanguage);
    hits.push({
      hitId: ids("hit"),
      knowledgeBaseId: chunk.knowledgeBaseId,
      documentId: chunk.documentId,
      documentVersionId: chunk.revisionId,
      documentName: document.name,
      chunkId: chunk.id,
      content: passageText,
      ...(span === null ? {} : { matchedSpan: span }),
      ...(passage.pageStart === null ? {} : { pageStart: passage.pageStart }),
      ...(passage.pageEnd === null ? {} : { pageEnd: passage.pageEnd }),
      headingPath: passage.headingPath,
      score: item.score,
    });
  }
  const failedCount = legs.filter((leg) => leg.failed).length;
  const degraded: Degraded | undefined =
    failedCount === 0 ? undefined : failedCount === legs.length ? "lexical_only" : "partial_lexical_only";
  return { query: request.query, hits, ...(degraded === undefined ? {} : { degraded }), denseFailures };
}
