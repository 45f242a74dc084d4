/**
 * Which PostgreSQL text-search configuration analyses a knowledge base's language (decision
 * PG6). Every language of the engine (kb's TEXT_SEARCH_LANGUAGES) is named after the
 * PostgreSQL configuration of the same name; a server without it (PostgreSQL has no czech nor
 * slovene configuration; a server may have had configurations dropped) analyses with `simple`
 * (lower-cased words, no stemming, no stop words). The answer is read from `pg_ts_config`
 * once per database, so the name that reaches `::regconfig` is always one the server has.
 */
import type { TextSearchLanguage } from "@groundwork/kb";
import type { SqlQueryable } from "./sql-client.js";

export class TextSearchConfigurations {
  private known: Promise<Set<string>> | null = null;

  constructor(private readonly sql: SqlQueryable) {}

  /** The configuration name for a language. */
  async configurationFor(language: TextSearchLanguage): Promise<string> {
    if (this.known === null) {
      this.known = this.sql
        .query<{ name: string }>("SELECT cfgname::text AS name FROM pg_ts_config")
        .then((result) => new Set(result.rows.map((row) => row.name)));
      this.known.catch(() => {
        this.known = null; // a failed read is tried again on the next call
      });
    }
    return (await this.known).has(language) ? language : "simple";
  }
}
