/**
 * What a knowledge base serves, as the in-memory indexes (kb-vector-index.ts, kb-keyword-index.ts)
 * and the pack reader thread (kb-pack-reader-worker.ts) read it: its index generation, its served
 * revisions, and the count and width of their vectors.
 */
import type { Statement } from "better-sqlite3";

type Sql = (text: string) => Statement;

/** The knowledge base's `index_generation` (−1 when it does not exist): it moves with every change to the served set. */
export function indexGeneration(sql: Sql, knowledgeBaseId: string): number {
  return (
    (sql("SELECT index_generation FROM knowledge_bases WHERE id = ?").pluck().get(knowledgeBaseId) as
      | number
      | undefined) ?? -1
  );
}

/** Served revision → its document, for the knowledge base's live documents. */
export function servedRevisions(sql: Sql, knowledgeBaseId: string): Array<[string, string]> {
  return sql(
    `SELECT serving_revision_id, id FROM kb_documents
     WHERE knowledge_base_id = ? AND deleted_at IS NULL AND serving_revision_id IS NOT NULL`,
  )
    .raw(true)
    .all(knowledgeBaseId) as Array<[string, string]>;
}

/** Vectors of the knowledge base's served chunks (a chunk is active exactly while its revision is served). */
export function servedVectorCount(sql: Sql, knowledgeBaseId: string): number {
  return sql(
    `SELECT COUNT(*) FROM kb_documents d JOIN kb_vectors v ON v.revision_id = d.serving_revision_id
     WHERE d.knowledge_base_id = ? AND d.deleted_at IS NULL`,
  )
    .pluck()
    .get(knowledgeBaseId) as number;
}

/** The width of one served vector (the int8 code minus its header), or null when none is served. */
export function servedVectorWidth(sql: Sql, knowledgeBaseId: string): number | null {
  return (
    (sql(
      `SELECT length(v.code) - 8 FROM kb_documents d JOIN kb_vectors v ON v.revision_id = d.serving_revision_id
       WHERE d.knowledge_base_id = ? AND d.deleted_at IS NULL LIMIT 1`,
    )
      .pluck()
      .get(knowledgeBaseId) as number | undefined) ?? null
  );
}
