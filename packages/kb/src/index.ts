export { type ChunkDraft, chunkDocument, chunkFixed, chunkHierarchical } from "./chunkers.js";
export { type ResolvedCitation, resolveCitation } from "./citations.js";
export {
  BUILTIN_PROVIDER_ID,
  CHUNKING_STRATEGIES,
  type ChunkingSettings,
  type ChunkingStrategy,
  checkChunking,
  checkReranker,
  checkTextSearchLanguage,
  clampTopK,
  type KnowledgeBaseConfig,
  LIMITS,
  PROVISIONED_EMBEDDING_DIM,
  RRF_K,
  SLUG_PATTERN,
} from "./config.js";
export { errorMessage, isEmbeddingRefusal, searchMustAnswerRefusal } from "./embedding-errors.js";
export { Ingestion, type IngestionDeps, type IngestionOutcome, type IngestionRun } from "./ingestion.js";
export {
  type ColumnSource,
  int8Code,
  scanCandidates,
  type VectorCache,
  VectorRows,
} from "./int8-scan.js";
export { KeywordPostings, keywordTokens } from "./keyword-postings.js";
export {
  bm25Idf,
  bm25Term,
  type KeywordHit,
  type KeywordTopKOptions,
  keywordPhrases,
  keywordTopK,
} from "./keyword-top-k.js";
export { bestSentence } from "./matched-span.js";
export { metadataMatches } from "./metadata-filter.js";
export {
  type ChunkRecord,
  type DocumentParser,
  type DocumentRecord,
  type EmbedderFor,
  type IndexHit,
  type IndexQuery,
  type KeywordIndex,
  type KnowledgeBaseRecord,
  type KnowledgeStore,
  type NewChunk,
  REVISION_STATUSES,
  type RevisionRecord,
  type RevisionSource,
  type RevisionStatus,
  type ServedKnowledgeBase,
  type VectorIndex,
} from "./ports.js";
export { type ReindexOutcome, type ReindexStore, runReindex } from "./reindex.js";
export { type FusedItem, reciprocalRankFusion } from "./rrf.js";
export {
  type Degraded,
  type SearchDeps,
  type SearchHit,
  type SearchRequest,
  type SearchResult,
  searchKnowledgeBases,
} from "./search.js";
export type { SourceBlock, SourceDocument } from "./source-document.js";
export {
  analyze,
  indexTerms,
  isTextSearchLanguage,
  queryTerms,
  TEXT_SEARCH_LANGUAGES,
  type TextSearchLanguage,
} from "./text-analysis.js";
export { type PackParts, packRows, readPackLayout } from "./vector-pack.js";
