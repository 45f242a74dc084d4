/**
 * The rows of the knowledge-base tables (migration 5): types and mappers are shared with the
 * PostgreSQL store (store-rows' knowledge-bases.ts); the column lists are this store's.
 */
export {
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
  "id, document_id, knowledge_base_id, organization_id, version_no, status, mime, byte_size, error, api_key_id, job_id, created_at, updated_at";
export const CHUNK_COLUMNS =
  "seq, id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text, page_start, page_end, heading_path, text_start, text_end";
