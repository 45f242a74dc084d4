/**
 * The knowledge-base keyword leg on PostgreSQL's own text search (decision PG6): each indexed
 * chunk's text analysed by the knowledge base's text-search configuration
 * (`to_tsvector(config, text)`, kb-text-search.ts) into a `tsvector` row per language, GIN-
 * indexed. A query is the typed text analysed by the same configuration, its lexemes OR-ed
 * (any term matches, as the SQLite leg's FTS5 query), ranked by `ts_rank` normalised by
 * document length. The engine's analysed `terms` are not stored: the database analyses.
 *
 * It is also the engine's `ReindexStore` (a text-search language change, PG141): rows of the
 * pending language are built beside the active ones from the chunks' stored text, then the
 * knowledge base switches and the old language's rows go, as store-sqlite's FTS5 index does.
 */
import type { IndexHit, IndexQuery, KeywordIndex, ReindexStore, TextSearchLanguage } from "@groundwork/kb";
import { TextSearchConfigurations } from "./kb-text-search.js";
import { PostgresFamily } from "./postgres-family.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

/**
 * A tsquery matching any lexeme of the text as the configuration analyses it (NULL when none
 * is left, e.g. stop words only). Lexemes are quoted for tsquery input ('' and \\ escapes), so
 * no character of the query is read as operator syntax.
 */
const ANY_LEXEME = String.raw`(SELECT string_agg('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery
    FROM unnest(tsvector_to_array(to_tsvector($1::regconfig, $2))) AS l (lexeme))`;

/**
 * Deletes a knowledge base's keyword rows of one language (of every language when none is
 * named), on the caller's connection.
 */
export async function dropKeywordRows(
  sql: SqlQueryable,
  knowledgeBaseId: string,
  language?: TextSearchLanguage,
): Promise<void> {
  if (language === undefined) {
    await sql.query("DELETE FROM kb_keywords WHERE knowledge_base_id = $1", [knowledgeBaseId]);
  } else {
    await sql.query("DELETE FROM kb_keywords WHERE knowledge_base_id = $1 AND language = $2", [
      knowledgeBaseId,
      language,
    ]);
  }
}

export class PostgresKeywordIndex extends PostgresFamily implements KeywordIndex, ReindexStore {
  private readonly configurations: TextSearchConfigurations;

  constructor(client: SqlClient) {
    super(client);
    this.configurations = new TextSearchConfigurations(client);
  }

  /** Analyses the chunks' stored text (the entries' `terms` are the engine's, unused here). */
  async add(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): Promise<void> {
    if (entries.length === 0) return;
    await this.insertRows(
      knowledgeBaseId,
      language,
      await this.configurations.configurationFor(language),
      entries,
    );
  }

  /** Writes the rows of `entries`' chunks in `language`, analysed by `configuration`, on the call's connection. */
  private async insertRows(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    configuration: string,
    entries: ReadonlyArray<{ chunkId: string }>,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_keywords (chunk_seq, language, knowledge_base_id, revision_id, terms)
       SELECT c.seq, $2, $3, c.revision_id, to_tsvector($1::regconfig, c.text)
       FROM kb_chunks c
       WHERE c.id = ANY($4::text[]) AND c.knowledge_base_id = $3 AND c.text IS NOT NULL
       ON CONFLICT (chunk_seq, language) DO UPDATE SET terms = EXCLUDED.terms, revision_id = EXCLUDED.revision_id`,
      [configuration, language, knowledgeBaseId, entries.map((entry) => entry.chunkId)],
    );
  }

  /** Served chunks of the knowledge base matching any query lexeme, best first (ties by age). */
  /** Nothing to load: PostgreSQL searches the keyword rows itself. */
  async warm(_knowledgeBaseId: string, _language: TextSearchLanguage): Promise<void> {}

  async search(
    query: IndexQuery & { language: TextSearchLanguage; terms: readonly string[]; text?: string },
  ): Promise<IndexHit[]> {
    if (query.k <= 0 || (query.text === undefined && query.terms.length === 0)) return [];
    if (query.documentIds !== null && query.documentIds.length === 0) return [];
    const configuration = await this.configurations.configurationFor(query.language);
    // Without the typed text (an older caller) the engine's terms stand in for it.
    const text = query.text ?? query.terms.join(" ");
    const filter = query.documentIds === null ? "" : "AND d.id = ANY($6::text[])";
    // Served = of a revision a live document serves (what `kb_chunks.active` records): checked
    // against the knowledge base's few documents rather than by a chunk lookup per match, and
    // the chunk rows read for the k best only.
    const rows = await this.db.query<{ id: string; rank: number }>(
      `WITH q AS (SELECT ${ANY_LEXEME} AS query),
       best AS (
         SELECT k.chunk_seq, ts_rank(k.terms, q.query, 1) AS rank
         FROM q, kb_keywords k
         WHERE q.query IS NOT NULL AND k.knowledge_base_id = $3 AND k.language = $4 AND k.terms @@ q.query
           AND k.revision_id IN (
             SELECT d.serving_revision_id FROM kb_documents d
             WHERE d.knowledge_base_id = $3 AND d.deleted_at IS NULL ${filter})
         ORDER BY rank DESC, k.chunk_seq
         LIMIT $5)
       SELECT c.id, best.rank FROM best JOIN kb_chunks c ON c.seq = best.chunk_seq
       ORDER BY best.rank DESC, best.chunk_seq`,
      [
        configuration,
        text,
        query.knowledgeBaseId,
        query.language,
        query.k,
        ...(query.documentIds === null ? [] : [query.documentIds]),
      ],
    );
    return rows.rows.map((row) => ({ chunkId: row.id, score: Number(row.rank) }));
  }

  // ---- ReindexStore ----

  async pendingLanguage(knowledgeBaseId: string): Promise<TextSearchLanguage | null> {
    const row = await this.row<{ pending: TextSearchLanguage | null }>(
      "SELECT pending_text_search_language AS pending FROM knowledge_bases WHERE id = $1 AND deleted_at IS NULL",
      [knowledgeBaseId],
    );
    return row?.pending ?? null;
  }

  /**
   * Indexed chunks (those with a vector) that still have their text, after `after` in `seq`
   * order. The bound is said of both tables: a merge join on `seq` otherwise walks the chunks
   * from the first one on every batch.
   */
  async chunkBatch(
    knowledgeBaseId: string,
    after: number,
    limit: number,
  ): Promise<Array<{ seq: number; chunkId: string; text: string }>> {
    const rows = await this.rows<{ seq: string | number; id: string; text: string }>(
      `SELECT c.seq, c.id, c.text FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
       WHERE v.knowledge_base_id = $1 AND v.chunk_seq > $2 AND c.seq > $2 AND c.text IS NOT NULL
       ORDER BY v.chunk_seq LIMIT $3`,
      [knowledgeBaseId, after, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), chunkId: row.id, text: row.text }));
  }

  /**
   * Writes rows of `language` only while it is still the pending target (false otherwise). The
   * knowledge base's row is held shared until the rows are written, so a change of the pending
   * language (`update`, which locks it) waits and then drops them, never the other way round.
   * The rows are analysed from the chunks' text by the database; the engine's `terms` are unused.
   */
  async addTerms(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): Promise<boolean> {
    // Read before the transaction: on PGlite (one connection) a read outside it would wait for it.
    const configuration = await this.configurations.configurationFor(language);
    return this.inTransaction(async () => {
      const row = await this.row<{ pending: string | null }>(
        "SELECT pending_text_search_language AS pending FROM knowledge_bases WHERE id = $1 AND deleted_at IS NULL FOR SHARE",
        [knowledgeBaseId],
      );
      if (row?.pending !== language) return false;
      if (entries.length > 0) await this.insertRows(knowledgeBaseId, language, configuration, entries);
      return true;
    });
  }

  /** Makes `language` active and drops the other language's rows, if it is still pending; false otherwise. */
  async finish(knowledgeBaseId: string, language: TextSearchLanguage): Promise<boolean> {
    return this.inTransaction(async () => {
      const row = await this.row<{ active: TextSearchLanguage; pending: string | null }>(
        `SELECT text_search_language AS active, pending_text_search_language AS pending
         FROM knowledge_bases WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
        [knowledgeBaseId],
      );
      if (row === undefined || row.pending !== language) return false;
      await this.db.query(
        "UPDATE knowledge_bases SET text_search_language = $1, pending_text_search_language = NULL WHERE id = $2",
        [language, knowledgeBaseId],
      );
      await dropKeywordRows(this.db, knowledgeBaseId, row.active);
      return true;
    });
  }
}
