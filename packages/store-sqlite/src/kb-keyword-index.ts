/**
 * The knowledge-base keyword index on SQLite: FTS5 rows over the terms the kb
 * engine analyzed, one set per text-search language, told apart by a `scope`
 * token. Implements the engine's `KeywordIndex` and `ReindexStore` ports.
 */
import type { IndexHit, IndexQuery, KeywordIndex, ReindexStore, TextSearchLanguage } from "@groundwork/kb";
import { TEXT_SEARCH_LANGUAGES } from "@groundwork/kb";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

function languageIndex(language: TextSearchLanguage): number {
  const index = TEXT_SEARCH_LANGUAGES.indexOf(language);
  if (index < 0) throw new Error(`Unknown text-search language ${language}`);
  return index;
}

/** The `scope` token of a knowledge base's keyword rows in one language. */
export function keywordScope(knowledgeBaseId: string, language: TextSearchLanguage): string {
  return `s${knowledgeBaseId.toLowerCase().replace(/[^a-z0-9]/g, "")}x${languageIndex(language)}`;
}

/** An FTS5 query matching any of the terms (each quoted, so no term is read as syntax). */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

/** FTS5 keyword rows, one set per text-search language, and the background reindex between two. */
export class SqliteKeywordIndex implements KeywordIndex, ReindexStore {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: Database) {
    this.sql = statementCache(db);
  }

  add(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): void {
    if (entries.length === 0) return;
    const li = languageIndex(language);
    const seqs = new Map(
      (
        this.sql("SELECT id, seq FROM kb_chunks WHERE id IN (SELECT value FROM json_each(?))").all(
          JSON.stringify(entries.map((entry) => entry.chunkId)),
        ) as Array<{ id: string; seq: number }>
      ).map((row) => [row.id, row.seq]),
    );
    const drop = this.sql("DELETE FROM kb_fts WHERE rowid = ?");
    const insert = this.sql(
      "INSERT INTO kb_fts (rowid, terms, scope, knowledge_base_id, language) VALUES (?, ?, ?, ?, ?)",
    );
    const scope = keywordScope(knowledgeBaseId, language);
    this.db.transaction(() => {
      for (const entry of entries) {
        const seq = seqs.get(entry.chunkId);
        if (seq === undefined) continue;
        const rowid = seq * 64 + li;
        drop.run(rowid);
        insert.run(rowid, entry.terms, scope, knowledgeBaseId, language);
      }
    })();
  }

  /**
   * BM25 over the knowledge base's rows in one language (the `scope` token keeps other knowledge
   * bases out of the ranking), best first. The ranking reads only the FTS index; served chunks
   * and the document filter are checked on the best rows, widening the window until `k` survive
   * or the matches run out (rows of in-progress revisions are the only ones skipped without a filter).
   */
  search(query: IndexQuery & { language: TextSearchLanguage; terms: readonly string[] }): IndexHit[] {
    if (query.terms.length === 0 || query.k <= 0) return [];
    const match = `scope : "${keywordScope(query.knowledgeBaseId, query.language)}" AND terms : (${anyTermQuery(query.terms)})`;
    const ranked = this.sql(
      "SELECT rowid, bm25(kb_fts, 1.0, 0.0) AS rank FROM kb_fts WHERE kb_fts MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?",
    );
    const served = this.sql(
      "SELECT seq, id, document_id FROM kb_chunks WHERE seq IN (SELECT value FROM json_each(?)) AND active = 1",
    );
    const allowed = query.documentIds === null ? null : new Set(query.documentIds);
    const hits: IndexHit[] = [];
    let offset = 0;
    let window = Math.max(query.k * 2, 64);
    for (;;) {
      const rows = ranked.all(match, window, offset) as Array<{ rowid: number; rank: number }>;
      const chunks = new Map(
        (
          served.all(JSON.stringify(rows.map((row) => Math.floor(row.rowid / 64)))) as Array<{
            seq: number;
            id: string;
            document_id: string;
          }>
        ).map((chunk) => [chunk.seq, chunk]),
      );
      for (const row of rows) {
        const chunk = chunks.get(Math.floor(row.rowid / 64));
        if (chunk === undefined || (allowed !== null && !allowed.has(chunk.document_id))) continue;
        hits.push({ chunkId: chunk.id, score: -row.rank });
        if (hits.length >= query.k) return hits;
      }
      if (rows.length < window) return hits;
      offset += window;
      window *= 4;
    }
  }

  // ---- ReindexStore ----

  pendingLanguage(knowledgeBaseId: string): TextSearchLanguage | null {
    return (
      (this.sql(
        "SELECT pending_text_search_language FROM knowledge_bases WHERE id = ? AND deleted_at IS NULL",
      )
        .pluck()
        .get(knowledgeBaseId) as TextSearchLanguage | null | undefined) ?? null
    );
  }

  chunkBatch(
    knowledgeBaseId: string,
    after: number,
    limit: number,
  ): Array<{ seq: number; chunkId: string; text: string }> {
    const rows = this.sql(
      `SELECT c.seq AS seq, c.id AS chunkId, c.text AS text FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = ? AND v.chunk_seq > ? AND c.text IS NOT NULL
       ORDER BY v.chunk_seq LIMIT ?`,
    ).all(knowledgeBaseId, after, limit) as Array<{ seq: number; chunkId: string; text: string }>;
    return rows;
  }

  addTerms(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): boolean {
    return this.db.transaction(() => {
      if (this.pendingLanguage(knowledgeBaseId) !== language) return false;
      this.add(knowledgeBaseId, language, entries);
      return true;
    })();
  }

  finish(knowledgeBaseId: string, language: TextSearchLanguage): boolean {
    return this.db.transaction(() => {
      const row = this.sql(
        "SELECT text_search_language, pending_text_search_language FROM knowledge_bases WHERE id = ? AND deleted_at IS NULL",
      ).get(knowledgeBaseId) as
        | { text_search_language: string; pending_text_search_language: string | null }
        | undefined;
      if (row === undefined || row.pending_text_search_language !== language) return false;
      this.sql(
        "UPDATE knowledge_bases SET text_search_language = ?, pending_text_search_language = NULL WHERE id = ?",
      ).run(language, knowledgeBaseId);
      dropKeywordRows(this.sql, knowledgeBaseId, row.text_search_language as TextSearchLanguage);
      return true;
    })();
  }
}

/** Deletes a knowledge base's keyword rows of one language (found through their scope token). */
export function dropKeywordRows(
  sql: (text: string) => Statement,
  knowledgeBaseId: string,
  language: TextSearchLanguage,
): void {
  sql("DELETE FROM kb_fts WHERE rowid IN (SELECT rowid FROM kb_fts WHERE kb_fts MATCH ?)").run(
    `scope : "${keywordScope(knowledgeBaseId, language)}"`,
  );
}
