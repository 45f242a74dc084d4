import type { Migration } from "./migration.js";

/**
 * Traces without the UNIQUE (organization_id, otel_trace_id) index: OTel trace ids are random,
 * and inserting into an index on a random key was the largest share of what tracing costs a
 * gateway call. The recorder now names each trace (`trc_…`, time-ordered) when its root starts,
 * so a trace's later batches merge on the primary key. Experiment results still find their
 * trace by OTel id, through a partial index over experiment traces only (decision TR33).
 *
 * SQLite cannot drop a table constraint, so both tables are rebuilt. Dropping `traces` while
 * `spans` still referenced it would cascade-delete the spans, so the new spans table is filled
 * first and the old one dropped before the old traces table.
 */
export const traceWritePath: Migration = {
  version: 26,
  name: "traces keyed by their recorder-given id (no index on the random OTel trace id)",
  sql: `
    CREATE TABLE traces_next (
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
      span_count INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO traces_next SELECT id, organization_id, otel_trace_id, root_otel_span_id, kind, name, status,
      session_id, agent_id, agent_name, model, response_id, request_id, start_time, end_time, duration_ms,
      input_tokens, output_tokens, cost_eur, span_count FROM traces;
    CREATE TABLE spans_next (
      id TEXT PRIMARY KEY,
      trace_id TEXT NOT NULL REFERENCES traces_next(id) ON DELETE CASCADE,
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
    INSERT INTO spans_next SELECT id, trace_id, otel_span_id, parent_otel_span_id, name, start_time, end_time,
      duration_ms, status, status_message, attributes FROM spans;
    DROP TABLE spans;
    DROP TABLE traces;
    ALTER TABLE traces_next RENAME TO traces;
    ALTER TABLE spans_next RENAME TO spans;
    CREATE INDEX traces_time ON traces(organization_id, start_time DESC, id DESC);
    CREATE INDEX traces_session ON traces(organization_id, session_id, start_time) WHERE session_id IS NOT NULL;
    CREATE INDEX traces_experiment ON traces(organization_id, otel_trace_id) WHERE kind = 'experiment';
    CREATE INDEX spans_trace ON spans(trace_id, start_time);
  `,
};
