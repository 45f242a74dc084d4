/**
 * Usage records with their rollups, billing page counts, and traces with their spans and
 * tracing settings on PostgreSQL (migrations 40–42), mirroring store-sqlite's migrations 002,
 * 021, 022, 023 and 026 in their final shape, in PostgreSQL types: epoch-ms BIGINT timestamps,
 * DOUBLE PRECISION for SQLite's REAL (costs, latencies, trace times with fractions), BOOLEAN
 * flags. Text columns that are sorted or compared with MIN/MAX are `COLLATE "C"` (bytewise, as
 * SQLite). `organization_id` carries no foreign key until organizations move to this store
 * (decisions PG3, PG100–PG119).
 */
import type { PostgresMigration } from "../migrations.js";

export const usageAnalyticsBillingTracesMigrations: readonly PostgresMigration[] = [
  {
    version: 40,
    name: "usage records with hourly and daily rollups kept by a statement trigger",
    sql: `
      CREATE TABLE usage_records (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        api_key_id TEXT,
        model TEXT COLLATE "C" NOT NULL,
        surface TEXT NOT NULL CHECK (surface IN ('CHAT', 'VISION', 'EMBEDDINGS', 'RESPONSES', 'AUDIO')),
        byok BOOLEAN NOT NULL,
        prompt_tokens BIGINT NOT NULL,
        completion_tokens BIGINT NOT NULL,
        cached_tokens BIGINT,
        cost_eur DOUBLE PRECISION NOT NULL,
        latency_ms DOUBLE PRECISION NOT NULL,
        outcome TEXT NOT NULL,
        end_user TEXT,
        created_at BIGINT NOT NULL,
        error_code TEXT COLLATE "C",
        status INTEGER,
        -- SQLite: CAST(ln(max(latency_ms, 0) + 1) * 50 AS INTEGER), which truncates.
        latency_bin INTEGER GENERATED ALWAYS AS (trunc(ln(greatest(latency_ms, 0) + 1) * 50)::integer) STORED
      );
      CREATE INDEX usage_records_organization ON usage_records (organization_id, created_at);
      CREATE INDEX usage_records_latency ON usage_records (organization_id, latency_bin, created_at, latency_ms);
      CREATE INDEX usage_records_errors ON usage_records (organization_id, created_at, error_code, status)
        WHERE outcome = 'error';

      CREATE TABLE usage_hourly (
        organization_id TEXT NOT NULL,
        hour BIGINT NOT NULL,
        model TEXT COLLATE "C" NOT NULL,
        surface TEXT NOT NULL,
        byok BOOLEAN NOT NULL,
        requests BIGINT NOT NULL,
        errors BIGINT NOT NULL,
        prompt_tokens BIGINT NOT NULL,
        completion_tokens BIGINT NOT NULL,
        cost_eur DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (organization_id, hour, model, surface, byok)
      );
      CREATE TABLE usage_latency_hourly (
        organization_id TEXT NOT NULL,
        hour BIGINT NOT NULL,
        model TEXT COLLATE "C" NOT NULL,
        surface TEXT NOT NULL,
        byok BOOLEAN NOT NULL,
        latency_bin INTEGER NOT NULL,
        requests BIGINT NOT NULL,
        PRIMARY KEY (organization_id, hour, model, surface, byok, latency_bin)
      );
      CREATE TABLE usage_latency_daily (
        organization_id TEXT NOT NULL,
        day BIGINT NOT NULL,
        model TEXT COLLATE "C" NOT NULL,
        surface TEXT NOT NULL,
        byok BOOLEAN NOT NULL,
        latency_bin INTEGER NOT NULL,
        requests BIGINT NOT NULL,
        PRIMARY KEY (organization_id, day, model, surface, byok, latency_bin)
      );

      -- Usage rows are append-only, so insert-time rollups stay exact. One statement-level trigger
      -- folds a whole batch (the store writes one multi-row INSERT per batch) into one upsert per
      -- rollup table instead of three per row; rows are upserted in key order so two processes
      -- writing batches of the same hour lock rollup rows in the same order (no deadlock).
      CREATE FUNCTION usage_records_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO usage_hourly AS r (organization_id, hour, model, surface, byok, requests, errors,
            prompt_tokens, completion_tokens, cost_eur)
          SELECT organization_id, created_at - created_at % 3600000, model, surface, byok, count(*),
              count(*) FILTER (WHERE outcome = 'error'), sum(prompt_tokens), sum(completion_tokens), sum(cost_eur)
            FROM new_usage_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
          ON CONFLICT (organization_id, hour, model, surface, byok) DO UPDATE SET
            requests = r.requests + excluded.requests, errors = r.errors + excluded.errors,
            prompt_tokens = r.prompt_tokens + excluded.prompt_tokens,
            completion_tokens = r.completion_tokens + excluded.completion_tokens,
            cost_eur = r.cost_eur + excluded.cost_eur;
        INSERT INTO usage_latency_hourly AS r (organization_id, hour, model, surface, byok, latency_bin, requests)
          SELECT organization_id, created_at - created_at % 3600000, model, surface, byok, latency_bin, count(*)
            FROM new_usage_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
          ON CONFLICT (organization_id, hour, model, surface, byok, latency_bin) DO UPDATE SET
            requests = r.requests + excluded.requests;
        INSERT INTO usage_latency_daily AS r (organization_id, day, model, surface, byok, latency_bin, requests)
          SELECT organization_id, created_at - created_at % 86400000, model, surface, byok, latency_bin, count(*)
            FROM new_usage_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
          ON CONFLICT (organization_id, day, model, surface, byok, latency_bin) DO UPDATE SET
            requests = r.requests + excluded.requests;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER usage_records_rollup AFTER INSERT ON usage_records
        REFERENCING NEW TABLE AS new_usage_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_records_rollup();
    `,
  },
  {
    version: 41,
    name: "billing: converted pages per organization and UTC month",
    // One counter per organization and month (period_start = epoch ms of the UTC month's start).
    sql: `
      CREATE TABLE billing_page_counts (
        organization_id TEXT NOT NULL,
        period_start BIGINT NOT NULL,
        pages BIGINT NOT NULL,
        PRIMARY KEY (organization_id, period_start)
      );
    `,
  },
  {
    version: 42,
    name: "traces keyed by their recorder-given id, spans, per-organization tracing settings",
    // Store-sqlite 021 as 026 left it (no index on the random OTel trace id). Export headers are
    // one encrypted JSON object (credential cipher, bound to the organization id). JSON stays
    // TEXT: span attributes round-trip exactly (JSONB would refuse a \u0000 in captured content).
    sql: `
      CREATE TABLE tracing_settings (
        organization_id TEXT PRIMARY KEY,
        enabled BOOLEAN NOT NULL,
        sampling_rate DOUBLE PRECISION NOT NULL,
        capture_content BOOLEAN NOT NULL,
        retention_days INTEGER NOT NULL,
        export_endpoint TEXT,
        export_headers_encrypted TEXT,
        export_header_names TEXT NOT NULL DEFAULT '[]',
        export_failures INTEGER NOT NULL DEFAULT 0,
        last_export_error TEXT,
        updated_at BIGINT
      );
      CREATE TABLE traces (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        otel_trace_id TEXT NOT NULL,
        root_otel_span_id TEXT,
        kind TEXT,
        name TEXT,
        status TEXT NOT NULL DEFAULT 'ok',
        session_id TEXT COLLATE "C",
        agent_id TEXT COLLATE "C",
        agent_name TEXT COLLATE "C",
        model TEXT,
        response_id TEXT,
        request_id TEXT,
        start_time DOUBLE PRECISION NOT NULL,
        end_time DOUBLE PRECISION NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL DEFAULT 0,
        input_tokens BIGINT NOT NULL DEFAULT 0,
        output_tokens BIGINT NOT NULL DEFAULT 0,
        cost_eur DOUBLE PRECISION NOT NULL DEFAULT 0,
        span_count BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX traces_time ON traces (organization_id, start_time DESC, id DESC);
      CREATE INDEX traces_session ON traces (organization_id, session_id, start_time) WHERE session_id IS NOT NULL;
      CREATE INDEX traces_experiment ON traces (organization_id, otel_trace_id) WHERE kind = 'experiment';
      CREATE TABLE spans (
        id TEXT COLLATE "C" PRIMARY KEY,
        trace_id TEXT NOT NULL REFERENCES traces (id) ON DELETE CASCADE,
        otel_span_id TEXT NOT NULL,
        parent_otel_span_id TEXT,
        name TEXT NOT NULL,
        start_time DOUBLE PRECISION NOT NULL,
        end_time DOUBLE PRECISION NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        status_message TEXT,
        attributes TEXT NOT NULL
      );
      CREATE INDEX spans_trace ON spans (trace_id, start_time);
    `,
  },
];
