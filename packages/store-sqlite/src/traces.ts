/**
 * Traces, spans and tracing settings (PLATFORM.md §13). Finished spans arrive in batches
 * from the recording tracer (already off the request path); each batch is written in one
 * transaction, which also folds the spans into their trace rows: counts and sums grow, and
 * the root's span fills the trace's own fields. Retention, validation and the span tree are
 * the platform's tracing service's business; this store reads and writes rows.
 */

import type { Clock, IdGenerator } from "@groundwork/core";
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  DEFAULT_TRACING_SETTINGS,
  foldBatchTraces,
  type SessionFilter,
  type SessionRow,
  type SettingsRow,
  SPAN_COLUMNS,
  type SpanRecord,
  type SpanRow,
  spanRowValues,
  TRACE_COLUMNS,
  type TraceFilter,
  type TraceRecord,
  type TraceRow,
  type TraceSessionRecord,
  type TraceSpanInput,
  type TracingSettingsChanges,
  type TracingSettingsRecord,
  toSession,
  toSpan,
  toTrace,
  toTracingSettings,
  traceRowValues,
} from "@groundwork/store-rows";
import type { Database } from "better-sqlite3";
import type { CredentialCipher } from "./credential-cipher.js";
import { insertRows, type MultiRowInsert } from "./multi-row-insert.js";
import { SqliteStore } from "./sqlite-store.js";

export {
  DEFAULT_TRACING_SETTINGS,
  type SessionFilter,
  type SpanRecord,
  type TraceFilter,
  type TraceRecord,
  type TraceSessionRecord,
  type TraceSpanInput,
  type TracingSettingsChanges,
  type TracingSettingsRecord,
} from "@groundwork/store-rows";

const DAY_MS = 24 * 60 * 60 * 1000;

/** With the root in the batch, its values win (else the stored ones); without it, the stored ones win. */
const rootOr = (column: string) =>
  `${column} = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN COALESCE(excluded.${column}, ${column}) ELSE COALESCE(${column}, excluded.${column}) END`;
const INSERT_NEW_TRACES: MultiRowInsert = {
  table: "traces",
  columns: TRACE_COLUMNS,
  onConflict: "ON CONFLICT (id) DO NOTHING",
  returning: "id",
};
const INSERT_SPANS: MultiRowInsert = { table: "spans", columns: SPAN_COLUMNS };
const UPSERT_TRACE = `INSERT INTO traces (id, organization_id, otel_trace_id, root_otel_span_id, kind, name, status,
    session_id, agent_id, agent_name, model, response_id, request_id, start_time, end_time, duration_ms, input_tokens,
    output_tokens, cost_eur, span_count)
  VALUES (@id, @organization_id, @otel_trace_id, @root_otel_span_id, @kind, @name, @status, @session_id, @agent_id,
    @agent_name, @model, @response_id, @request_id, @start_time, @end_time, @duration_ms, @input_tokens,
    @output_tokens, @cost_eur, @span_count)
  ON CONFLICT (id) DO UPDATE SET
    span_count = span_count + excluded.span_count,
    input_tokens = input_tokens + excluded.input_tokens,
    output_tokens = output_tokens + excluded.output_tokens,
    cost_eur = cost_eur + excluded.cost_eur,
    ${["session_id", "agent_id", "agent_name", "response_id", "request_id", "model"].map(rootOr).join(",\n    ")},
    kind = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.kind ELSE kind END,
    name = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.name ELSE name END,
    status = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.status ELSE status END,
    duration_ms = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.duration_ms ELSE duration_ms END,
    start_time = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.start_time
      WHEN root_otel_span_id IS NULL THEN MIN(start_time, excluded.start_time) ELSE start_time END,
    end_time = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.end_time
      WHEN root_otel_span_id IS NULL THEN MAX(end_time, excluded.end_time) ELSE end_time END,
    root_otel_span_id = COALESCE(excluded.root_otel_span_id, root_otel_span_id)`;

const EQUAL_FILTERS = [
  ["kind", "kind"],
  ["status", "status"],
  ["model", "model"],
  ["agent_id", "agentId"],
  ["session_id", "sessionId"],
] as const;

export class TraceStore extends SqliteStore {
  private readonly writeBatch: (spans: readonly TraceSpanInput[]) => void;

  constructor(
    db: Database,
    private readonly cipher: CredentialCipher,
    clock?: Clock,
    ids?: IdGenerator,
  ) {
    super(db, clock, ids);
    this.writeBatch = db.transaction((spans: readonly TraceSpanInput[]) => this.writeSpans(spans));
  }

  /** Whether export headers can be stored (they are encrypted under the master secret). */
  get canSealHeaders(): boolean {
    return this.cipher.available;
  }

  /** Writes a batch of finished spans (one transaction) and folds them into their traces. */
  write(spans: readonly TraceSpanInput[]): void {
    if (spans.length === 0 || !this.db.open) return;
    this.writeBatch(spans);
  }

  /**
   * Folds each trace's spans of the batch into a row (the root's values win, a child fills what
   * is still unknown) and merges it into the stored row, the same way: a batch with the root
   * sets the root's fields, counters and sums add up. Most traces arrive whole in one batch (a
   * gateway call is one span), so every row is first inserted (many to a statement, HP56) and
   * the merging upsert runs only for the traces stored before (a long agent run's later batches).
   */
  private writeSpans(spans: readonly TraceSpanInput[]): void {
    const rows = foldBatchTraces(spans);
    const inserted = new Set(
      insertRows<TraceRow, { id: string }>(this.sql, INSERT_NEW_TRACES, rows, traceRowValues).map(
        (row) => row.id,
      ),
    );
    for (const row of rows) if (!inserted.has(row.id)) this.sql(UPSERT_TRACE).run(row);
    insertRows(this.sql, INSERT_SPANS, spans, (span) => spanRowValues(this.ids("spn"), span));
  }

  /** Traces whose root ended, newest first; `notBefore` (epoch ms) is the retention horizon. */
  list(
    organizationId: string,
    filter: TraceFilter,
    notBefore: number,
    page: PageRequest,
  ): { items: TraceRecord[]; total: number } {
    const where = ["organization_id = ?", "root_otel_span_id IS NOT NULL", "start_time >= ?"];
    const params: unknown[] = [organizationId, Math.max(notBefore, filter.from ?? notBefore)];
    for (const [column, key] of EQUAL_FILTERS) {
      const value = filter[key];
      if (value !== undefined) {
        where.push(`${column} = ?`);
        params.push(value);
      }
    }
    if (filter.to !== undefined) {
      where.push("start_time < ?");
      params.push(filter.to);
    }
    const clause = where.join(" AND ");
    const total = (
      this.sql(`SELECT count(*) AS n FROM traces WHERE ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT * FROM traces WHERE ${clause} ORDER BY start_time DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as TraceRow[];
    return { items: rows.map(toTrace), total };
  }

  /** A listed trace (root ended, within retention) of the organization, or null. */
  get(organizationId: string, id: string, notBefore: number): TraceRecord | null {
    const row = this.sql(
      "SELECT * FROM traces WHERE organization_id = ? AND id = ? AND root_otel_span_id IS NOT NULL AND start_time >= ?",
    ).get(organizationId, id, notBefore) as TraceRow | undefined;
    return row === undefined ? null : toTrace(row);
  }

  /** Whether the organization has this trace (score subjects). */
  exists(organizationId: string, id: string): boolean {
    return (
      this.sql("SELECT 1 FROM traces WHERE organization_id = ? AND id = ?").get(organizationId, id) !==
      undefined
    );
  }

  /** The spans of a trace by start time. */
  spans(traceId: string): SpanRecord[] {
    const rows = this.sql("SELECT * FROM spans WHERE trace_id = ? ORDER BY start_time, id").all(
      traceId,
    ) as SpanRow[];
    return rows.map(toSpan);
  }

  /** Sessions (traces with a conversation id), by their last trace, newest first. */
  listSessions(
    organizationId: string,
    filter: SessionFilter,
    notBefore: number,
    page: PageRequest,
  ): { items: TraceSessionRecord[]; total: number } {
    const where = [
      "organization_id = ?",
      "root_otel_span_id IS NOT NULL",
      "session_id IS NOT NULL",
      "start_time >= ?",
    ];
    const params: unknown[] = [organizationId, notBefore];
    if (filter.agentId !== undefined) {
      where.push("agent_id = ?");
      params.push(filter.agentId);
    }
    const having: string[] = [];
    const havingParams: unknown[] = [];
    if (filter.from !== undefined) {
      having.push("MAX(start_time) >= ?");
      havingParams.push(filter.from);
    }
    if (filter.to !== undefined) {
      having.push("MAX(start_time) < ?");
      havingParams.push(filter.to);
    }
    const grouped = `SELECT ${SESSION_COLUMNS} FROM traces WHERE ${where.join(" AND ")} GROUP BY session_id${
      having.length === 0 ? "" : ` HAVING ${having.join(" AND ")}`
    }`;
    const all = [...params, ...havingParams];
    const total = (this.sql(`SELECT count(*) AS n FROM (${grouped})`).get(...all) as { n: number }).n;
    const rows = this.sql(`${grouped} ORDER BY last_trace_at DESC, session_id DESC LIMIT ? OFFSET ?`).all(
      ...all,
      page.size,
      pageOffset(page),
    ) as SessionRow[];
    return { items: rows.map(toSession), total };
  }

  /** One session with page 0 of its traces, oldest first (≤ `limit`); null without a trace. */
  session(
    organizationId: string,
    sessionId: string,
    notBefore: number,
    limit: number,
  ): { session: TraceSessionRecord; traces: TraceRecord[] } | null {
    const clause =
      "organization_id = ? AND session_id = ? AND root_otel_span_id IS NOT NULL AND start_time >= ?";
    const row = this.sql(`SELECT ${SESSION_COLUMNS} FROM traces WHERE ${clause} GROUP BY session_id`).get(
      organizationId,
      sessionId,
      notBefore,
    ) as SessionRow | undefined;
    if (row === undefined) return null;
    const traces = this.sql(`SELECT * FROM traces WHERE ${clause} ORDER BY start_time, id LIMIT ?`).all(
      organizationId,
      sessionId,
      notBefore,
      limit,
    ) as TraceRow[];
    return { session: toSession(row), traces: traces.map(toTrace) };
  }

  /** Deletes every trace older than its organization's retention; returns how many. */
  deleteExpired(now: number = this.clock.now()): number {
    return this.sql(
      `DELETE FROM traces WHERE start_time < ? - ? * COALESCE(
         (SELECT retention_days FROM tracing_settings s WHERE s.organization_id = traces.organization_id), ?)`,
    ).run(now, DAY_MS, DEFAULT_TRACING_SETTINGS.retentionDays).changes;
  }

  // ---- settings ----

  /** The organization's settings (the defaults until it changes them). */
  settings(organizationId: string): TracingSettingsRecord {
    const row = this.sql("SELECT * FROM tracing_settings WHERE organization_id = ?").get(organizationId) as
      | SettingsRow
      | undefined;
    return toTracingSettings(organizationId, row);
  }

  updateSettings(organizationId: string, changes: TracingSettingsChanges): TracingSettingsRecord {
    const current = this.settings(organizationId);
    const row = this.sql("SELECT * FROM tracing_settings WHERE organization_id = ?").get(organizationId) as
      | SettingsRow
      | undefined;
    let endpoint = current.export?.endpoint ?? null;
    let sealed = row?.export_headers_encrypted ?? null;
    let names = current.export?.headerNames ?? [];
    if (changes.export !== undefined) {
      endpoint = changes.export?.endpoint ?? null;
      const headers = changes.export?.headers ?? {};
      names = Object.keys(headers);
      sealed = names.length === 0 ? null : this.cipher.encrypt(JSON.stringify(headers), organizationId);
    }
    this.sql(
      `INSERT INTO tracing_settings (organization_id, enabled, sampling_rate, capture_content, retention_days,
           export_endpoint, export_headers_encrypted, export_header_names, export_failures, last_export_error, updated_at)
         VALUES (@organizationId, @enabled, @samplingRate, @captureContent, @retentionDays, @endpoint, @sealed, @names,
           @exportFailures, @lastExportError, @updatedAt)
         ON CONFLICT (organization_id) DO UPDATE SET enabled = excluded.enabled, sampling_rate = excluded.sampling_rate,
           capture_content = excluded.capture_content, retention_days = excluded.retention_days,
           export_endpoint = excluded.export_endpoint, export_headers_encrypted = excluded.export_headers_encrypted,
           export_header_names = excluded.export_header_names, updated_at = excluded.updated_at`,
    ).run({
      organizationId,
      enabled: (changes.enabled ?? current.enabled) ? 1 : 0,
      samplingRate: changes.samplingRate ?? current.samplingRate,
      captureContent: (changes.captureContent ?? current.captureContent) ? 1 : 0,
      retentionDays: changes.retentionDays ?? current.retentionDays,
      endpoint,
      sealed,
      names: JSON.stringify(names),
      exportFailures: current.exportFailures,
      lastExportError: current.lastExportError,
      updatedAt: this.clock.now(),
    });
    return this.settings(organizationId);
  }

  /** The export endpoint with its decrypted headers (for the exporter only), or null. */
  exportTarget(organizationId: string): { endpoint: string; headers: Record<string, string> } | null {
    const row = this.sql(
      "SELECT export_endpoint, export_headers_encrypted FROM tracing_settings WHERE organization_id = ?",
    ).get(organizationId) as Pick<SettingsRow, "export_endpoint" | "export_headers_encrypted"> | undefined;
    if (row?.export_endpoint == null) return null;
    const headers =
      row.export_headers_encrypted === null
        ? {}
        : (JSON.parse(this.cipher.decrypt(row.export_headers_encrypted, organizationId)) as Record<
            string,
            string
          >);
    return { endpoint: row.export_endpoint, headers };
  }

  /** Counts one failed export attempt. */
  recordExportFailure(organizationId: string, message: string): void {
    this.sql(
      "UPDATE tracing_settings SET export_failures = export_failures + 1, last_export_error = ? WHERE organization_id = ?",
    ).run(message, organizationId);
  }
}

const SESSION_COLUMNS = `session_id, MAX(agent_id) AS agent_id, MAX(agent_name) AS agent_name, count(*) AS trace_count,
  MIN(start_time) AS first_trace_at, MAX(start_time) AS last_trace_at, SUM(input_tokens) AS input_tokens,
  SUM(output_tokens) AS output_tokens, SUM(cost_eur) AS cost_eur,
  SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS error_count`;
