/**
 * Knowledge bases and their configuration versions (migration 5), and
 * `KnowledgeBaseStore`, the one store of a knowledge base's tables. It is built
 * in layers, each a class adding the methods of its tables to the one below:
 * documents and revisions (kb-documents.ts), then chunks and revision
 * activation (kb-chunks.ts), then knowledge bases here; so the store keeps one
 * surface (the engine's `KnowledgeStore` port and the server's calls) without
 * forwarding methods. The indexes (kb-vector-index.ts, kb-keyword-index.ts)
 * share the same tables.
 */
import { conflict, type PageRequest, pageOffset } from "@groundwork/core";
import type {
  KnowledgeBaseConfig,
  KnowledgeBaseRecord,
  KnowledgeStore,
  ServedKnowledgeBase,
  TextSearchLanguage,
} from "@groundwork/kb";
import { TEXT_SEARCH_LANGUAGES } from "@groundwork/kb";
import {
  type ConfigVersion,
  type ConfigVersionRow,
  configSnapshot,
  toConfigVersion,
} from "@groundwork/store-rows";
import { KbChunkStore } from "./kb-chunks.js";
import { dropKeywordRows } from "./kb-keyword-index.js";
import { IN_PROGRESS, type KbRow, toKb } from "./kb-rows.js";

export class KnowledgeBaseStore extends KbChunkStore implements KnowledgeStore {
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

  configVersions(id: string): ConfigVersion[] {
    const rows = this.sql(
      "SELECT version_no, config, created_at FROM kb_config_versions WHERE knowledge_base_id = ? ORDER BY version_no",
    ).all(id) as ConfigVersionRow[];
    return rows.map(toConfigVersion);
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
      this.sql("DELETE FROM kb_vector_packs WHERE knowledge_base_id = ?").run(id);
      this.sql(
        `UPDATE kb_revisions SET status = 'ERROR', error = 'The knowledge base was deleted', updated_at = ?
         WHERE knowledge_base_id = ? AND status IN ${IN_PROGRESS}`,
      ).run(now, id);
      this.bumpGeneration(id);
      return true;
    })();
  }

  /**
   * Live knowledge bases of every organization serving at least `minChunks` vectors, the largest
   * first: those whose first search would load for seconds (a server warms them at its start).
   */
  servedAtLeast(minChunks: number): ServedKnowledgeBase[] {
    return this.sql(
      `SELECT kb.organization_id AS organizationId, kb.id AS id, count(*) AS chunks
       FROM knowledge_bases kb
       JOIN kb_documents d ON d.knowledge_base_id = kb.id AND d.deleted_at IS NULL
       JOIN kb_vectors v ON v.revision_id = d.serving_revision_id
       WHERE kb.deleted_at IS NULL
       GROUP BY kb.organization_id, kb.id HAVING count(*) >= ? ORDER BY chunks DESC, kb.id`,
    ).all(minChunks) as ServedKnowledgeBase[];
  }

  // ---- KnowledgeStore (the engine's port): knowledge bases ----

  getKnowledgeBase(id: string): KnowledgeBaseRecord | null {
    const row = this.sql("SELECT * FROM knowledge_bases WHERE id = ?").get(id) as KbRow | undefined;
    return row === undefined ? null : toKb(row);
  }

  // ---- internals ----

  private snapshot(id: string, version: number, config: KnowledgeBaseConfig, now: number): void {
    this.sql(
      "INSERT INTO kb_config_versions (knowledge_base_id, version_no, config, created_at) VALUES (?, ?, ?, ?)",
    ).run(id, version, JSON.stringify(configSnapshot(config)), now);
  }

  private dropLanguageRows(id: string, language: string): void {
    dropKeywordRows(this.sql, id, language as TextSearchLanguage);
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
}
