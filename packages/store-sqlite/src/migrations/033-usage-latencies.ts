import { USAGE_ROLLUP_TRIGGER } from "./022-analytics.js";
import type { Migration } from "./migration.js";

/**
 * The latency index behind the writes (HP65). `usage_records_latency` (organization, latency bin,
 * time, latency) put each bin's rows on a page of their own, so every batch of usage rows dirtied a
 * page per bin it held: the largest part of writing a usage row. Its entries now go to
 * `usage_latencies`, thousands of rows at a time, sorted (`usage-latencies.ts`): every row above
 * `usage_latency_watermark.upto` is still to be indexed, and a latency read indexes them first.
 *
 * The watermark needs row numbers that only grow, which a table without an INTEGER PRIMARY KEY does
 * not have (VACUUM renumbers its rowids; deleting the last rows lets new rows take their numbers),
 * so usage rows are rebuilt with `seq INTEGER PRIMARY KEY AUTOINCREMENT`, keeping their rowids.
 */
export const usageLatencies: Migration = {
  version: 33,
  name: "usage latency index written behind the usage rows",
  sql: `
    CREATE TABLE usage_records_next (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      api_key_id TEXT,
      model TEXT NOT NULL,
      surface TEXT NOT NULL CHECK (surface IN ('CHAT', 'VISION', 'EMBEDDINGS', 'RESPONSES', 'AUDIO')),
      byok INTEGER NOT NULL,
      prompt_tokens INTEGER NOT NULL,
      completion_tokens INTEGER NOT NULL,
      cached_tokens INTEGER,
      cost_eur REAL NOT NULL,
      latency_ms REAL NOT NULL,
      outcome TEXT NOT NULL,
      end_user TEXT,
      created_at INTEGER NOT NULL,
      error_code TEXT,
      status INTEGER,
      latency_bin INTEGER GENERATED ALWAYS AS (CAST(ln(max(latency_ms, 0) + 1) * 50 AS INTEGER)) VIRTUAL
    );
    INSERT INTO usage_records_next (seq, id, organization_id, api_key_id, model, surface, byok, prompt_tokens,
        completion_tokens, cached_tokens, cost_eur, latency_ms, outcome, end_user, created_at, error_code, status)
      SELECT rowid, id, organization_id, api_key_id, model, surface, byok, prompt_tokens, completion_tokens,
        cached_tokens, cost_eur, latency_ms, outcome, end_user, created_at, error_code, status
      FROM usage_records ORDER BY rowid;
    DROP TABLE usage_records;
    ALTER TABLE usage_records_next RENAME TO usage_records;
    CREATE INDEX usage_records_organization ON usage_records(organization_id, created_at);
    CREATE INDEX usage_records_errors ON usage_records(organization_id, created_at, error_code, status)
      WHERE outcome = 'error';
    ${USAGE_ROLLUP_TRIGGER}

    CREATE TABLE usage_latencies (
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      latency_bin INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      latency_ms REAL NOT NULL,
      seq INTEGER NOT NULL,
      PRIMARY KEY (organization_id, latency_bin, created_at, latency_ms, seq)
    ) WITHOUT ROWID;
    INSERT INTO usage_latencies SELECT organization_id, latency_bin, created_at, latency_ms, seq
      FROM usage_records ORDER BY 1, 2, 3, 4, 5;
    CREATE TABLE usage_latency_watermark (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      upto INTEGER NOT NULL
    );
    INSERT INTO usage_latency_watermark VALUES (1, (SELECT coalesce(max(seq), 0) FROM usage_records));
  `,
};
