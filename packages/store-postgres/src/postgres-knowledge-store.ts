/**
 * Knowledge bases, documents, revisions and chunks on PostgreSQL: the kb engine's
 * `KnowledgeStore` port and the writes and reads that feed it and the platform (knowledge bases
 * and their configuration versions, an upload as a PENDING revision with its bytes, listings,
 * deletion, retries), with the method names and meanings of store-sqlite's `KnowledgeBaseStore`,
 * asynchronous. Multi-step writes run in one transaction (a savepoint inside a unit of work,
 * PG14); the rows a concurrent writer could race on are locked (`FOR UPDATE`) first.
 */
import { conflict, type PageRequest, pageOffset } from "@groundwork/core";
import {
  type ChunkRecord,
  type DocumentRecord,
  type KnowledgeBaseConfig,
  type KnowledgeBaseRecord,
  type KnowledgeStore,
  metadataMatches,
  type NewChunk,
  type RevisionRecord,
  type RevisionSource,
  type RevisionStatus,
  type ServedKnowledgeBase,
  type TextSearchLanguage,
} from "@groundwork/kb";
import {
  type ConfigVersion,
  type ConfigVersionRow,
  configSnapshot,
  toConfigVersion,
} from "@groundwork/store-rows";
import {
  bytes,
  CHUNK_COLUMNS,
  type ChunkRow,
  type DocumentRow,
  IN_PROGRESS,
  type KbRow,
  REVISION_COLUMNS,
  type RevisionRow,
  toChunk,
  toDocument,
  toKb,
  toRevision,
} from "./kb-rows.js";
import { PostgresFamily } from "./postgres-family.js";
import { dropKeywordRows } from "./postgres-keyword-index.js";
import type { SqlQueryable } from "./sql-client.js";

export interface AcceptedUpload {
  document: DocumentRecord;
  revision: RevisionRecord;
}

/** Removes the index rows (keyword rows of every language, vectors) of one revision's chunks. */
async function dropRevisionIndexRows(sql: SqlQueryable, revisionId: string): Promise<void> {
  await sql.query("DELETE FROM kb_keywords WHERE revision_id = $1", [revisionId]);
  await sql.query("DELETE FROM kb_vectors WHERE revision_id = $1", [revisionId]);
}

/** Moves the knowledge base's index generation: vector indexes patch or rebuild their columns. */
async function bumpGeneration(sql: SqlQueryable, knowledgeBaseId: string): Promise<void> {
  await sql.query("UPDATE knowledge_bases SET index_generation = index_generation + 1 WHERE id = $1", [
    knowledgeBaseId,
  ]);
}

async function one<Row>(
  sql: SqlQueryable,
  text: string,
  params: readonly unknown[],
): Promise<Row | undefined> {
  return (await sql.query<Row>(text, params)).rows[0];
}

export class PostgresKnowledgeStore extends PostgresFamily implements KnowledgeStore {
  // ---- knowledge bases ----

  async create(organizationId: string, config: KnowledgeBaseConfig): Promise<KnowledgeBaseRecord> {
    const id = this.ids("kb");
    const now = this.clock.now();
    try {
      await this.transactionally(async (tx) => {
        await tx.query(
          `INSERT INTO knowledge_bases (id, organization_id, name, slug, description, embedding_provider_id,
             embedding_model, embedding_dim, chunking_strategy, chunk_size, chunk_overlap, parent_chunk_size,
             hybrid_search_enabled, reranker_provider_id, text_search_language, config_version, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 1, $16, $16)`,
          [
            id,
            organizationId,
            config.name,
            config.slug,
            config.description,
            config.embeddingProviderId,
            config.embeddingModel,
            config.embeddingDim,
            config.chunkingStrategy,
            config.chunkSize,
            config.chunkOverlap,
            config.parentChunkSize,
            config.hybridSearchEnabled,
            config.rerankerProviderId,
            config.textSearchLanguage,
            now,
          ],
        );
        await this.snapshot(tx, id, 1, config, now);
      });
    } catch (error) {
      throw slugConflict(error, config.slug);
    }
    const created = await this.getKnowledgeBase(id);
    if (created === null) throw new Error(`Knowledge base ${id} vanished after insert`);
    return created;
  }

  /** A live knowledge base of the organization. */
  async get(organizationId: string, id: string): Promise<KnowledgeBaseRecord | null> {
    const row = await this.row<KbRow>(
      "SELECT * FROM knowledge_bases WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL",
      [organizationId, id],
    );
    return row === undefined ? null : toKb(row);
  }

  /** Newest first (ties: the larger id first, compared bytewise as SQLite does). */
  async list(
    organizationId: string,
    page: PageRequest,
  ): Promise<{ items: KnowledgeBaseRecord[]; total: number }> {
    const { rows, total } = await this.page<KbRow>(
      "*",
      "knowledge_bases",
      "organization_id = $1 AND deleted_at IS NULL",
      'created_at DESC, id COLLATE "C" DESC',
      [organizationId],
      page,
    );
    return { items: rows.map(toKb), total };
  }

  /**
   * Replaces the configuration and snapshots it as the next version. The language fields are
   * set by the caller's decision: `textSearchLanguage` stays the active one;
   * `pendingTextSearchLanguage` is the reindex target or null. The row is locked first, so a
   * reindex writing rows of the pending language (`addTerms`, which holds it shared) never
   * leaves rows of a language this change dropped.
   */
  async update(
    organizationId: string,
    id: string,
    config: KnowledgeBaseConfig,
    pendingTextSearchLanguage: TextSearchLanguage | null,
  ): Promise<KnowledgeBaseRecord | null> {
    const now = this.clock.now();
    try {
      const updated = await this.transactionally(async (tx) => {
        const current = await one<KbRow>(
          tx,
          "SELECT * FROM knowledge_bases WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE",
          [organizationId, id],
        );
        if (current === undefined) return false;
        const version = current.config_version + 1;
        await tx.query(
          `UPDATE knowledge_bases SET name = $1, slug = $2, description = $3, embedding_provider_id = $4,
             embedding_model = $5, chunking_strategy = $6, chunk_size = $7, chunk_overlap = $8,
             parent_chunk_size = $9, hybrid_search_enabled = $10, reranker_provider_id = $11,
             pending_text_search_language = $12, config_version = $13, updated_at = $14
           WHERE id = $15`,
          [
            config.name,
            config.slug,
            config.description,
            config.embeddingProviderId,
            config.embeddingModel,
            config.chunkingStrategy,
            config.chunkSize,
            config.chunkOverlap,
            config.parentChunkSize,
            config.hybridSearchEnabled,
            config.rerankerProviderId,
            pendingTextSearchLanguage,
            version,
            now,
            id,
          ],
        );
        // A pending language that was dropped (cancel or replaced target) leaves no rows behind.
        const pending = current.pending_text_search_language;
        if (pending !== null && pending !== pendingTextSearchLanguage) {
          await dropKeywordRows(tx, id, pending as TextSearchLanguage);
        }
        await this.snapshot(
          tx,
          id,
          version,
          { ...config, textSearchLanguage: pendingTextSearchLanguage ?? config.textSearchLanguage },
          now,
        );
        return true;
      });
      return updated ? await this.get(organizationId, id) : null;
    } catch (error) {
      throw slugConflict(error, config.slug);
    }
  }

  async configVersions(id: string): Promise<ConfigVersion[]> {
    const rows = await this.rows<ConfigVersionRow>(
      "SELECT version_no, config, created_at FROM kb_config_versions WHERE knowledge_base_id = $1 ORDER BY version_no",
      [id],
    );
    return rows.map(toConfigVersion);
  }

  /** Soft delete: the slug is released, configuration versions and documents stay; index rows go. */
  async softDelete(organizationId: string, id: string): Promise<boolean> {
    return this.transactionally(async (tx) => {
      const now = this.clock.now();
      const changed = await tx.query(
        `UPDATE knowledge_bases SET deleted_at = $1, updated_at = $1
         WHERE organization_id = $2 AND id = $3 AND deleted_at IS NULL RETURNING id`,
        [now, organizationId, id],
      );
      if (changed.rows.length === 0) return false;
      await dropKeywordRows(tx, id);
      await tx.query("DELETE FROM kb_vectors WHERE knowledge_base_id = $1", [id]);
      await tx.query(
        `UPDATE kb_revisions SET status = 'ERROR', error = 'The knowledge base was deleted', updated_at = $1
         WHERE knowledge_base_id = $2 AND status IN ${IN_PROGRESS}`,
        [now, id],
      );
      await bumpGeneration(tx, id);
      return true;
    });
  }

  /** Live knowledge bases of every organization serving at least `minChunks` vectors, the largest first. */
  async servedAtLeast(minChunks: number): Promise<ServedKnowledgeBase[]> {
    return await this.rows<ServedKnowledgeBase>(
      `SELECT kb.organization_id AS "organizationId", kb.id AS id, count(*)::int AS chunks
       FROM knowledge_bases kb
       JOIN kb_documents d ON d.knowledge_base_id = kb.id AND d.deleted_at IS NULL
       JOIN kb_vectors v ON v.revision_id = d.serving_revision_id
       WHERE kb.deleted_at IS NULL
       GROUP BY kb.organization_id, kb.id HAVING count(*) >= $1 ORDER BY chunks DESC, kb.id`,
      [minChunks],
    );
  }

  async getKnowledgeBase(id: string): Promise<KnowledgeBaseRecord | null> {
    const row = await this.row<KbRow>("SELECT * FROM knowledge_bases WHERE id = $1", [id]);
    return row === undefined ? null : toKb(row);
  }

  // ---- documents and revisions ----

  /**
   * Stores an upload as the next revision of the document named `filename` (a new document on
   * first sight), PENDING, with its bytes.
   */
  async acceptUpload(input: {
    knowledgeBase: KnowledgeBaseRecord;
    filename: string;
    mime: string;
    bytes: Uint8Array;
    metadata: Record<string, unknown>;
    apiKeyId: string | null;
  }): Promise<AcceptedUpload> {
    const now = this.clock.now();
    const kb = input.knowledgeBase;
    const { documentId, revisionId } = await this.transactionally(async (tx) => {
      // The knowledge base's row serialises uploads of one name (no duplicate document, no
      // duplicate version number).
      await tx.query("SELECT 1 FROM knowledge_bases WHERE id = $1 FOR UPDATE", [kb.id]);
      const existing = await one<DocumentRow>(
        tx,
        "SELECT * FROM kb_documents WHERE knowledge_base_id = $1 AND name = $2 AND deleted_at IS NULL",
        [kb.id, input.filename],
      );
      const revisionId = this.ids("kbv");
      let documentId: string;
      let versionNo = 1;
      if (existing === undefined) {
        documentId = this.ids("kbd");
        await tx.query(
          `INSERT INTO kb_documents (id, knowledge_base_id, organization_id, name, metadata, serving_revision_id,
             latest_revision_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5::jsonb, NULL, $6, $7, $7)`,
          [
            documentId,
            kb.id,
            kb.organizationId,
            input.filename,
            JSON.stringify(input.metadata),
            revisionId,
            now,
          ],
        );
      } else {
        documentId = existing.id;
        const max = await one<{ max: number | null }>(
          tx,
          "SELECT MAX(version_no) AS max FROM kb_revisions WHERE document_id = $1",
          [documentId],
        );
        versionNo = (max?.max ?? 0) + 1;
        await tx.query(
          "UPDATE kb_documents SET latest_revision_id = $1, metadata = metadata || $2::jsonb, updated_at = $3 WHERE id = $4",
          [revisionId, JSON.stringify(input.metadata), now, documentId],
        );
      }
      await tx.query(
        `INSERT INTO kb_revisions (id, document_id, knowledge_base_id, organization_id, version_no, status, mime,
           byte_size, error, api_key_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'PENDING', $6, $7, NULL, $8, $9, $9)`,
        [
          revisionId,
          documentId,
          kb.id,
          kb.organizationId,
          versionNo,
          input.mime,
          input.bytes.byteLength,
          input.apiKeyId,
          now,
        ],
      );
      await tx.query(
        "INSERT INTO kb_revision_sources (revision_id, filename, mime, content) VALUES ($1, $2, $3, $4)",
        [revisionId, input.filename, input.mime, bytes(input.bytes)],
      );
      return { documentId, revisionId };
    });
    const document = await this.getDocument(documentId);
    const revision = await this.getRevision(revisionId);
    if (document === null || revision === null) throw new Error(`Upload ${revisionId} vanished after insert`);
    return { document, revision };
  }

  async setRevisionJob(revisionId: string, jobId: string): Promise<void> {
    await this.db.query("UPDATE kb_revisions SET job_id = $1 WHERE id = $2", [jobId, revisionId]);
  }

  async revisionJobId(revisionId: string): Promise<string | null> {
    const row = await this.row<{ job_id: string | null }>("SELECT job_id FROM kb_revisions WHERE id = $1", [
      revisionId,
    ]);
    return row?.job_id ?? null;
  }

  /** Live documents, newest first; `status` filters on the latest revision's status. */
  async listDocuments(
    knowledgeBaseId: string,
    page: PageRequest,
    status?: RevisionStatus,
  ): Promise<{ items: DocumentRecord[]; total: number }> {
    const where = `d.knowledge_base_id = $1 AND d.deleted_at IS NULL${status === undefined ? "" : " AND r.status = $2"}`;
    const params: unknown[] = status === undefined ? [knowledgeBaseId] : [knowledgeBaseId, status];
    const { rows, total } = await this.page<DocumentRow>(
      "d.*",
      "kb_documents d JOIN kb_revisions r ON r.id = d.latest_revision_id",
      where,
      'd.created_at DESC, d.id COLLATE "C" DESC',
      params,
      page,
    );
    return { items: rows.map(toDocument), total };
  }

  /** A live document of the knowledge base. */
  async documentIn(knowledgeBaseId: string, documentId: string): Promise<DocumentRecord | null> {
    const row = await this.row<DocumentRow>(
      "SELECT * FROM kb_documents WHERE knowledge_base_id = $1 AND id = $2 AND deleted_at IS NULL",
      [knowledgeBaseId, documentId],
    );
    return row === undefined ? null : toDocument(row);
  }

  async revisionOf(documentId: string, revisionId: string): Promise<RevisionRecord | null> {
    const row = await this.row<RevisionRow>(
      `SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE document_id = $1 AND id = $2`,
      [documentId, revisionId],
    );
    return row === undefined ? null : toRevision(row);
  }

  async revisionsOf(documentIds: readonly string[]): Promise<RevisionRecord[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.rows<RevisionRow>(
      `SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE document_id = ANY($1::text[])`,
      [documentIds],
    );
    return rows.map(toRevision);
  }

  async hasSource(revisionId: string): Promise<boolean> {
    return (
      (await this.row("SELECT 1 FROM kb_revision_sources WHERE revision_id = $1", [revisionId])) !== undefined
    );
  }

  /** Revisions still in progress (for the worker's start-up check). */
  async inProgressRevisions(): Promise<RevisionRecord[]> {
    const rows = await this.rows<RevisionRow>(
      `SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE status IN ${IN_PROGRESS}`,
    );
    return rows.map(toRevision);
  }

  async getRevision(id: string): Promise<RevisionRecord | null> {
    const row = await this.row<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE id = $1`, [
      id,
    ]);
    return row === undefined ? null : toRevision(row);
  }

  async getDocument(id: string): Promise<DocumentRecord | null> {
    const row = await this.row<DocumentRow>("SELECT * FROM kb_documents WHERE id = $1", [id]);
    return row === undefined ? null : toDocument(row);
  }

  async setRevisionStatus(id: string, status: RevisionStatus, error: string | null = null): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE kb_revisions SET status = $1, error = $2, updated_at = $3 WHERE id = $4 AND status IN ${IN_PROGRESS}
       RETURNING id`,
      [status, status === "ERROR" ? error : null, this.clock.now(), id],
    );
    return rows.rows.length > 0;
  }

  async loadSource(revisionId: string): Promise<RevisionSource | null> {
    const row = await this.row<{ filename: string; mime: string; content: Uint8Array }>(
      "SELECT filename, mime, content FROM kb_revision_sources WHERE revision_id = $1",
      [revisionId],
    );
    if (row === undefined) return null;
    return { filename: row.filename, mime: row.mime, bytes: new Uint8Array(row.content) };
  }

  async mergeDocumentMetadata(documentId: string, metadata: Record<string, unknown>): Promise<void> {
    // Metadata sent with the upload wins over what the converter found.
    await this.db.query("UPDATE kb_documents SET metadata = $1::jsonb || metadata WHERE id = $2", [
      JSON.stringify(metadata),
      documentId,
    ]);
  }

  async documentsById(ids: readonly string[]): Promise<DocumentRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<DocumentRow>("SELECT * FROM kb_documents WHERE id = ANY($1::text[])", [
      ids,
    ]);
    return rows.rows.map(toDocument);
  }

  async documentsMatching(knowledgeBaseId: string, filter: Record<string, unknown>): Promise<string[]> {
    const rows = await this.db.query<{ id: string; metadata: Record<string, unknown> }>(
      "SELECT id, metadata FROM kb_documents WHERE knowledge_base_id = $1 AND deleted_at IS NULL",
      [knowledgeBaseId],
    );
    return rows.rows.filter((row) => metadataMatches(row.metadata, filter)).map((row) => row.id);
  }

  /**
   * Deletes a document: out of retrieval at once, its text withdrawn from the chunks (citations
   * keep ids, pages and headings), its uploads dropped.
   */
  async deleteDocument(knowledgeBaseId: string, documentId: string): Promise<boolean> {
    return this.transactionally(async (tx) => {
      const now = this.clock.now();
      const changed = await tx.query(
        `UPDATE kb_documents SET deleted_at = $1, updated_at = $1
         WHERE knowledge_base_id = $2 AND id = $3 AND deleted_at IS NULL RETURNING id`,
        [now, knowledgeBaseId, documentId],
      );
      if (changed.rows.length === 0) return false;
      await tx.query(
        "DELETE FROM kb_keywords WHERE chunk_seq IN (SELECT seq FROM kb_chunks WHERE document_id = $1)",
        [documentId],
      );
      await tx.query(
        "DELETE FROM kb_vectors WHERE chunk_seq IN (SELECT seq FROM kb_chunks WHERE document_id = $1)",
        [documentId],
      );
      await tx.query("UPDATE kb_chunks SET text = NULL, active = false WHERE document_id = $1", [documentId]);
      await tx.query(
        "DELETE FROM kb_revision_sources WHERE revision_id IN (SELECT id FROM kb_revisions WHERE document_id = $1)",
        [documentId],
      );
      await tx.query(
        `UPDATE kb_revisions SET status = 'ERROR', error = 'The document was deleted', updated_at = $1
         WHERE document_id = $2 AND status IN ${IN_PROGRESS}`,
        [now, documentId],
      );
      await bumpGeneration(tx, knowledgeBaseId);
      return true;
    });
  }

  /** ERROR → PENDING, from the start: the revision's partial chunks and index rows are dropped. */
  async resetForRetry(revisionId: string): Promise<boolean> {
    return this.transactionally(async (tx) => {
      const changed = await tx.query(
        "UPDATE kb_revisions SET status = 'PENDING', error = NULL, updated_at = $1 WHERE id = $2 AND status = 'ERROR' RETURNING id",
        [this.clock.now(), revisionId],
      );
      if (changed.rows.length === 0) return false;
      await dropRevisionIndexRows(tx, revisionId);
      await tx.query("DELETE FROM kb_chunks WHERE revision_id = $1", [revisionId]);
      return true;
    });
  }

  // ---- chunks and activation ----

  async replaceChunks(revisionId: string, chunks: readonly NewChunk[]): Promise<ChunkRecord[]> {
    const revision = await this.getRevision(revisionId);
    if (revision === null) return [];
    const ids = chunks.map(() => this.ids("chk"));
    const idsByPosition = new Map(chunks.map((chunk, i) => [chunk.position, ids[i] as string]));
    await this.transactionally(async (tx) => {
      await dropRevisionIndexRows(tx, revisionId);
      await tx.query("DELETE FROM kb_chunks WHERE revision_id = $1", [revisionId]);
      // One statement per batch of rows: unnest over parallel arrays.
      const BATCH = 500;
      for (let start = 0; start < chunks.length; start += BATCH) {
        const batch = chunks.slice(start, start + BATCH);
        await tx.query(
          `INSERT INTO kb_chunks (id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text,
             token_count, page_start, page_end, heading_path, active, text_start, text_end)
           SELECT c.id, $1, $2, $3, c.kind, c.parent_id, c.position, c.text, c.token_count, c.page_start, c.page_end,
             c.heading_path::jsonb, false, c.text_start, c.text_end
           FROM unnest($4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[], $10::int[], $11::int[],
             $12::text[], $13::int[], $14::int[])
             AS c(id, kind, parent_id, position, text, token_count, page_start, page_end, heading_path, text_start, text_end)`,
          [
            revision.knowledgeBaseId,
            revision.documentId,
            revisionId,
            ids.slice(start, start + BATCH),
            batch.map((chunk) => chunk.kind),
            batch.map((chunk) =>
              chunk.parentPosition === null ? null : (idsByPosition.get(chunk.parentPosition) ?? null),
            ),
            batch.map((chunk) => chunk.position),
            batch.map((chunk) => chunk.text),
            batch.map((chunk) => chunk.tokenCount),
            batch.map((chunk) => chunk.pageStart),
            batch.map((chunk) => chunk.pageEnd),
            batch.map((chunk) => JSON.stringify(chunk.headingPath)),
            batch.map((chunk) => chunk.textStart ?? null),
            batch.map((chunk) => chunk.textEnd ?? null),
          ],
        );
      }
    });
    return this.revisionChunks(revisionId);
  }

  async revisionChunks(revisionId: string): Promise<ChunkRecord[]> {
    const rows = await this.db.query<ChunkRow>(
      `SELECT ${CHUNK_COLUMNS} FROM kb_chunks WHERE revision_id = $1 ORDER BY position`,
      [revisionId],
    );
    return rows.rows.map(toChunk);
  }

  async indexedChunks(revisionId: string): Promise<ChunkRecord[]> {
    return (await this.revisionChunks(revisionId)).filter((chunk) => chunk.kind !== "parent");
  }

  async activateRevision(revisionId: string): Promise<boolean> {
    return this.transactionally(async (tx) => {
      const revision = await one<RevisionRow>(
        tx,
        `SELECT ${REVISION_COLUMNS} FROM kb_revisions WHERE id = $1`,
        [revisionId],
      );
      if (revision === undefined) return false;
      // The document's row serialises two revisions of one document finishing at once.
      const document = await one<DocumentRow>(tx, "SELECT * FROM kb_documents WHERE id = $1 FOR UPDATE", [
        revision.document_id,
      ]);
      if (document === undefined || document.deleted_at !== null) return false;
      const now = this.clock.now();
      const moved = await tx.query(
        `UPDATE kb_revisions SET status = 'READY', error = NULL, updated_at = $1 WHERE id = $2 AND status IN ${IN_PROGRESS}
         RETURNING id`,
        [now, revisionId],
      );
      if (moved.rows.length === 0) return false;
      const previous = document.serving_revision_id;
      const current =
        previous === null
          ? null
          : ((
              await one<{ version_no: number }>(tx, "SELECT version_no FROM kb_revisions WHERE id = $1", [
                previous,
              ])
            )?.version_no ?? 0);
      // Only a newer revision takes over: a retried old one never replaces a newer serving revision.
      if (current !== null && current > revision.version_no) {
        await dropRevisionIndexRows(tx, revisionId);
      } else {
        if (previous !== null) {
          await tx.query("UPDATE kb_chunks SET active = false WHERE revision_id = $1", [previous]);
          await dropRevisionIndexRows(tx, previous);
        }
        await tx.query("UPDATE kb_chunks SET active = true WHERE revision_id = $1", [revisionId]);
        await tx.query("UPDATE kb_documents SET serving_revision_id = $1, updated_at = $2 WHERE id = $3", [
          revisionId,
          now,
          document.id,
        ]);
        await bumpGeneration(tx, revision.knowledge_base_id);
      }
      await tx.query("DELETE FROM kb_revision_sources WHERE revision_id = $1", [revisionId]);
      return true;
    });
  }

  async chunksById(knowledgeBaseId: string, ids: readonly string[]): Promise<ChunkRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<ChunkRow>(
      `SELECT ${CHUNK_COLUMNS} FROM kb_chunks WHERE knowledge_base_id = $1 AND id = ANY($2::text[])`,
      [knowledgeBaseId, ids],
    );
    return rows.rows.map(toChunk);
  }

  // ---- internals ----

  /**
   * One page of a listing and its total: two statements, each on its index (a window count
   * would read every matching row before the limit). One after the other: inside a unit of work
   * on PGlite two statements of one transaction must not overlap.
   */
  private async page<Row>(
    columns: string,
    from: string,
    where: string,
    order: string,
    params: readonly unknown[],
    page: PageRequest,
  ): Promise<{ rows: Row[]; total: number }> {
    const rows = await this.rows<Row>(
      `SELECT ${columns} FROM ${from} WHERE ${where}
       ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, pageOffset(page)],
    );
    const counted = await this.row<{ total: string | number }>(
      `SELECT COUNT(*) AS total FROM ${from} WHERE ${where}`,
      params,
    );
    return { rows, total: Number(counted?.total ?? 0) };
  }

  private async snapshot(
    tx: SqlQueryable,
    id: string,
    version: number,
    config: KnowledgeBaseConfig,
    now: number,
  ): Promise<void> {
    await tx.query(
      "INSERT INTO kb_config_versions (knowledge_base_id, version_no, config, created_at) VALUES ($1, $2, $3::jsonb, $4)",
      [id, version, JSON.stringify(configSnapshot(config)), now],
    );
  }
}

/** 23505 on the slug index → the same 409 the SQLite store answers. */
function slugConflict(error: unknown, slug: string): unknown {
  if (
    error instanceof Error &&
    "code" in error &&
    error.code === "23505" &&
    error.message.includes("knowledge_bases_slug")
  ) {
    return conflict(`The slug "${slug}" is already used by another knowledge base of the organization`, {
      param: "slug",
      code: "slug_conflict",
    });
  }
  return error;
}
