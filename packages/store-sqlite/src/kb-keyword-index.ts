/**
 * The knowledge-base keyword index on SQLite: FTS5 rows over the terms the kb
 * engine analyzed, one set per text-search language, told apart by a `scope`
 * token. Implements the engine's `KeywordIndex` and `ReindexStore` ports.
 *
 * Search does not rank with FTS5: FTS5's `bm25()` scores every row matching any
 * term and the scope token's posting list spans the whole knowledge base, both
 * linear in the corpus (HP30). The served rows of the searched language are held
 * in memory as postings (`KeywordPostings`, loaded from the FTS5 content on the
 * first search) and ranked by top-k MaxScore (`keywordTopK`); like the vector
 * rows (HP23) they follow `index_generation`: newly served revisions are
 * appended, revisions no longer served retired, rebuilt past a quarter retired.
 */
import type { IndexHit, IndexQuery, KeywordIndex, ReindexStore, TextSearchLanguage } from "@groundwork/kb";
import { KeywordPostings, keywordTopK } from "@groundwork/kb";
import type { Database, Statement } from "better-sqlite3";
import {
  dropKeywordPacks,
  languageIndex,
  packKeywordRows,
  readKeywordPack,
  revisionTerms,
  storeKeywordPack,
} from "./kb-keyword-packs.js";
import { indexGeneration, servedRevisions } from "./kb-serving.js";
import { statementCache } from "./statement-cache.js";

/** The `scope` token of a knowledge base's keyword rows in one language. */
export function keywordScope(knowledgeBaseId: string, language: TextSearchLanguage): string {
  return `s${knowledgeBaseId.toLowerCase().replace(/[^a-z0-9]/g, "")}x${languageIndex(language)}`;
}

/** An FTS5 query matching any of the terms (each quoted, so no term is read as syntax). */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

/** Share of retired rows up to which the postings are patched instead of rebuilt. */
const STALE_LIMIT = 0.25;

/** The in-memory postings of one knowledge base, for one language as of one index generation. */
interface KeywordCache {
  generation: number;
  language: TextSearchLanguage;
  postings: KeywordPostings;
}

export interface KeywordIndexOptions {
  /**
   * Load served revisions from their keyword packs (migration 31, HP44); default true. False
   * tokenizes every revision's rows from kb_fts, as before packs (the benchmark's baseline).
   */
  packs?: boolean;
  /** Rank with each term read as two tiers (HP38); default true. False: one tier (baseline). */
  tiers?: boolean;
}

/** FTS5 keyword rows, one set per text-search language, and the background reindex between two. */
export class SqliteKeywordIndex implements KeywordIndex, ReindexStore {
  private readonly sql: (text: string) => Statement;
  private readonly caches = new Map<string, KeywordCache>();
  private readonly packs: boolean;
  private readonly tiers: boolean;

  constructor(
    private readonly db: Database,
    options: KeywordIndexOptions = {},
  ) {
    this.sql = statementCache(db);
    this.packs = options.packs ?? true;
    this.tiers = options.tiers ?? true;
  }

  add(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): void {
    if (entries.length === 0) return;
    const li = languageIndex(language);
    const chunks = this.sql(
      "SELECT id, seq, revision_id FROM kb_chunks WHERE id IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(entries.map((entry) => entry.chunkId))) as Array<{
      id: string;
      seq: number;
      revision_id: string;
    }>;
    const seqs = new Map(chunks.map((row) => [row.id, row.seq]));
    // Terms replaced on served rows (not a path of ingestion, which writes revisions before they
    // are served): the held postings no longer hold, load them again.
    const cached = this.caches.get(knowledgeBaseId);
    if (cached?.language === language && chunks.some((row) => cached.postings.isLive(row.revision_id)))
      this.caches.delete(knowledgeBaseId);
    const drop = this.sql("DELETE FROM kb_fts WHERE rowid = ?");
    const insert = this.sql(
      "INSERT INTO kb_fts (rowid, terms, scope, knowledge_base_id, language) VALUES (?, ?, ?, ?, ?)",
    );
    const scope = keywordScope(knowledgeBaseId, language);
    this.db.transaction(() => {
      // Rows of a revision written again: its packs no longer match them (HP44).
      for (const revision of new Set(chunks.map((row) => row.revision_id)))
        dropKeywordPacks(this.sql, revision);
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
   * BM25 over the knowledge base's served rows in one language, best first, from the in-memory
   * postings: top-k MaxScore, the document filter applied while ranking.
   */
  search(query: IndexQuery & { language: TextSearchLanguage; terms: readonly string[] }): IndexHit[] {
    if (query.terms.length === 0 || query.k <= 0) return [];
    if (!this.holdsRows(query.knowledgeBaseId, query.language)) {
      // Rows of a language that is neither active nor pending were dropped (a switch, a
      // cancelled reindex, a deleted knowledge base), here or by another process; the
      // generation does not move for those, so held postings must not answer for them.
      this.caches.delete(query.knowledgeBaseId);
      return [];
    }
    const postings = this.cacheFor(query.knowledgeBaseId, query.language).postings;
    const ranked = keywordTopK(postings, query.terms, query.k, postings.allowed(query.documentIds), {
      tiers: this.tiers,
    });
    if (ranked.length === 0) return [];
    const ids = new Map(
      this.sql("SELECT seq, id FROM kb_chunks WHERE seq IN (SELECT value FROM json_each(?)) AND active = 1")
        .raw(true)
        .all(JSON.stringify(ranked.map((hit) => hit.seq))) as Array<[number, string]>,
    );
    const hits: IndexHit[] = [];
    for (const hit of ranked) {
      const id = ids.get(hit.seq);
      if (id !== undefined) hits.push({ chunkId: id, score: hit.score });
    }
    return hits;
  }

  /** Loads the knowledge base's postings in `language` ahead of its first search (`KnowledgeService.warm`). */
  warm(knowledgeBaseId: string, language: TextSearchLanguage): void {
    this.cacheFor(knowledgeBaseId, language);
  }

  private cacheFor(knowledgeBaseId: string, language: TextSearchLanguage): KeywordCache {
    const generation = indexGeneration(this.sql, knowledgeBaseId);
    const cached = this.caches.get(knowledgeBaseId);
    if (cached !== undefined && cached.language === language) {
      if (cached.generation === generation) return cached;
      const patched = this.db.transaction(() => this.patch(cached, knowledgeBaseId))();
      if (patched) return cached;
    }
    this.caches.delete(knowledgeBaseId); // let the old postings go before loading new ones
    const loaded = this.db.transaction(() => {
      const postings = new KeywordPostings();
      for (const [revision, document] of servedRevisions(this.sql, knowledgeBaseId))
        this.append(postings, knowledgeBaseId, document, revision, language);
      return { generation: indexGeneration(this.sql, knowledgeBaseId), language, postings };
    })();
    this.caches.set(knowledgeBaseId, loaded);
    return loaded;
  }

  /**
   * The postings brought to the served set: revisions no longer served retired, newly served ones
   * appended. False when a rebuild is due (too many retired rows, or a retired revision served again).
   */
  private patch(cache: KeywordCache, knowledgeBaseId: string): boolean {
    const postings = cache.postings;
    const served = new Map(servedRevisions(this.sql, knowledgeBaseId));
    const fresh: Array<[string, string]> = [];
    for (const [revision, document] of served) {
      if (postings.isLive(revision)) continue;
      if (postings.holds(revision)) return false; // retired, then served again: rebuild rather than revive
      fresh.push([revision, document]);
    }
    for (const revision of postings.liveRevisions()) if (!served.has(revision)) postings.retire(revision);
    if (postings.dead > postings.count * STALE_LIMIT) return false;
    for (const [revision, document] of fresh)
      this.append(postings, knowledgeBaseId, document, revision, cache.language);
    cache.generation = indexGeneration(this.sql, knowledgeBaseId);
    return true;
  }

  /**
   * Appends a served revision's postings: from its keyword pack, or (no pack yet: served before
   * migration 31, or rows written after it was packed) from its kb_fts rows, packed and stored on
   * the way when this connection can write.
   */
  private append(
    postings: KeywordPostings,
    knowledgeBaseId: string,
    document: string,
    revision: string,
    language: TextSearchLanguage,
  ): void {
    if (this.packs) {
      let pack = readKeywordPack(this.sql, revision, language);
      if (pack === null) {
        pack = packKeywordRows(this.sql, revision, language);
        try {
          storeKeywordPack(this.sql, revision, knowledgeBaseId, language, pack);
        } catch {
          // read-only or busy: the pack serves this load only
        }
      }
      if (postings.appendPacked(document, revision, pack)) return;
    }
    postings.appendRevision(document, revision, revisionTerms(this.sql, revision, language));
  }

  /** Whether the knowledge base is live and `language` is its active or pending one (the only rows kept). */
  private holdsRows(knowledgeBaseId: string, language: TextSearchLanguage): boolean {
    const row = this.sql(
      "SELECT text_search_language, pending_text_search_language FROM knowledge_bases WHERE id = ? AND deleted_at IS NULL",
    ).get(knowledgeBaseId) as
      | { text_search_language: string; pending_text_search_language: string | null }
      | undefined;
    return (
      row !== undefined &&
      (row.text_search_language === language || row.pending_text_search_language === language)
    );
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

/** Prepared statements of the FTS5 baseline, per connection. */
const fts5Statements = new WeakMap<Database, (text: string) => Statement>();

/**
 * The FTS5 ranking this index answered with before the in-memory postings (HP30): `bm25()` over
 * the rows of the knowledge base's scope token, widening the window until `k` served rows of
 * allowed documents survive. Kept as the benchmark's baseline.
 */
export function searchFts5(
  db: Database,
  query: IndexQuery & { language: TextSearchLanguage; terms: readonly string[] },
): IndexHit[] {
  let sql = fts5Statements.get(db);
  if (sql === undefined) {
    sql = statementCache(db);
    fts5Statements.set(db, sql);
  }
  if (query.terms.length === 0 || query.k <= 0) return [];
  const match = `scope : "${keywordScope(query.knowledgeBaseId, query.language)}" AND terms : (${anyTermQuery(query.terms)})`;
  const ranked = sql(
    "SELECT rowid, bm25(kb_fts, 1.0, 0.0) AS rank FROM kb_fts WHERE kb_fts MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?",
  );
  const served = sql(
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

/** Deletes a knowledge base's keyword rows of one language (found through their scope token). */
export function dropKeywordRows(
  sql: (text: string) => Statement,
  knowledgeBaseId: string,
  language: TextSearchLanguage,
): void {
  sql("DELETE FROM kb_fts WHERE rowid IN (SELECT rowid FROM kb_fts WHERE kb_fts MATCH ?)").run(
    `scope : "${keywordScope(knowledgeBaseId, language)}"`,
  );
  sql("DELETE FROM kb_keyword_packs WHERE knowledge_base_id = ? AND language = ?").run(
    knowledgeBaseId,
    language,
  );
}
