import type { Migration } from "./migration.js";

export const tracing: Migration = {
  version: 21,
  name: "traces, spans and per-organization tracing settings",
  sql: `
    -- One row per organization that changed its settings; the others use the defaults of
    -- PLATFORM.md §13. Export headers are one encrypted JSON object (credential cipher, bound
    -- to the organization id); only their names are kept in the clear.
    CREATE TABLE tracing_settings (
      organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      enabled INTEGER NOT NULL,
      sampling_rate REAL NOT NULL,
      capture_content INTEGER NOT NULL,
      retention_days INTEGER NOT NULL,
      export_endpoint TEXT,
      export_headers_encrypted TEXT,
      export_header_names TEXT NOT NULL DEFAULT '[]',
      export_failures INTEGER NOT NULL DEFAULT 0,
      last_export_error TEXT,
      updated_at INTEGER
    );
    -- A trace is assembled from its spans as they finish: counters and sums grow with each
    -- batch; the root's fields (kind, name, status, times) are set when the root ends, and
    -- only traces whose root ended are listed. Times are epoch ms with fractions.
    CREATE TABLE traces (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      otel_trace_id TEXT NOT NULL,
      root_otel_span_id TEXT,
      kind TEXT,
      name TEXT,
      status TEXT NOT NULL DEFAULT 'ok',
      session_id TEXT,
      agent_id TEXT,
      agent_name TEXT,
      model TEXT,
      response_id TEXT,
      request_id TEXT,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      duration_ms REAL NOT NULL DEFAULT 0,
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_eur REAL NOT NULL DEFAULT 0,
      span_count INTEGER NOT NULL DEFAULT 0,
      UNIQUE (organization_id, otel_trace_id)
    );
    CREATE INDEX traces_time ON traces(organization_id, start_time DESC, id DESC);
    CREATE INDEX traces_session ON traces(organization_id, session_id, start_time) WHERE session_id IS NOT NULL;
    CREATE TABLE spans (
      id TEXT PRIMARY KEY,
      trace_id TEXT NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
      otel_span_id TEXT NOT NULL,
      parent_otel_span_id TEXT,
      name TEXT NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      duration_ms REAL NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
      status_message TEXT,
      attributes TEXT NOT NULL
    );
    CREATE INDEX spans_trace ON spans(trace_id, start_time);
  `,
};
