/**
 * Keyword packs (migration 31): a served revision's keyword postings in one text-search language
 * as one BLOB, so the in-memory postings of a knowledge base load with one read per revision and
 * no tokenizing (HP44). kb_fts stays the truth: a pack is written from its rows in the transaction
 * that serves the revision, dropped with them and whenever rows of its revision are written again;
 * a served revision found without one is packed on its first load.
 */
import { KeywordPostings, TEXT_SEARCH_LANGUAGES, type TextSearchLanguage } from "@groundwork/kb";
import type { Statement } from "better-sqlite3";

type Sql = (text: string) => Statement;

export function languageIndex(language: TextSearchLanguage): number {
  const index = TEXT_SEARCH_LANGUAGES.indexOf(language);
  if (index < 0) throw new Error(`Unknown text-search language ${language}`);
  return index;
}

/**
 * Seq and index terms of a revision's keyword rows in one language, read from FTS5's content
 * table (`kb_fts_content`: `id` is the rowid, `c0` the terms column), which read at half the
 * cost of the same join through the virtual table.
 */
export function revisionTerms(
  sql: Sql,
  revisionId: string,
  language: TextSearchLanguage,
): Iterable<[number, string]> {
  return sql(
    `SELECT c.seq, f.c0 FROM kb_chunks c JOIN kb_fts_content f ON f.id = c.seq * 64 + ?
     WHERE c.revision_id = ?`,
  )
    .raw(true)
    .iterate(languageIndex(language), revisionId) as Iterable<[number, string]>;
}

/** The pack of the revision's current keyword rows in one language. */
export function packKeywordRows(sql: Sql, revisionId: string, language: TextSearchLanguage): Uint8Array {
  return KeywordPostings.pack(revisionTerms(sql, revisionId, language));
}

/** Stores a revision's keyword pack for one language (replacing an older one). */
export function storeKeywordPack(
  sql: Sql,
  revisionId: string,
  knowledgeBaseId: string,
  language: TextSearchLanguage,
  pack: Uint8Array,
): void {
  sql(
    `INSERT OR REPLACE INTO kb_keyword_packs (revision_id, language, knowledge_base_id, row_count, pack)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(revisionId, language, knowledgeBaseId, new DataView(pack.buffer).getUint32(0, true), pack);
}

export function readKeywordPack(
  sql: Sql,
  revisionId: string,
  language: TextSearchLanguage,
): Uint8Array | null {
  return (sql("SELECT pack FROM kb_keyword_packs WHERE revision_id = ? AND language = ?")
    .pluck()
    .get(revisionId, language) ?? null) as Uint8Array | null;
}

/** Drops a revision's packs of every language (its keyword rows were deleted or written again). */
export function dropKeywordPacks(sql: Sql, revisionId: string): void {
  sql("DELETE FROM kb_keyword_packs WHERE revision_id = ?").run(revisionId);
}
