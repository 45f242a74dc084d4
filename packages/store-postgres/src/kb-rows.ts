/**
 * The rows of the knowledge-base tables on PostgreSQL (kb-migrations.ts) and the engine records
 * they map to. BIGINT columns arrive as strings from node-postgres (and as numbers or bigints
 * from PGlite), so every one goes through `Number` (epoch ms and sequence numbers stay far
 * below 2^53).
 */
import type {
  ChunkRecord,
  DocumentRecord,
  KnowledgeBaseRecord,
  RevisionRecord,
  RevisionStatus,
  TextSearchLanguage,
} from "@groundwork/kb";

type BigIntColumn = string | number | bigint;

function num(value: BigIntColumn): number {
  return Number(value);
}

function numOrNull(value: BigIntColumn | null): number | null {
  return value === null ? null : Number(value);
}

/** A BYTEA value as a Buffer (node-postgres answers Buffers, PGlite Uint8Arrays). */
export function bytes(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

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
  hybrid_search_enabled: boolean;
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
    hybridSearchEnabled: row.hybrid_search_enabled,
    rerankerProviderId: row.reranker_provider_id,
    textSearchLanguage: row.text_search_language as TextSearchLanguage,
    pendingTextSearchLanguage: row.pending_text_search_language as TextSearchLanguage | null,
    configVersion: row.config_version,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    deletedAt: numOrNull(row.deleted_at),
  };
}

export interface DocumentRow {
  id: string;
  knowledge_base_id: string;
  organization_id: string;
  name: string;
  metadata: Record<string, unknown>;
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
    metadata: row.metadata,
    servingRevisionId: row.serving_revision_id,
    latestRevisionId: row.latest_revision_id,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    deletedAt: numOrNull(row.deleted_at),
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
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

export interface ChunkRow {
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
  heading_path: string[];
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
    headingPath: row.heading_path,
    textStart: row.text_start,
    textEnd: row.text_end,
  };
}

export const REVISION_COLUMNS =
  "id, document_id, knowledge_base_id, organization_id, version_no, status, mime, byte_size, error, api_key_id, created_at, updated_at";
export const CHUNK_COLUMNS =
  "id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text, page_start, page_end, heading_path, text_start, text_end";
export const IN_PROGRESS = "('PENDING', 'PARSING', 'CHUNKING', 'EMBEDDING')";
