/**
 * The rows of the knowledge-base tables on PostgreSQL (kb-migrations.ts): types and mappers are
 * shared with the SQLite store (store-rows' knowledge-bases.ts, which reads BIGINT strings,
 * booleans and JSONB as well); the column lists are this store's.
 */
export {
  bytes,
  type ChunkRow,
  type DocumentRow,
  IN_PROGRESS,
  type KbRow,
  type RevisionRow,
  toChunk,
  toDocument,
  toKb,
  toRevision,
} from "@groundwork/store-rows";

export const REVISION_COLUMNS =
  "id, document_id, knowledge_base_id, organization_id, version_no, status, mime, byte_size, error, api_key_id, created_at, updated_at";
export const CHUNK_COLUMNS =
  "id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text, page_start, page_end, heading_path, text_start, text_end";
