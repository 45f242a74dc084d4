/**
 * Chunks of knowledge-base revisions (migration 5) and the switch that makes a
 * revision the one retrieval serves. The middle layer of `KnowledgeBaseStore`
 * (knowledge-bases.ts), on the documents and revisions below it (kb-documents.ts).
 */
import type { ChunkRecord, NewChunk, TextSearchLanguage } from "@groundwork/kb";
import { dropRevisionIndexRows, KbDocumentStore } from "./kb-documents.js";
import { packKeywordRows, storeKeywordPack } from "./kb-keyword-packs.js";
import { CHUNK_COLUMNS, type ChunkRow, IN_PROGRESS, toChunk } from "./kb-rows.js";
import { writeRevisionPack } from "./kb-vector-packs.js";

/** Chunks and revision activation; see knowledge-bases.ts for the whole store. */
export class KbChunkStore extends KbDocumentStore {
  replaceChunks(revisionId: string, chunks: readonly NewChunk[]): ChunkRecord[] {
    const revision = this.getRevision(revisionId);
    if (revision === null) return [];
    this.db.transaction(() => {
      dropRevisionIndexRows(this.sql, revisionId);
      this.sql("DELETE FROM kb_chunks WHERE revision_id = ?").run(revisionId);
      const insert = this.sql(
        `INSERT INTO kb_chunks (id, knowledge_base_id, document_id, revision_id, kind, parent_id, position, text,
           token_count, page_start, page_end, heading_path, active, text_start, text_end)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
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
          chunk.textStart ?? null,
          chunk.textEnd ?? null,
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
        // The scan rows and keyword postings of the served revision, for the next cold start (HP40,
        // HP44); a pending language's postings are packed on their first load.
        writeRevisionPack(this.sql, revisionId, revision.knowledgeBaseId);
        const language = this.sql("SELECT text_search_language FROM knowledge_bases WHERE id = ?")
          .pluck()
          .get(revision.knowledgeBaseId) as TextSearchLanguage | undefined;
        if (language !== undefined)
          storeKeywordPack(
            this.sql,
            revisionId,
            revision.knowledgeBaseId,
            language,
            packKeywordRows(this.sql, revisionId, language),
          );
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
}
