/**
 * Knowledge bases, their configuration versions, documents, revisions and
 * chunks (migration 5). Implements the engine's `KnowledgeStore` port; the
 * indexes (kb-vector-index.ts, kb-keyword-index.ts) share the same tables.
 */
import {
  type Clock,
  conflict,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import type {
  ChunkRecord,
  DocumentRecord,
  KnowledgeBaseConfig,
  KnowledgeBaseRecord,
  KnowledgeStore,
  NewChunk,
  RevisionRecord,
  RevisionSource,
  RevisionStatus,
  TextSearchLanguage,
} from "@groundwork/kb";
import { TEXT_SEARCH_LANGUAGES } from "@groundwork/kb";
import type { Database, Statement } from "better-sqlite3";
import { dropKeywordRows } from "./kb-keyword-index.js";
import { statementCache } from "./statement-cache.js";

interface KbRow {
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
  hybrid_search_enabled: number;
  reranker_provider_id: string | null;
  text_search_language: string;
  pending_text_search_language: string | null;
  config_version: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

function toKb(row: KbRow): KnowledgeBaseRecord {
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
    hybridSearchEnabled: row.hybrid_search_enabled === 1,
    rerankerProviderId: row.reranker_provider_id,
    textSearchLanguage: row.text_search_language as TextSearchLanguage,
    pendingTextSearchLanguage: row.pending_text_search_language as TextSearchLanguage | null,
    configVersion: row.config_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

interface DocumentRow {
  id: string;
  knowledge_base_id: string;
  organization_id: string;
  name: string;
  metadata: string;
  serving_revision_id: string | null;
  latest_revision_id: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledge_base_id,
    organizationId: row.organization_id,
    name: row.name,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    servingRevisionId: row.serving_revision_id,
    latestRevisionId: row.latest_revision_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

interface RevisionRow {
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
  job_id: string | null;
  created_at: number;
  updated_at: number;
}

function toRevision(row: RevisionRow): RevisionRecord {
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

interface ChunkRow {
  seq: number;
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
  heading_path: string;
}

function toChunk(row: ChunkRow): ChunkRecord {
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
    headingPath: JSON.parse(row.heading_path) as string[],
  };
}

const REVISION_COLUMNS =
  "id, document_id, knowledge_base_id, organization_id, version_no, status, mime, byte_size, error, api_key_id, job_id, created_at, updated_at";
const CHUNK_COLUMNS =
  "seq, id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text, page_start, page_end, heading_path";
const IN_PROGRESS = "('PENDING', 'PARSING', 'CHUNKING', 'EMBEDDING')";

/** Removes the index rows (vectors and keyword rows of every language) of the chunks of one revision. */
export function dropRevisionIndexRows(sql: (text: string) => Statement, revisionId: string): void {
  const seqs = sql("SELECT seq FROM kb_chunks WHERE revision_id = ? AND kind != 'parent'")
    .pluck()
    .all(revisionId) as number[];
  // Keyword rowids are seq * 64 + language index: one rowid range per chunk covers every language.
  const drop = sql("DELETE FROM kb_fts WHERE rowid >= ? AND rowid < ?");
  for (const seq of seqs) drop.run(seq * 64, seq * 64 + 64);
  sql("DELETE FROM kb_vectors WHERE revision_id = ?").run(revisionId);
}

export interface AcceptedUpload {
  document: DocumentRecord;
  revision: RevisionRecord;
}

export class KnowledgeBaseStore implements KnowledgeStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  // ---- knowledge bases ----

  create(organizationId: string, config: KnowledgeBaseConfig): KnowledgeBaseRecord {
    const id = this.ids("kb");
    const now = this.clock.now();
    try {
      this.db.transaction(() => {
        this.sql(
          `INSERT INTO knowledge_bases (id, organization_id, name, slug, description, embedding_provider_id,
             embedding_model, embedding_dim, chunking_strategy, chunk_size, chunk_overlap, parent_chunk_size,
             hybrid_search_enabled, reranker_provider_id, text_search_language, config_version, created_at, updated_at)
           VALUES (@id, @organizationId, @name, @slug, @description, @embeddingProviderId, @embeddingModel,
             @embeddingDim, @chunkingStrategy, @chunkSize, @chunkOverlap, @parentChunkSize, @hybrid,
             @rerankerProviderId, @textSearchLanguage, 1, @now, @now)`,
        ).run({ ...config, id, organizationId, hybrid: config.hybridSearchEnabled ? 1 : 0, now });
        this.snapshot(id, 1, config, now);
      })();
    } catch (error) {
      throw this.slugConflict(error, config.slug);
    }
    return this.mustGet(id);
  }

  /** A live knowledge base of the organization. */
  get(organizationId: string, id: string): KnowledgeBaseRecord | null {
    const row = this.sql(
      "SELECT * FROM knowledge_bases WHERE organization_id = ? AND id = ? AND deleted_at IS NULL",
    ).get(organizationId, id) as KbRow | undefined;
    return row === undefined ? null : toKb(row);
  }

  /** Newest first. */
  list(organizationId: string, page: PageRequest): { items: KnowledgeBaseRecord[]; total: number } {
    const rows = this.sql(
      `SELECT * FROM knowledge_bases WHERE organization_id = ? AND deleted_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(organizationId, page.size, pageOffset(page)) as KbRow[];
    const { total } = this.sql(
      "SELECT COUNT(*) AS total FROM knowledge_bases WHERE organization_id = ? AND deleted_at IS NULL",
    ).get(organizationId) as { total: number };
    return { items: rows.map(toKb), total };
  }

  /**
   * Replaces the configuration and snapshots it as the next version. The
   * language fields are set by the caller's decision: `textSearchLanguage` stays
   * the active one; `pendingTextSearchLanguage` is the reindex target or null.
   */
  update(
    organizationId: string,
    id: string,
    config: KnowledgeBaseConfig,
    pendingTextSearchLanguage: TextSearchLanguage | null,
  ): KnowledgeBaseRecord | null {
    const now = this.clock.now();
    try {
      const updated = this.db.transaction(() => {
        const current = this.get(organizationId, id);
        if (current === null) return false;
        const version = current.configVersion + 1;
        this.sql(
          `UPDATE knowledge_bases SET name = @name, slug = @slug, description = @description,
             embedding_provider_id = @embeddingProviderId, embedding_model = @embeddingModel,
             chunking_strategy = @chunkingStrategy, chunk_size = @chunkSize, chunk_overlap = @chunkOverlap,
             parent_chunk_size = @parentChunkSize, hybrid_search_enabled = @hybrid,
             reranker_provider_id = @rerankerProviderId, pending_text_search_language = @pending,
             config_version = @version, updated_at = @now
           WHERE id = @id`,
        ).run({
          ...config,
          id,
          hybrid: config.hybridSearchEnabled ? 1 : 0,
          pending: pendingTextSearchLanguage,
          version,
          now,
        });
        // A pending language that was dropped (cancel or replaced target) leaves no rows behind.
        if (
          current.pendingTextSearchLanguage !== null &&
          current.pendingTextSearchLanguage !== pendingTextSearchLanguage
        ) {
          this.dropLanguageRows(id, current.pendingTextSearchLanguage);
        }
        this.snapshot(
          id,
          version,
          { ...config, textSearchLanguage: pendingTextSearchLanguage ?? config.textSearchLanguage },
          now,
        );
        return true;
      })();
      return updated ? this.get(organizationId, id) : null;
    } catch (error) {
      throw this.slugConflict(error, config.slug);
    }
  }

  configVersions(id: string): Array<{ versionNo: number; config: KnowledgeBaseConfig; createdAt: number }> {
    const rows = this.sql(
      "SELECT version_no, config, created_at FROM kb_config_versions WHERE knowledge_base_id = ? ORDER BY version_no",
    ).all(id) as Array<{ version_no: number; config: string; created_at: number }>;
    return rows.map((row) => ({
      versionNo: row.version_no,
      config: JSON.parse(row.config) as KnowledgeBaseConfig,
      createdAt: row.created_at,
    }));
  }

  /** Soft delete: the slug is released, configuration versions and documents stay; index rows go. */
  softDelete(organizationId: string, id: string): boolean {
    return this.db.transaction(() => {
      const now = this.clock.now();
      const changed =
        this.sql(
          "UPDATE knowledge_bases SET deleted_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND deleted_at IS NULL",
        ).run(now, now, organizationId, id).changes > 0;
      if (!changed) return false;
      for (const language of TEXT_SEARCH_LANGUAGES) dropKeywordRows(this.sql, id, language);
      this.sql("DELETE FROM kb_vectors WHERE knowledge_base_id = ?").run(id);
      this.sql(
        `UPDATE kb_revisions SET status = 'ERROR', error = 'The knowledge base was deleted', updated_at = ?
         WHERE knowledge_base_id = ? AND status IN ${IN_PROGRESS}`,
      ).run(now, id);
      this.bumpGeneration(id);
      return true;
    })();
  }

  // ---- documents and revisions ----

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
        const metadata = { ...(JSON.parse(existing.metadata) as Record<string, unknown>), ...input.metadata };
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

  // ---- KnowledgeStore (the engine's port) ----

  getKnowledgeBase(id: string): KnowledgeBaseRecord | null {
    const row = this.sql("SELECT * FROM knowledge_bases WHERE id = ?").get(id) as KbRow | undefined;
    return row === undefined ? null : toKb(row);
  }

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

  replaceChunks(revisionId: string, chunks: readonly NewChunk[]): ChunkRecord[] {
    const revision = this.getRevision(revisionId);
    if (revision === null) return [];
    this.db.transaction(() => {
      dropRevisionIndexRows(this.sql, revisionId);
      this.sql("DELETE FROM kb_chunks WHERE revision_id = ?").run(revisionId);
      const insert = this.sql(
        `INSERT INTO kb_chunks (id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text,
           token_count, page_start, page_end, heading_path, active)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      );
      const idsByPosition = new Map<number, string>();
      for (const chunk of chunks) {
        const id = this.ids("chk");
        idsByPosition.set(chunk.position, id);
        insert.run(
          id,
          revision.knowledgeBaseId,
          revision.documentId,
          revisionId,
          chunk.kind,
          chunk.parentPosition === null ? null : (idsByPosition.get(chunk.parentPosition) ?? null),
          chunk.position,
          chunk.text,
          chunk.tokenCount,
          chunk.pageStart,
          chunk.pageEnd,
          JSON.stringify(chunk.headingPath),
        );
      }
    })();
    return this.revisionChunks(revisionId);
  }

  revisionChunks(revisionId: string): ChunkRecord[] {
    const rows = this.sql(
      `SELECT ${CHUNK_COLUMNS} FROM kb_chunks WHERE revision_id = ? ORDER BY position`,
    ).all(revisionId) as ChunkRow[];
    return rows.map(toChunk);
  }

  indexedChunks(revisionId: string): ChunkRecord[] {
    return this.revisionChunks(revisionId).filter((chunk) => chunk.kind !== "parent");
  }

  activateRevision(revisionId: string): boolean {
    return this.db.transaction(() => {
      const revision = this.getRevision(revisionId);
      if (revision === null) return false;
      const document = this.getDocument(revision.documentId);
      if (document === null || document.deletedAt !== null) return false;
      const now = this.clock.now();
      const moved =
        this.sql(
          `UPDATE kb_revisions SET status = 'READY', error = NULL, updated_at = ? WHERE id = ? AND status IN ${IN_PROGRESS}`,
        ).run(now, revisionId).changes > 0;
      if (!moved) return false;
      const previous = document.servingRevisionId;
      // Only a newer revision takes over: a retried old one never replaces a newer serving revision.
      const current = previous === null ? null : (this.getRevision(previous)?.versionNo ?? 0);
      if (current !== null && current > revision.versionNo) {
        dropRevisionIndexRows(this.sql, revisionId);
      } else {
        if (previous !== null) {
          this.sql("UPDATE kb_chunks SET active = 0 WHERE revision_id = ?").run(previous);
          dropRevisionIndexRows(this.sql, previous);
        }
        this.sql("UPDATE kb_chunks SET active = 1 WHERE revision_id = ?").run(revisionId);
        this.sql("UPDATE kb_documents SET serving_revision_id = ?, updated_at = ? WHERE id = ?").run(
          revisionId,
          now,
          document.id,
        );
        this.bumpGeneration(revision.knowledgeBaseId);
      }
      this.sql("DELETE FROM kb_revision_sources WHERE revision_id = ?").run(revisionId);
      return true;
    })();
  }

  chunksById(knowledgeBaseId: string, ids: readonly string[]): ChunkRecord[] {
    if (ids.length === 0) return [];
    // `+` keeps the planner on the id index: the knowledge-base index would scan every chunk.
    const rows = this.sql(
      `SELECT ${CHUNK_COLUMNS} FROM kb_chunks WHERE +knowledge_base_id = ? AND id IN (SELECT value FROM json_each(?))`,
    ).all(knowledgeBaseId, JSON.stringify(ids)) as ChunkRow[];
    return rows.map(toChunk);
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

  private snapshot(id: string, version: number, config: KnowledgeBaseConfig, now: number): void {
    const stored: KnowledgeBaseConfig = {
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
    this.sql(
      "INSERT INTO kb_config_versions (knowledge_base_id, version_no, config, created_at) VALUES (?, ?, ?, ?)",
    ).run(id, version, JSON.stringify(stored), now);
  }

  private dropLanguageRows(id: string, language: string): void {
    dropKeywordRows(this.sql, id, language as TextSearchLanguage);
  }

  private bumpGeneration(id: string): void {
    this.sql("UPDATE knowledge_bases SET index_generation = index_generation + 1 WHERE id = ?").run(id);
  }

  private slugConflict(error: unknown, slug: string): unknown {
    if (
      error instanceof Error &&
      "code" in error &&
      error.code === "SQLITE_CONSTRAINT_UNIQUE" &&
      error.message.includes("knowledge_bases")
    ) {
      return conflict(`The slug "${slug}" is already used by another knowledge base of the organization`, {
        param: "slug",
        code: "slug_conflict",
      });
    }
    return error;
  }

  private mustGet(id: string): KnowledgeBaseRecord {
    const record = this.getKnowledgeBase(id);
    if (record === null) throw new Error(`Knowledge base ${id} vanished after insert`);
    return record;
  }

  private mustGetDocument(id: string): DocumentRecord {
    const record = this.getDocument(id);
    if (record === null) throw new Error(`Document ${id} vanished after insert`);
    return record;
  }
}

/**
 * Metadata filter: every key must match. A scalar matches an equal value or an
 * array value that contains it; an array in the filter matches when any of its
 * values does.
 */
export function metadataMatches(metadata: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, wanted]) => {
    const actual = metadata[key];
    const options = Array.isArray(wanted) ? wanted : [wanted];
    return options.some((option) => (Array.isArray(actual) ? actual.includes(option) : actual === option));
  });
}
