/**
 * Documents of knowledge bases and their revisions (migration 5): uploads kept
 * as PENDING revisions with their bytes, listings, deletion, retries and the
 * status moves of ingestion. The lowest layer of `KnowledgeBaseStore`
 * (knowledge-bases.ts): it holds the connection, clock and id generator that the
 * chunk layer (kb-chunks.ts) and the knowledge-base layer share.
 */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import {
  type DocumentRecord,
  type KnowledgeBaseRecord,
  metadataMatches,
  type RevisionRecord,
  type RevisionSource,
  type RevisionStatus,
} from "@groundwork/kb";
import { json } from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { dropKeywordPacks } from "./kb-keyword-packs.js";
import {
  type DocumentRow,
  IN_PROGRESS,
  REVISION_COLUMNS,
  type RevisionRow,
  toDocument,
  toRevision,
} from "./kb-rows.js";
import { dropRevisionPack } from "./kb-vector-packs.js";
import { statementCache } from "./statement-cache.js";

/** Removes the index rows (vectors and keyword rows of every language) of the chunks of one revision. */
export function dropRevisionIndexRows(sql: (text: string) => Statement, revisionId: string): void {
  const seqs = sql("SELECT seq FROM kb_chunks WHERE revision_id = ? AND kind != 'parent'")
    .pluck()
    .all(revisionId) as number[];
  // Keyword rowids are seq * 64 + language index: one rowid range per chunk covers every language.
  const drop = sql("DELETE FROM kb_fts WHERE rowid >= ? AND rowid < ?");
  for (const seq of seqs) drop.run(seq * 64, seq * 64 + 64);
  sql("DELETE FROM kb_vectors WHERE revision_id = ?").run(revisionId);
  dropRevisionPack(sql, revisionId);
  dropKeywordPacks(sql, revisionId);
}

export interface AcceptedUpload {
  document: DocumentRecord;
  revision: RevisionRecord;
}

/** Documents and revisions of knowledge bases; see knowledge-bases.ts for the whole store. */
export class KbDocumentStore {
  protected readonly sql: (text: string) => Statement;

  constructor(
    protected readonly db: Database,
    protected readonly clock: Clock = systemClock,
    protected readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * Stores an upload as the next revision of the document named `filename`
   * (a new document on first sight), PENDING, with its bytes.
   */
  acceptUpload(input: {
    knowledgeBase: KnowledgeBaseRecord;
    filename: string;
    mime: string;
    bytes: Uint8Array;
    metadata: Record<string, unknown>;
    apiKeyId: string | null;
  }): AcceptedUpload {
    const now = this.clock.now();
    const kb = input.knowledgeBase;
    return this.db.transaction(() => {
      const existing = this.sql(
        "SELECT * FROM kb_documents WHERE knowledge_base_id = ? AND name = ? AND deleted_at IS NULL",
      ).get(kb.id, input.filename) as DocumentRow | undefined;
      const revisionId = this.ids("kbv");
      let documentId: string;
      let versionNo = 1;
      if (existing === undefined) {
        documentId = this.ids("kbd");
        this.sql(
          `INSERT INTO kb_documents (id, knowledge_base_id, organization_id, name, metadata, serving_revision_id,
             latest_revision_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        ).run(
          documentId,
          kb.id,
          kb.organizationId,
          input.filename,
          JSON.stringify(input.metadata),
          revisionId,
          now,
          now,
        );
      } else {
        documentId = existing.id;
        const { max } = this.sql("SELECT MAX(version_no) AS max FROM kb_revisions WHERE document_id = ?").get(
          documentId,
        ) as { max: number | null };
        versionNo = (max ?? 0) + 1;
        const metadata = { ...json<Record<string, unknown>>(existing.metadata), ...input.metadata };
        this.sql(
          "UPDATE kb_documents SET latest_revision_id = ?, metadata = ?, updated_at = ? WHERE id = ?",
        ).run(revisionId, JSON.stringify(metadata), now, documentId);
      }
      this.sql(
        `INSERT INTO kb_revisions (id, document_id, knowledge_base_id, organization_id, version_no, status, mime,
           byte_size, error, api_key_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'PENDING', ?, ?, NULL, ?, ?, ?)`,
      ).run(
        revisionId,
        documentId,
        kb.id,
        kb.organizationId,
        versionNo,
        input.mime,
        input.bytes.byteLength,
        input.apiKeyId,
        now,
        now,
      );
      this.sql(
        "INSERT INTO kb_revision_sources (revision_id, filename, mime, content) VALUES (?, ?, ?, ?)",
      ).run(
        revisionId,
        input.filename,
        input.mime,
        Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength),
      );
      return {
        document: this.mustGetDocument(documentId),
        revision: this.getRevision(revisionId) as RevisionRecord,
      };
    })();
  }

  setRevisionJob(revisionId: string, jobId: string): void {
    this.sql("UPDATE kb_revisions SET job_id = ? WHERE id = ?").run(jobId, revisionId);
  }

  revisionJobId(revisionId: string): string | null {
    const row = this.sql("SELECT job_id FROM kb_revisions WHERE id = ?").get(revisionId) as
      | { job_id: string | null }
      | undefined;
    return row?.job_id ?? null;
  }

  /** Live documents, newest first; `status` filters on the latest revision's status. */
  listDocuments(
    knowledgeBaseId: string,
    page: PageRequest,
    status?: RevisionStatus,
  ): { items: DocumentRecord[]; total: number } {
    const where = `d.knowledge_base_id = @kb AND d.deleted_at IS NULL${
      status === undefined ? "" : " AND r.status = @status"
    }`;
    const params = {
      kb: knowledgeBaseId,
      status: status ?? null,
      limit: page.size,
      offset: pageOffset(page),
    };
    const rows = this.sql(
      `SELECT d.* FROM kb_documents d JOIN kb_revisions r ON r.id = d.latest_revision_id WHERE ${where}
       ORDER BY d.created_at DESC, d.id DESC LIMIT @limit OFFSET @offset`,
    ).all(params) as DocumentRow[];
    const { total } = this.sql(
      `SELECT COUNT(*) AS total FROM kb_documents d JOIN kb_revisions r ON r.id = d.latest_revision_id WHERE ${where}`,
    ).get(params) as { total: number };
    return { items: rows.map(toDocument), total };
  }

  /** A live document of the knowledge base. */
  documentIn(knowledgeBaseId: string, documentId: string): DocumentRecord | null {
    const row = this.sql(
      "SELECT * FROM kb_documents WHERE knowledge_base_id = ? AND id = ? AND deleted_at IS NULL",
    ).get(knowledgeBaseId, documentId) as DocumentRow | undefined;
    return row === undefined ? null : toDocument(row);
  }

  revisionOf(documentId: string, revisionId: string): RevisionRecord | null {
    const row = this.sql(`SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE document_id = ? AND id = ?`).get(
      documentId,
      revisionId,
    ) as RevisionRow | undefined;
    return row === undefined ? null : toRevision(row);
  }

  revisionsOf(documentIds: readonly string[]): RevisionRecord[] {
    if (documentIds.length === 0) return [];
    const rows = this.sql(
      `SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE document_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(documentIds)) as RevisionRow[];
    return rows.map(toRevision);
  }

  /**
   * Deletes a document: out of retrieval at once, its text withdrawn from the
   * chunks (citations keep ids, pages and headings), its uploads dropped.
   */
  deleteDocument(knowledgeBaseId: string, documentId: string): boolean {
    return this.db.transaction(() => {
      const now = this.clock.now();
      const changed =
        this.sql(
          "UPDATE kb_documents SET deleted_at = ?, updated_at = ? WHERE knowledge_base_id = ? AND id = ? AND deleted_at IS NULL",
        ).run(now, now, knowledgeBaseId, documentId).changes > 0;
      if (!changed) return false;
      const revisions = this.sql("SELECT id FROM kb_revisions WHERE document_id = ?").all(
        documentId,
      ) as Array<{
        id: string;
      }>;
      for (const { id } of revisions) dropRevisionIndexRows(this.sql, id);
      this.sql("UPDATE kb_chunks SET text = NULL, active = 0 WHERE document_id = ?").run(documentId);
      this.sql(
        "DELETE FROM kb_revision_sources WHERE revision_id IN (SELECT id FROM kb_revisions WHERE document_id = ?)",
      ).run(documentId);
      this.sql(
        `UPDATE kb_revisions SET status = 'ERROR', error = 'The document was deleted', updated_at = ?
         WHERE document_id = ? AND status IN ${IN_PROGRESS}`,
      ).run(now, documentId);
      this.bumpGeneration(knowledgeBaseId);
      return true;
    })();
  }

  /** ERROR → PENDING, from the start: the revision's partial chunks and index rows are dropped. */
  resetForRetry(revisionId: string): boolean {
    return this.db.transaction(() => {
      const changed =
        this.sql(
          "UPDATE kb_revisions SET status = 'PENDING', error = NULL, updated_at = ? WHERE id = ? AND status = 'ERROR'",
        ).run(this.clock.now(), revisionId).changes > 0;
      if (!changed) return false;
      dropRevisionIndexRows(this.sql, revisionId);
      this.sql("DELETE FROM kb_chunks WHERE revision_id = ?").run(revisionId);
      return true;
    })();
  }

  hasSource(revisionId: string): boolean {
    return this.sql("SELECT 1 FROM kb_revision_sources WHERE revision_id = ?").get(revisionId) !== undefined;
  }

  /** Revisions still in progress (for the worker's start-up check). */
  inProgressRevisions(): RevisionRecord[] {
    const rows = this.sql(
      `SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE status IN ${IN_PROGRESS}`,
    ).all() as RevisionRow[];
    return rows.map(toRevision);
  }

  // ---- KnowledgeStore (the engine's port): documents and revisions ----

  getRevision(id: string): RevisionRecord | null {
    const row = this.sql(`SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE id = ?`).get(id) as
      | RevisionRow
      | undefined;
    return row === undefined ? null : toRevision(row);
  }

  getDocument(id: string): DocumentRecord | null {
    const row = this.sql("SELECT * FROM kb_documents WHERE id = ?").get(id) as DocumentRow | undefined;
    return row === undefined ? null : toDocument(row);
  }

  setRevisionStatus(id: string, status: RevisionStatus, error: string | null = null): boolean {
    return (
      this.sql(
        `UPDATE kb_revisions SET status = ?, error = ?, updated_at = ? WHERE id = ? AND status IN ${IN_PROGRESS}`,
      ).run(status, status === "ERROR" ? error : null, this.clock.now(), id).changes > 0
    );
  }

  loadSource(revisionId: string): RevisionSource | null {
    const row = this.sql("SELECT filename, mime, content FROM kb_revision_sources WHERE revision_id = ?").get(
      revisionId,
    ) as { filename: string; mime: string; content: Buffer } | undefined;
    if (row === undefined) return null;
    return { filename: row.filename, mime: row.mime, bytes: new Uint8Array(row.content) };
  }

  mergeDocumentMetadata(documentId: string, metadata: Record<string, unknown>): void {
    const document = this.getDocument(documentId);
    if (document === null) return;
    // Metadata sent with the upload wins over what the converter found.
    const merged = { ...metadata, ...document.metadata };
    this.sql("UPDATE kb_documents SET metadata = ? WHERE id = ?").run(JSON.stringify(merged), documentId);
  }

  documentsById(ids: readonly string[]): DocumentRecord[] {
    if (ids.length === 0) return [];
    const rows = this.sql("SELECT * FROM kb_documents WHERE id IN (SELECT value FROM json_each(?))").all(
      JSON.stringify(ids),
    ) as DocumentRow[];
    return rows.map(toDocument);
  }

  documentsMatching(knowledgeBaseId: string, filter: Record<string, unknown>): string[] {
    const rows = this.sql(
      "SELECT id, metadata FROM kb_documents WHERE knowledge_base_id = ? AND deleted_at IS NULL",
    ).all(knowledgeBaseId) as Array<{ id: string; metadata: string }>;
    return rows
      .filter((row) => metadataMatches(JSON.parse(row.metadata) as Record<string, unknown>, filter))
      .map((row) => row.id);
  }

  // ---- internals ----

  /** Moves the knowledge base's index generation: its vector index patches or rebuilds its columns. */
  protected bumpGeneration(id: string): void {
    this.sql("UPDATE knowledge_bases SET index_generation = index_generation + 1 WHERE id = ?").run(id);
  }

  private mustGetDocument(id: string): DocumentRecord {
    const record = this.getDocument(id);
    if (record === null) throw new Error(`Document ${id} vanished after insert`);
    return record;
  }
}

/** Kept importable from here: the filter moved to the kb engine, shared with the PostgreSQL store. */
export { metadataMatches };
