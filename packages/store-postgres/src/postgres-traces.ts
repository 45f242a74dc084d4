/**
 * Traces, spans and tracing settings (PLATFORM.md §13) on PostgreSQL: store-sqlite's
 * `TraceStore`, asynchronous. A batch of finished spans is written in one transaction of two
 * statements: one multi-row upsert of the batch's traces (each folded from its spans by the
 * shared `foldTraceSpans`, merged into a stored row the way the SQLite upsert merges) and one
 * multi-row insert of the spans. Traces are upserted in id order, so two processes writing
 * batches of the same traces lock them in the same order.
 */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import {
  DEFAULT_TRACING_SETTINGS,
  foldBatchTraces,
  int,
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
import { atomicallyOn } from "./postgres-family.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

/** What the traces family needs of the credential cipher (store-sqlite's `CredentialCipher` fits). */
export interface SecretCipher {
  readonly available: boolean;
  encrypt(plaintext: string, boundTo: string): string;
  decrypt(sealed: string, boundTo: string): string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per statement, under PostgreSQL's 65,535 parameters (20 per trace, 11 per span). */
const ROWS_PER_STATEMENT = 1_000;

/** With the root in the batch, its values win (else the stored ones); without it, the stored ones win. */
const rootOr = (column: string) =>
  `${column} = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN COALESCE(excluded.${column}, t.${column}) ELSE COALESCE(t.${column}, excluded.${column}) END`;
const rootWins = (column: string) =>
  `${column} = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.${column} ELSE t.${column} END`;
const MERGE_TRACE = `ON CONFLICT (id) DO UPDATE SET
    span_count = t.span_count + excluded.span_count,
    input_tokens = t.input_tokens + excluded.input_tokens,
    output_tokens = t.output_tokens + excluded.output_tokens,
    cost_eur = t.cost_eur + excluded.cost_eur,
    ${["session_id", "agent_id", "agent_name", "response_id", "request_id", "model"].map(rootOr).join(",\n    ")},
    ${["kind", "name", "status", "duration_ms"].map(rootWins).join(",\n    ")},
    start_time = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.start_time
      WHEN t.root_otel_span_id IS NULL THEN LEAST(t.start_time, excluded.start_time) ELSE t.start_time END,
    end_time = CASE WHEN excluded.root_otel_span_id IS NOT NULL THEN excluded.end_time
      WHEN t.root_otel_span_id IS NULL THEN GREATEST(t.end_time, excluded.end_time) ELSE t.end_time END,
    root_otel_span_id = COALESCE(excluded.root_otel_span_id, t.root_otel_span_id)`;

const SESSION_COLUMNS = `session_id, MAX(agent_id) AS agent_id, MAX(agent_name) AS agent_name, count(*) AS trace_count,
  MIN(start_time) AS first_trace_at, MAX(start_time) AS last_trace_at, SUM(input_tokens) AS input_tokens,
  SUM(output_tokens) AS output_tokens, SUM(cost_eur) AS cost_eur,
  SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS error_count`;

const EQUAL_FILTERS = [
  ["kind", "kind"],
  ["status", "status"],
  ["model", "model"],
  ["agent_id", "agentId"],
  ["session_id", "sessionId"],
] as const;

/** `VALUES` tuples of `rows` rows of `width` parameters each. */
function tuples(rows: number, width: number): string {
  const list: string[] = [];
  for (let row = 0; row < rows; row++) {
    const params: string[] = [];
    for (let column = 1; column <= width; column++) params.push(`$${row * width + column}`);
    list.push(`(${params.join(", ")})`);
  }
  return list.join(", ");
}

/** Positional parameters: `p(value)` adds one and answers its placeholder. */
function parameters(): { params: unknown[]; p: (value: unknown) => string } {
  const params: unknown[] = [];
  return { params, p: (value) => `$${params.push(value)}` };
}

export class PostgresTraceStore {
  constructor(
    private readonly client: SqlClient,
    private readonly cipher: SecretCipher,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** A unit of work over this client (the platform's `AtomicPort`; see postgres-family.ts). */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return atomicallyOn(this.client, work);
  }

  /** Whether export headers can be stored (they are encrypted under the master secret). */
  get canSealHeaders(): boolean {
    return this.cipher.available;
  }

  /** Writes a batch of finished spans (one transaction) and folds them into their traces. */
  async write(spans: readonly TraceSpanInput[]): Promise<void> {
    if (spans.length === 0) return;
    const traces = foldBatchTraces(spans).sort((a, b) => (a.id < b.id ? -1 : 1));
    const spanValues = spans.map((span) => spanRowValues(this.ids("spn"), span));
    await this.client.transaction(async (tx) => {
      for (let start = 0; start < traces.length; start += ROWS_PER_STATEMENT) {
        await this.upsertTraces(tx, traces.slice(start, start + ROWS_PER_STATEMENT));
      }
      for (let start = 0; start < spanValues.length; start += ROWS_PER_STATEMENT) {
        const chunk = spanValues.slice(start, start + ROWS_PER_STATEMENT);
        await tx.query(
          `INSERT INTO spans (${SPAN_COLUMNS.join(", ")}) VALUES ${tuples(chunk.length, SPAN_COLUMNS.length)}`,
          chunk.flat(),
        );
      }
    });
  }

  private async upsertTraces(tx: SqlQueryable, rows: readonly TraceRow[]): Promise<void> {
    await tx.query(
      `INSERT INTO traces AS t (${TRACE_COLUMNS.join(", ")}) VALUES ${tuples(rows.length, TRACE_COLUMNS.length)}
         ${MERGE_TRACE}`,
      rows.flatMap(traceRowValues),
    );
  }

  /** Traces whose root ended, newest first; `notBefore` (epoch ms) is the retention horizon. */
  async list(
    organizationId: string,
    filter: TraceFilter,
    notBefore: number,
    page: PageRequest,
  ): Promise<{ items: TraceRecord[]; total: number }> {
    const { params, p } = parameters();
    const where = [
      `organization_id = ${p(organizationId)}`,
      "root_otel_span_id IS NOT NULL",
      `start_time >= ${p(Math.max(notBefore, filter.from ?? notBefore))}`,
    ];
    for (const [column, key] of EQUAL_FILTERS) {
      const value = filter[key];
      if (value !== undefined) where.push(`${column} = ${p(value)}`);
    }
    if (filter.to !== undefined) where.push(`start_time < ${p(filter.to)}`);
    const clause = where.join(" AND ");
    const total = await this.count(`SELECT count(*) AS n FROM traces WHERE ${clause}`, params);
    const { rows } = await this.client.query<TraceRow>(
      `SELECT * FROM traces WHERE ${clause} ORDER BY start_time DESC, id DESC
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      params,
    );
    return { items: rows.map(toTrace), total };
  }

  /** A listed trace (root ended, within retention) of the organization, or null. */
  async get(organizationId: string, id: string, notBefore: number): Promise<TraceRecord | null> {
    const { rows } = await this.client.query<TraceRow>(
      "SELECT * FROM traces WHERE organization_id = $1 AND id = $2 AND root_otel_span_id IS NOT NULL AND start_time >= $3",
      [organizationId, id, notBefore],
    );
    return rows[0] === undefined ? null : toTrace(rows[0]);
  }

  /** Whether the organization has this trace (score subjects). */
  async exists(organizationId: string, id: string): Promise<boolean> {
    const { rows } = await this.client.query("SELECT 1 FROM traces WHERE organization_id = $1 AND id = $2", [
      organizationId,
      id,
    ]);
    return rows.length > 0;
  }

  /** The spans of a trace by start time. */
  async spans(traceId: string): Promise<SpanRecord[]> {
    const { rows } = await this.client.query<SpanRow>(
      "SELECT * FROM spans WHERE trace_id = $1 ORDER BY start_time, id",
      [traceId],
    );
    return rows.map(toSpan);
  }

  /** Sessions (traces with a conversation id), by their last trace, newest first. */
  async listSessions(
    organizationId: string,
    filter: SessionFilter,
    notBefore: number,
    page: PageRequest,
  ): Promise<{ items: TraceSessionRecord[]; total: number }> {
    const { params, p } = parameters();
    const where = [
      `organization_id = ${p(organizationId)}`,
      "root_otel_span_id IS NOT NULL",
      "session_id IS NOT NULL",
      `start_time >= ${p(notBefore)}`,
    ];
    if (filter.agentId !== undefined) where.push(`agent_id = ${p(filter.agentId)}`);
    const having: string[] = [];
    if (filter.from !== undefined) having.push(`MAX(start_time) >= ${p(filter.from)}`);
    if (filter.to !== undefined) having.push(`MAX(start_time) < ${p(filter.to)}`);
    const grouped = `SELECT ${SESSION_COLUMNS} FROM traces WHERE ${where.join(" AND ")} GROUP BY session_id${
      having.length === 0 ? "" : ` HAVING ${having.join(" AND ")}`
    }`;
    const total = await this.count(`SELECT count(*) AS n FROM (${grouped}) AS sessions`, params);
    const { rows } = await this.client.query<SessionRow>(
      `${grouped} ORDER BY last_trace_at DESC, session_id DESC LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      params,
    );
    return { items: rows.map(toSession), total };
  }

  /** One session with page 0 of its traces, oldest first (≤ `limit`); null without a trace. */
  async session(
    organizationId: string,
    sessionId: string,
    notBefore: number,
    limit: number,
  ): Promise<{ session: TraceSessionRecord; traces: TraceRecord[] } | null> {
    const clause =
      "organization_id = $1 AND session_id = $2 AND root_otel_span_id IS NOT NULL AND start_time >= $3";
    const params = [organizationId, sessionId, notBefore];
    const { rows } = await this.client.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM traces WHERE ${clause} GROUP BY session_id`,
      params,
    );
    if (rows[0] === undefined) return null;
    const traces = await this.client.query<TraceRow>(
      `SELECT * FROM traces WHERE ${clause} ORDER BY start_time, id LIMIT $4`,
      [...params, limit],
    );
    return { session: toSession(rows[0]), traces: traces.rows.map(toTrace) };
  }

  /** Deletes every trace older than its organization's retention; returns how many. */
  async deleteExpired(now: number = this.clock.now()): Promise<number> {
    return this.count(
      `WITH expired AS (
         DELETE FROM traces WHERE start_time < $1::double precision - $2::bigint * COALESCE(
           (SELECT retention_days FROM tracing_settings s WHERE s.organization_id = traces.organization_id), $3::integer)
         RETURNING 1)
       SELECT count(*) AS n FROM expired`,
      [now, DAY_MS, DEFAULT_TRACING_SETTINGS.retentionDays],
    );
  }

  // ---- settings ----

  /** The organization's settings (the defaults until it changes them). */
  async settings(organizationId: string): Promise<TracingSettingsRecord> {
    return toTracingSettings(organizationId, await this.settingsRow(organizationId));
  }

  private async settingsRow(organizationId: string): Promise<SettingsRow | undefined> {
    const { rows } = await this.client.query<SettingsRow>(
      "SELECT * FROM tracing_settings WHERE organization_id = $1",
      [organizationId],
    );
    return rows[0];
  }

  async updateSettings(
    organizationId: string,
    changes: TracingSettingsChanges,
  ): Promise<TracingSettingsRecord> {
    const row = await this.settingsRow(organizationId);
    const current = toTracingSettings(organizationId, row);
    let endpoint = current.export?.endpoint ?? null;
    let sealed = row?.export_headers_encrypted ?? null;
    let names = current.export?.headerNames ?? [];
    if (changes.export !== undefined) {
      endpoint = changes.export?.endpoint ?? null;
      const headers = changes.export?.headers ?? {};
      names = Object.keys(headers);
      sealed = names.length === 0 ? null : this.cipher.encrypt(JSON.stringify(headers), organizationId);
    }
    await this.client.query(
      `INSERT INTO tracing_settings (organization_id, enabled, sampling_rate, capture_content, retention_days,
           export_endpoint, export_headers_encrypted, export_header_names, export_failures, last_export_error, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (organization_id) DO UPDATE SET enabled = excluded.enabled, sampling_rate = excluded.sampling_rate,
           capture_content = excluded.capture_content, retention_days = excluded.retention_days,
           export_endpoint = excluded.export_endpoint, export_headers_encrypted = excluded.export_headers_encrypted,
           export_header_names = excluded.export_header_names, updated_at = excluded.updated_at`,
      [
        organizationId,
        changes.enabled ?? current.enabled,
        changes.samplingRate ?? current.samplingRate,
        changes.captureContent ?? current.captureContent,
        changes.retentionDays ?? current.retentionDays,
        endpoint,
        sealed,
        JSON.stringify(names),
        current.exportFailures,
        current.lastExportError,
        this.clock.now(),
      ],
    );
    return this.settings(organizationId);
  }

  /** The export endpoint with its decrypted headers (for the exporter only), or null. */
  async exportTarget(
    organizationId: string,
  ): Promise<{ endpoint: string; headers: Record<string, string> } | null> {
    const row = await this.settingsRow(organizationId);
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
  async recordExportFailure(organizationId: string, message: string): Promise<void> {
    await this.client.query(
      "UPDATE tracing_settings SET export_failures = export_failures + 1, last_export_error = $1 WHERE organization_id = $2",
      [message, organizationId],
    );
  }

  private async count(text: string, params: readonly unknown[]): Promise<number> {
    const { rows } = await this.client.query<{ n: unknown }>(text, params);
    return int(rows[0]?.n ?? 0);
  }
}
