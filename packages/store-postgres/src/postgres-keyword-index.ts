/**
 * The knowledge-base keyword leg on PostgreSQL's own text search (decision PG6): each indexed
 * chunk's text analysed by the knowledge base's text-search configuration
 * (`to_tsvector(config, text)`, kb-text-search.ts) into a `tsvector` row per language, GIN-
 * indexed. A query is the typed text analysed by the same configuration, its lexemes OR-ed
 * (any term matches, as the SQLite leg's FTS5 query), ranked by `ts_rank` normalised by
 * document length. The engine's analysed `terms` are not stored: the database analyses.
 */
import type { IndexHit, IndexQuery, KeywordIndex, TextSearchLanguage } from "@groundwork/kb";
import { TextSearchConfigurations } from "./kb-text-search.js";
import type { SqlClient } from "./sql-client.js";

/**
 * A tsquery matching any lexeme of the text as the configuration analyses it (NULL when none
 * is left, e.g. stop words only). Lexemes are quoted for tsquery input ('' and \\ escapes), so
 * no character of the query is read as operator syntax.
 */
const ANY_LEXEME = String.raw`(SELECT string_agg('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery
    FROM unnest(tsvector_to_array(to_tsvector($1::regconfig, $2))) AS l (lexeme))`;

export class PostgresKeywordIndex implements KeywordIndex {
  private readonly configurations: TextSearchConfigurations;

  constructor(private readonly sql: SqlClient) {
    this.configurations = new TextSearchConfigurations(sql);
  }

  /** Analyses the chunks' stored text (the entries' `terms` are the engine's, unused here). */
  async add(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): Promise<void> {
    if (entries.length === 0) return;
    const configuration = await this.configurations.configurationFor(language);
    await this.sql.query(
      `INSERT INTO kb_keywords (chunk_seq, language, knowledge_base_id, revision_id, terms)
       SELECT c.seq, $2, $3, c.revision_id, to_tsvector($1::regconfig, c.text)
       FROM kb_chunks c
       WHERE c.id = ANY($4::text[]) AND c.knowledge_base_id = $3 AND c.text IS NOT NULL
       ON CONFLICT (chunk_seq, language) DO UPDATE SET terms = EXCLUDED.terms, revision_id = EXCLUDED.revision_id`,
      [configuration, language, knowledgeBaseId, entries.map((entry) => entry.chunkId)],
    );
  }

  /** Served chunks of the knowledge base matching any query lexeme, best first (ties by age). */
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
    const rows = await this.sql.query<{ id: string; rank: number }>(
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
}
