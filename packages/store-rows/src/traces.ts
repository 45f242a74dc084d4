/**
 * Traces, spans and tracing settings (PLATFORM.md §13): the records, their rows and mappings,
 * and how one batch's spans of a trace fold into a trace row — shared by both stores, which
 * each merge that row into the stored one with their own SQL. Times are epoch ms with fractions
 * (REAL / DOUBLE PRECISION), counts BIGINT (strings from node-postgres), flags 0/1 or booleans.
 */
import { bool, int, intOrNull, json } from "./columns.js";

/** The attribute names the trace row is derived from (the GenAI table of observability). */
const ATTR = {
  operation: "gen_ai.operation.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  costEur: "groundwork.cost_eur",
  traceKind: "groundwork.trace.kind",
  responseId: "groundwork.response_id",
  requestId: "groundwork.request_id",
} as const;

/** Only model calls count towards a trace's tokens and cost (an agent root must not count twice). */
const METERED_OPERATIONS = new Set(["chat", "embeddings"]);

/** A finished span as the recorder hands it over (observability's FinishedSpan fits). */
export interface TraceSpanInput {
  organizationId: string;
  /** The trace's row id (`trc_…`), named by the recorder when the root started. */
  traceRecordId: string;
  /** The OpenTelemetry trace id (32 hex). */
  traceId: string;
  spanId: string;
  /** Null for the root of the trace. */
  parentSpanId: string | null;
  name: string;
  startTime: number;
  endTime: number;
  durationMs: number;
  status: "ok" | "error";
  statusMessage: string | null;
  attributes: Readonly<Record<string, unknown>>;
}

export interface TraceRecord {
  id: string;
  organizationId: string;
  otelTraceId: string;
  kind: string | null;
  name: string | null;
  status: "ok" | "error";
  sessionId: string | null;
  agentId: string | null;
  agentName: string | null;
  model: string | null;
  responseId: string | null;
  requestId: string | null;
  startTime: number;
  endTime: number;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  costEur: number;
  spanCount: number;
}

export interface SpanRecord {
  id: string;
  traceId: string;
  otelSpanId: string;
  parentOtelSpanId: string | null;
  name: string;
  startTime: number;
  endTime: number;
  durationMs: number;
  status: "ok" | "error";
  statusMessage: string | null;
  attributes: Record<string, unknown>;
}

export interface TraceFilter {
  /** Epoch ms, inclusive (on the trace's start). */
  from?: number | undefined;
  /** Epoch ms, exclusive. */
  to?: number | undefined;
  kind?: string | undefined;
  status?: string | undefined;
  model?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
}

export interface SessionFilter {
  /** Epoch ms, inclusive (on the session's last trace). */
  from?: number | undefined;
  to?: number | undefined;
  agentId?: string | undefined;
}

export interface TraceSessionRecord {
  sessionId: string;
  agentId: string | null;
  agentName: string | null;
  traceCount: number;
  firstTraceAt: number;
  lastTraceAt: number;
  inputTokens: number;
  outputTokens: number;
  costEur: number;
  errorCount: number;
}

export interface TracingSettingsRecord {
  organizationId: string;
  enabled: boolean;
  samplingRate: number;
  captureContent: boolean;
  retentionDays: number;
  export: { endpoint: string; headerNames: string[] } | null;
  exportFailures: number;
  lastExportError: string | null;
  updatedAt: number | null;
}

export interface TracingSettingsChanges {
  enabled?: boolean;
  samplingRate?: number;
  captureContent?: boolean;
  retentionDays?: number;
  /** Replaces the export (headers included); null removes it. */
  export?: { endpoint: string; headers: Record<string, string> } | null;
}

export const DEFAULT_TRACING_SETTINGS = {
  enabled: true,
  samplingRate: 1,
  captureContent: false,
  retentionDays: 30,
} as const;

export interface TraceRow {
  id: string;
  organization_id: string;
  otel_trace_id: string;
  root_otel_span_id: string | null;
  kind: string | null;
  name: string | null;
  status: "ok" | "error";
  session_id: string | null;
  agent_id: string | null;
  agent_name: string | null;
  model: string | null;
  response_id: string | null;
  request_id: string | null;
  start_time: number;
  end_time: number;
  duration_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_eur: number;
  span_count: number;
}

export interface SpanRow {
  id: string;
  trace_id: string;
  otel_span_id: string;
  parent_otel_span_id: string | null;
  name: string;
  start_time: number;
  end_time: number;
  duration_ms: number;
  status: "ok" | "error";
  status_message: string | null;
  attributes: string;
}

export interface SettingsRow {
  organization_id: string;
  enabled: number | boolean;
  sampling_rate: number;
  capture_content: number | boolean;
  retention_days: number;
  export_endpoint: string | null;
  export_headers_encrypted: string | null;
  export_header_names: string;
  export_failures: number;
  last_export_error: string | null;
  updated_at: number | null;
}

export const toTrace = (row: TraceRow): TraceRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  otelTraceId: row.otel_trace_id,
  kind: row.kind,
  name: row.name,
  status: row.status,
  sessionId: row.session_id,
  agentId: row.agent_id,
  agentName: row.agent_name,
  model: row.model,
  responseId: row.response_id,
  requestId: row.request_id,
  startTime: Number(row.start_time),
  endTime: Number(row.end_time),
  durationMs: Number(row.duration_ms),
  inputTokens: int(row.input_tokens),
  outputTokens: int(row.output_tokens),
  costEur: Number(row.cost_eur),
  spanCount: int(row.span_count),
});

export const toSpan = (row: SpanRow): SpanRecord => ({
  id: row.id,
  traceId: row.trace_id,
  otelSpanId: row.otel_span_id,
  parentOtelSpanId: row.parent_otel_span_id,
  name: row.name,
  startTime: Number(row.start_time),
  endTime: Number(row.end_time),
  durationMs: Number(row.duration_ms),
  status: row.status,
  statusMessage: row.status_message,
  attributes: json<Record<string, unknown>>(row.attributes),
});

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

type FillKey = "session_id" | "agent_id" | "agent_name" | "response_id" | "request_id" | "model";

/**
 * Folds one batch's spans of a trace into a row (the root's values win, a child fills what is
 * still unknown); the store merges it into the stored row the same way (its upsert): a batch with
 * the root sets the root's fields, counters and sums add up.
 */
export function foldTraceSpans(spans: readonly TraceSpanInput[]): TraceRow {
  const first = spans[0] as TraceSpanInput;
  const row: TraceRow = {
    id: first.traceRecordId,
    organization_id: first.organizationId,
    otel_trace_id: first.traceId,
    root_otel_span_id: null,
    kind: null,
    name: null,
    status: "ok",
    session_id: null,
    agent_id: null,
    agent_name: null,
    model: null,
    response_id: null,
    request_id: null,
    start_time: first.startTime,
    end_time: first.endTime,
    duration_ms: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost_eur: 0,
    span_count: 0,
  };
  for (const span of spans) {
    const a = span.attributes;
    const metered = METERED_OPERATIONS.has(a[ATTR.operation] as string);
    const isRoot = span.parentSpanId === null;
    row.span_count += 1;
    if (metered) {
      row.input_tokens += count(a[ATTR.inputTokens]);
      row.output_tokens += count(a[ATTR.outputTokens]);
      row.cost_eur += count(a[ATTR.costEur]);
    }
    const fill = (key: FillKey, value: string | null) => {
      if (value !== null && (isRoot || row[key] === null)) row[key] = value;
    };
    fill("session_id", text(a[ATTR.conversationId]));
    fill("agent_id", text(a[ATTR.agentId]));
    fill("agent_name", text(a[ATTR.agentName]));
    fill("response_id", text(a[ATTR.responseId]));
    fill("request_id", text(a[ATTR.requestId]));
    if (isRoot || metered) fill("model", text(a[ATTR.requestModel]) ?? text(a[ATTR.responseModel]));
    if (isRoot) {
      row.root_otel_span_id = span.spanId;
      row.kind = text(a[ATTR.traceKind]);
      row.name = span.name;
      row.status = span.status;
      row.start_time = span.startTime;
      row.end_time = span.endTime;
      row.duration_ms = span.durationMs;
    } else if (row.root_otel_span_id === null) {
      row.start_time = Math.min(row.start_time, span.startTime);
      row.end_time = Math.max(row.end_time, span.endTime);
    }
  }
  return row;
}

/** An organization's settings from its row, or the defaults when it has none. */
export function toTracingSettings(
  organizationId: string,
  row: SettingsRow | undefined,
): TracingSettingsRecord {
  if (row === undefined) {
    return {
      organizationId,
      ...DEFAULT_TRACING_SETTINGS,
      export: null,
      exportFailures: 0,
      lastExportError: null,
      updatedAt: null,
    };
  }
  return {
    organizationId,
    enabled: bool(row.enabled),
    samplingRate: Number(row.sampling_rate),
    captureContent: bool(row.capture_content),
    retentionDays: int(row.retention_days),
    export:
      row.export_endpoint === null
        ? null
        : { endpoint: row.export_endpoint, headerNames: json<string[]>(row.export_header_names) },
    exportFailures: int(row.export_failures),
    lastExportError: row.last_export_error,
    updatedAt: intOrNull(row.updated_at),
  };
}

/** The trace columns, in the order of `traceRowValues`. */
export const TRACE_COLUMNS = [
  "id",
  "organization_id",
  "otel_trace_id",
  "root_otel_span_id",
  "kind",
  "name",
  "status",
  "session_id",
  "agent_id",
  "agent_name",
  "model",
  "response_id",
  "request_id",
  "start_time",
  "end_time",
  "duration_ms",
  "input_tokens",
  "output_tokens",
  "cost_eur",
  "span_count",
] as const;

export const traceRowValues = (row: TraceRow): unknown[] => TRACE_COLUMNS.map((column) => row[column]);

/** One batch's spans folded into a row per trace (by the recorder's id), in the order first seen. */
export function foldBatchTraces(spans: readonly TraceSpanInput[]): TraceRow[] {
  const byTrace = new Map<string, TraceSpanInput[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceRecordId);
    if (list === undefined) byTrace.set(span.traceRecordId, [span]);
    else list.push(span);
  }
  return [...byTrace.values()].map(foldTraceSpans);
}

/** The written columns of `spans`, in the order of `spanRowValues`. */
export const SPAN_COLUMNS = [
  "id",
  "trace_id",
  "otel_span_id",
  "parent_otel_span_id",
  "name",
  "start_time",
  "end_time",
  "duration_ms",
  "status",
  "status_message",
  "attributes",
] as const;

/** A finished span's values in `SPAN_COLUMNS` order, under the stored id `id`. */
export const spanRowValues = (id: string, span: TraceSpanInput): unknown[] => [
  id,
  span.traceRecordId,
  span.spanId,
  span.parentSpanId,
  span.name,
  span.startTime,
  span.endTime,
  span.durationMs,
  span.status,
  span.statusMessage,
  JSON.stringify(span.attributes),
];

export interface SessionRow {
  session_id: string;
  agent_id: string | null;
  agent_name: string | null;
  trace_count: number;
  first_trace_at: number;
  last_trace_at: number;
  input_tokens: number;
  output_tokens: number;
  cost_eur: number;
  error_count: number;
}

export const toSession = (row: SessionRow): TraceSessionRecord => ({
  sessionId: row.session_id,
  agentId: row.agent_id,
  agentName: row.agent_name,
  traceCount: int(row.trace_count),
  firstTraceAt: Number(row.first_trace_at),
  lastTraceAt: Number(row.last_trace_at),
  inputTokens: int(row.input_tokens),
  outputTokens: int(row.output_tokens),
  costEur: Number(row.cost_eur),
  errorCount: int(row.error_count),
});
