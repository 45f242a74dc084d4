import type { Migration } from "./migration.js";

/**
 * Analytics (PLATFORM.md §14). Usage rows gain the error code and status the caller received;
 * hourly (and, for latency bins, daily) rollups, kept by a trigger at insert, answer sums and
 * latency-bin counts without reading every row; extractions gain their quality facts as columns (docs/decisions.md AN2–AN5).
 */

/**
 * Usage rows are append-only (they go only with their organization), so insert-time rollups
 * stay exact. Hours are UTC epoch-millisecond starts. Migration 33 rebuilds the table and makes
 * the same trigger again.
 */
export const USAGE_ROLLUP_TRIGGER = `CREATE TRIGGER usage_records_rollup AFTER INSERT ON usage_records BEGIN
  INSERT INTO usage_hourly (organization_id, hour, model, surface, byok, requests, errors, prompt_tokens,
      completion_tokens, cost_eur)
    VALUES (NEW.organization_id, NEW.created_at - NEW.created_at % 3600000, NEW.model, NEW.surface, NEW.byok,
      1, NEW.outcome = 'error', NEW.prompt_tokens, NEW.completion_tokens, NEW.cost_eur)
    ON CONFLICT DO UPDATE SET requests = requests + 1, errors = errors + excluded.errors,
      prompt_tokens = prompt_tokens + excluded.prompt_tokens,
      completion_tokens = completion_tokens + excluded.completion_tokens,
      cost_eur = cost_eur + excluded.cost_eur;
  INSERT INTO usage_latency_hourly (organization_id, hour, model, surface, byok, latency_bin, requests)
    VALUES (NEW.organization_id, NEW.created_at - NEW.created_at % 3600000, NEW.model, NEW.surface, NEW.byok,
      NEW.latency_bin, 1)
    ON CONFLICT DO UPDATE SET requests = requests + 1;
  INSERT INTO usage_latency_daily (organization_id, day, model, surface, byok, latency_bin, requests)
    VALUES (NEW.organization_id, NEW.created_at - NEW.created_at % 86400000, NEW.model, NEW.surface, NEW.byok,
      NEW.latency_bin, 1)
    ON CONFLICT DO UPDATE SET requests = requests + 1;
END;`;

export const analytics: Migration = {
  version: 22,
  name: "analytics: usage errors, hourly usage rollups, extraction quality facts",
  sql: `
    ALTER TABLE usage_records ADD COLUMN error_code TEXT;
    ALTER TABLE usage_records ADD COLUMN status INTEGER;
    -- Latency bins about 2% wide (log scale), in order: the exact nearest-rank latency lies in the
    -- bin where the cumulative bin counts reach its rank, so only that bin's rows are sorted.
    ALTER TABLE usage_records ADD COLUMN latency_bin INTEGER
      GENERATED ALWAYS AS (CAST(ln(max(latency_ms, 0) + 1) * 50 AS INTEGER)) VIRTUAL;
    CREATE INDEX usage_records_latency ON usage_records(organization_id, latency_bin, created_at, latency_ms);
    CREATE INDEX usage_records_errors ON usage_records(organization_id, created_at, error_code, status)
      WHERE outcome = 'error';

    -- Usage rows are append-only (they go only with their organization), so insert-time rollups
    -- stay exact. Hours are UTC epoch-millisecond starts.
    CREATE TABLE usage_hourly (
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      hour INTEGER NOT NULL,
      model TEXT NOT NULL,
      surface TEXT NOT NULL,
      byok INTEGER NOT NULL,
      requests INTEGER NOT NULL,
      errors INTEGER NOT NULL,
      prompt_tokens INTEGER NOT NULL,
      completion_tokens INTEGER NOT NULL,
      cost_eur REAL NOT NULL,
      PRIMARY KEY (organization_id, hour, model, surface, byok)
    ) WITHOUT ROWID;
    CREATE TABLE usage_latency_hourly (
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      hour INTEGER NOT NULL,
      model TEXT NOT NULL,
      surface TEXT NOT NULL,
      byok INTEGER NOT NULL,
      latency_bin INTEGER NOT NULL,
      requests INTEGER NOT NULL,
      PRIMARY KEY (organization_id, hour, model, surface, byok, latency_bin)
    ) WITHOUT ROWID;
    -- The same counts per UTC day: long ranges read 24 times fewer rollup rows.
    CREATE TABLE usage_latency_daily (
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      day INTEGER NOT NULL,
      model TEXT NOT NULL,
      surface TEXT NOT NULL,
      byok INTEGER NOT NULL,
      latency_bin INTEGER NOT NULL,
      requests INTEGER NOT NULL,
      PRIMARY KEY (organization_id, day, model, surface, byok, latency_bin)
    ) WITHOUT ROWID;

    INSERT INTO usage_hourly
      SELECT organization_id, created_at - created_at % 3600000, model, surface, byok, count(*),
        sum(outcome = 'error'), sum(prompt_tokens), sum(completion_tokens), sum(cost_eur)
      FROM usage_records GROUP BY 1, 2, 3, 4, 5;
    INSERT INTO usage_latency_hourly
      SELECT organization_id, created_at - created_at % 3600000, model, surface, byok, latency_bin, count(*)
      FROM usage_records GROUP BY 1, 2, 3, 4, 5, 6;
    INSERT INTO usage_latency_daily
      SELECT organization_id, created_at - created_at % 86400000, model, surface, byok, latency_bin, count(*)
      FROM usage_records GROUP BY 1, 2, 3, 4, 5, 6;

    ${USAGE_ROLLUP_TRIGGER}

    -- Quality facts of a finished extraction, computed once from its result (quality_computed = 1);
    -- rows finished before this migration are computed on first analytics read.
    ALTER TABLE extractions ADD COLUMN confidence REAL;
    ALTER TABLE extractions ADD COLUMN flag_count INTEGER;
    ALTER TABLE extractions ADD COLUMN validation_applied INTEGER;
    ALTER TABLE extractions ADD COLUMN violation_count INTEGER;
    ALTER TABLE extractions ADD COLUMN quality_computed INTEGER NOT NULL DEFAULT 0;
    UPDATE extractions SET quality_computed = 1 WHERE result IS NULL;
    CREATE INDEX extractions_quality_pending ON extractions(organization_id) WHERE quality_computed = 0;
  `,
};
