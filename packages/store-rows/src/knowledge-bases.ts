/**
 * The rows of the knowledge-base tables and the kb engine records they map to, for both stores:
 * BIGINT as numbers or strings, flags as 0/1 or booleans, metadata and heading paths as JSON text
 * (SQLite) or JSONB (PostgreSQL). Each store keeps its own column lists (the SQLite tables carry a
 * revision's `job_id` and a chunk's `seq`, the PostgreSQL ones do not).
 */
import type {
  ChunkRecord,
  DocumentRecord,
  KnowledgeBaseConfig,
  KnowledgeBaseRecord,
  RevisionRecord,
  RevisionStatus,
  TextSearchLanguage,
} from "@groundwork/kb";
import { bool, int, intOrNull, json } from "./columns.js";

type BigIntColumn = number | string | bigint;

export interface KbRow {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  description: string | null;
  embedding_provider_id: string;
  embedding_model: string;
  embedding_dim: number;
  chunking_strategy: string;
  chunk_size: number;
  chunk_overlap: number;
  parent_chunk_size: number;
  hybrid_search_enabled: number | boolean;
  reranker_provider_id: string | null;
  text_search_language: string;
  pending_text_search_language: string | null;
  config_version: number;
  created_at: BigIntColumn;
  updated_at: BigIntColumn;
  deleted_at: BigIntColumn | null;
}

export function toKb(row: KbRow): KnowledgeBaseRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    embeddingProviderId: row.embedding_provider_id,
    embeddingModel: row.embedding_model,
    embeddingDim: row.embedding_dim,
    chunkingStrategy: row.chunking_strategy as KnowledgeBaseRecord["chunkingStrategy"],
    chunkSize: row.chunk_size,
    chunkOverlap: row.chunk_overlap,
    parentChunkSize: row.parent_chunk_size,
    hybridSearchEnabled: bool(row.hybrid_search_enabled),
    rerankerProviderId: row.reranker_provider_id,
    textSearchLanguage: row.text_search_language as TextSearchLanguage,
    pendingTextSearchLanguage: row.pending_text_search_language as TextSearchLanguage | null,
    configVersion: row.config_version,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    deletedAt: intOrNull(row.deleted_at),
  };
}

/**
 * A configuration version as stored: exactly the configuration's fields, in this order. Both
 * stores write it through this and read it back through `toConfigVersion`, which rebuilds it in
 * the same order (PostgreSQL's JSONB does not keep the written key order).
 */
export function configSnapshot(config: KnowledgeBaseConfig): KnowledgeBaseConfig {
  return {
    name: config.name,
    slug: config.slug,
    description: config.description,
    embeddingProviderId: config.embeddingProviderId,
    embeddingModel: config.embeddingModel,
    embeddingDim: config.embeddingDim,
    chunkingStrategy: config.chunkingStrategy,
    chunkSize: config.chunkSize,
    chunkOverlap: config.chunkOverlap,
    parentChunkSize: config.parentChunkSize,
    hybridSearchEnabled: config.hybridSearchEnabled,
    rerankerProviderId: config.rerankerProviderId,
    textSearchLanguage: config.textSearchLanguage,
  };
}

export interface ConfigVersionRow {
  version_no: number;
  /** JSON text on SQLite, JSONB (an object) on PostgreSQL. */
  config: string | KnowledgeBaseConfig;
  created_at: BigIntColumn;
}

export interface ConfigVersion {
  versionNo: number;
  config: KnowledgeBaseConfig;
  createdAt: number;
}

export function toConfigVersion(row: ConfigVersionRow): ConfigVersion {
  return {
    versionNo: row.version_no,
    config: configSnapshot(json<KnowledgeBaseConfig>(row.config)),
    createdAt: int(row.created_at),
  };
}

export interface DocumentRow {
  id: string;
  knowledge_base_id: string;
  organization_id: string;
  name: string;
  /** JSON text on SQLite, JSONB (an object) on PostgreSQL. */
  metadata: string | Record<string, unknown>;
  serving_revision_id: string | null;
  latest_revision_id: string;
  created_at: BigIntColumn;
  updated_at: BigIntColumn;
  deleted_at: BigIntColumn | null;
}

export function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledge_base_id,
    organizationId: row.organization_id,
    name: row.name,
    metadata: json<Record<string, unknown>>(row.metadata),
    servingRevisionId: row.serving_revision_id,
    latestRevisionId: row.latest_revision_id,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    deletedAt: intOrNull(row.deleted_at),
  };
}

export interface RevisionRow {
  id: string;
  document_id: string;
  knowledge_base_id: string;
  organization_id: string;
  version_no: number;
  status: RevisionStatus;
  mime: string;
  byte_size: number;
  error: string | null;
  api_key_id: string | null;
  /** SQLite only: the revision's job. */
  job_id?: string | null;
  created_at: BigIntColumn;
  updated_at: BigIntColumn;
}

export function toRevision(row: RevisionRow): RevisionRecord {
  return {
    id: row.id,
    documentId: row.document_id,
    knowledgeBaseId: row.knowledge_base_id,
    organizationId: row.organization_id,
    versionNo: row.version_no,
    status: row.status,
    mime: row.mime,
    byteSize: row.byte_size,
    error: row.error,
    apiKeyId: row.api_key_id,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export interface ChunkRow {
  /** SQLite only: the chunk's rowid in the index tables. */
  seq?: number;
  id: string;
  knowledge_base_id: string;
  document_id: string;
  revision_id: string;
  kind: ChunkRecord["kind"];
  parent_id: string | null;
  position: number;
  text: string | null;
  page_start: number | null;
  page_end: number | null;
  /** JSON text on SQLite, JSONB (an array) on PostgreSQL. */
  heading_path: string | string[];
  text_start: number | null;
  text_end: number | null;
}

export function toChunk(row: ChunkRow): ChunkRecord {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledge_base_id,
    documentId: row.document_id,
    revisionId: row.revision_id,
    kind: row.kind,
    parentId: row.parent_id,
    position: row.position,
    text: row.text,
    pageStart: row.page_start,
    pageEnd: row.page_end,
    headingPath: json<string[]>(row.heading_path),
    textStart: row.text_start,
    textEnd: row.text_end,
  };
}

/** Revision statuses of work still under way, as an SQL list. */
export const IN_PROGRESS = "('PENDING', 'PARSING', 'CHUNKING', 'EMBEDDING')";
