/**
 * What the knowledge-base engine needs from storage and models. store-sqlite
 * implements the storage ports (`KnowledgeStore`, `VectorIndex`, `KeywordIndex`);
 * the server bridges embeddings to the gateway and parsing to the converter.
 */
import type { EmbeddingModel, MaybePromise } from "@groundwork/core";
import type { KnowledgeBaseConfig } from "./config.js";
import type { SourceDocument } from "./source-document.js";
import type { TextSearchLanguage } from "./text-analysis.js";

export const REVISION_STATUSES = ["PENDING", "PARSING", "CHUNKING", "EMBEDDING", "READY", "ERROR"] as const;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];

export interface KnowledgeBaseRecord extends KnowledgeBaseConfig {
  id: string;
  organizationId: string;
  /** Target of a background reindex while one is pending. */
  pendingTextSearchLanguage: TextSearchLanguage | null;
  configVersion: number;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

/** A knowledge base by the vectors its served revisions hold (what warming at a start loads). */
export interface ServedKnowledgeBase {
  organizationId: string;
  id: string;
  chunks: number;
}

export interface DocumentRecord {
  id: string;
  knowledgeBaseId: string;
  organizationId: string;
  name: string;
  metadata: Record<string, unknown>;
  /** The READY revision retrieval serves; null until the first one is ready. */
  servingRevisionId: string | null;
  /** The newest accepted revision (its status is the document's ingestion state). */
  latestRevisionId: string;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

export interface RevisionRecord {
  id: string;
  documentId: string;
  knowledgeBaseId: string;
  organizationId: string;
  versionNo: number;
  status: RevisionStatus;
  mime: string;
  byteSize: number;
  error: string | null;
  /** The API key that uploaded it: background embedding calls are metered to it. */
  apiKeyId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ChunkRecord {
  id: string;
  knowledgeBaseId: string;
  documentId: string;
  revisionId: string;
  kind: "parent" | "child" | "fixed";
  parentId: string | null;
  position: number;
  /** Null once the document was deleted (text withdrawn). */
  text: string | null;
  pageStart: number | null;
  pageEnd: number | null;
  headingPath: string[];
  /** Code points into the revision's text (chunkers.ts); null for chunks stored before migration 24. */
  textStart?: number | null;
  textEnd?: number | null;
}

export interface NewChunk {
  kind: "parent" | "child" | "fixed";
  /** Position of the parent among the same batch, for children. */
  parentPosition: number | null;
  position: number;
  text: string;
  tokenCount: number;
  pageStart: number | null;
  pageEnd: number | null;
  headingPath: string[];
  textStart?: number;
  textEnd?: number;
}

export interface RevisionSource {
  bytes: Uint8Array;
  filename: string;
  mime: string;
}

/** Documents, revisions and chunks of knowledge bases. */
export interface KnowledgeStore {
  getKnowledgeBase(id: string): MaybePromise<KnowledgeBaseRecord | null>;
  getRevision(id: string): MaybePromise<RevisionRecord | null>;
  getDocument(id: string): MaybePromise<DocumentRecord | null>;
  /** Moves an in-progress revision; false when it is no longer in progress (deleted, finished). */
  setRevisionStatus(id: string, status: RevisionStatus, error?: string | null): MaybePromise<boolean>;
  loadSource(revisionId: string): MaybePromise<RevisionSource | null>;
  mergeDocumentMetadata(documentId: string, metadata: Record<string, unknown>): MaybePromise<void>;
  /** Replaces the revision's chunks (a restarted ingestion chunks again from scratch). */
  replaceChunks(revisionId: string, chunks: readonly NewChunk[]): MaybePromise<ChunkRecord[]>;
  /** Indexed chunks (children or fixed windows) of a revision, in position order. */
  indexedChunks(revisionId: string): MaybePromise<ChunkRecord[]>;
  /**
   * The atomic switch: the revision becomes READY and the one retrieval serves;
   * the previous serving revision leaves the indexes (its chunks keep their text
   * for citations). False when the revision or its document is gone.
   */
  activateRevision(revisionId: string): MaybePromise<boolean>;
  chunksById(knowledgeBaseId: string, ids: readonly string[]): MaybePromise<ChunkRecord[]>;
  documentsById(ids: readonly string[]): MaybePromise<DocumentRecord[]>;
  /** Ids of live documents whose metadata holds every key/value of the filter. */
  documentsMatching(knowledgeBaseId: string, filter: Record<string, unknown>): MaybePromise<string[]>;
}

export interface IndexHit {
  chunkId: string;
  /** Leg-specific: cosine similarity for vectors, −bm25 for keywords; only the order matters. */
  score: number;
}

export interface IndexQuery {
  knowledgeBaseId: string;
  k: number;
  /** Restricts hits to these documents (metadata filter); null means all. */
  documentIds: readonly string[] | null;
}

/** Dense vectors of indexed chunks; searches serve only chunks of serving revisions. */
export interface VectorIndex {
  /** Adds (or replaces) the vectors of chunks; they become searchable when their revision is activated. */
  upsert(
    knowledgeBaseId: string,
    entries: ReadonlyArray<{ chunkId: string; vector: Float32Array }>,
  ): MaybePromise<void>;
  /** Chunk ids of the revision that already have a vector (an interrupted ingestion resumes after them). */
  embeddedChunkIds(revisionId: string): MaybePromise<Set<string>>;
  search(query: IndexQuery & { vector: Float32Array }): MaybePromise<IndexHit[]>;
  /**
   * Loads what the knowledge base's searches hold in memory ahead of the first one (an index
   * searched in the database has nothing to load). Started before the keyword leg's `warm`, its
   * work may overlap it.
   */
  warm?(knowledgeBaseId: string): MaybePromise<void>;
}

/**
 * Keyword rows of indexed chunks, one set per text-search language: FTS5 over the engine's
 * terms (SQLite), or tsvectors the database analyses from the chunk text (PostgreSQL).
 */
export interface KeywordIndex {
  /** Adds the analyzed terms of chunks for one language. */
  add(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): MaybePromise<void>;
  search(
    query: IndexQuery & {
      language: TextSearchLanguage;
      terms: readonly string[];
      /**
       * The query as typed, for an index whose database analyses text itself (PostgreSQL's
       * text-search configurations); an index over the engine's terms ignores it.
       */
      text?: string;
    },
  ): MaybePromise<IndexHit[]>;
  /** Loads what the knowledge base's searches in `language` hold in memory ahead of the first one. */
  warm?(knowledgeBaseId: string, language: TextSearchLanguage): MaybePromise<void>;
}

/** Turns a stored upload into headings and text (the conversion engine, bridged by the server). */
export interface DocumentParser {
  parse(source: RevisionSource, options: { signal?: AbortSignal }): Promise<SourceDocument>;
}

/** The embedding model of a knowledge base (the gateway with the organization's principal). */
export type EmbedderFor = (
  knowledgeBase: KnowledgeBaseRecord,
  revision: RevisionRecord | null,
) => MaybePromise<EmbeddingModel>;
