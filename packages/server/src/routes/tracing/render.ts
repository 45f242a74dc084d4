/** Tracing resources as the API shows them (PLATFORM.md §13): ISO timestamps, no organization id. */
import type { SpanNode, TraceDetail } from "@groundwork/platform";
import type { TraceRecord, TraceSessionRecord, TracingSettingsRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

export function renderTracingSettings(settings: TracingSettingsRecord) {
  return {
    enabled: settings.enabled,
    samplingRate: settings.samplingRate,
    captureContent: settings.captureContent,
    retentionDays: settings.retentionDays,
    export:
      settings.export === null
        ? null
        : { endpoint: settings.export.endpoint, headerNames: settings.export.headerNames },
    exportFailures: settings.exportFailures,
    lastExportError: settings.lastExportError,
    updatedAt: settings.updatedAt === null ? null : iso(settings.updatedAt),
  };
}

export function renderTrace(trace: TraceRecord) {
  return {
    id: trace.id,
    otelTraceId: trace.otelTraceId,
    kind: trace.kind,
    name: trace.name,
    status: trace.status,
    sessionId: trace.sessionId,
    agentId: trace.agentId,
    model: trace.model,
    responseId: trace.responseId,
    requestId: trace.requestId,
    startTime: iso(trace.startTime),
    endTime: iso(trace.endTime),
    durationMs: trace.durationMs,
    inputTokens: trace.inputTokens,
    outputTokens: trace.outputTokens,
    costEur: trace.costEur,
    spanCount: trace.spanCount,
  };
}

type RenderedSpan = ReturnType<typeof renderSpanFields> & { children: RenderedSpan[] };

function renderSpanFields(span: SpanNode) {
  return {
    id: span.id,
    otelSpanId: span.otelSpanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    startTime: iso(span.startTime),
    endTime: iso(span.endTime),
    durationMs: span.durationMs,
    status: span.status,
    statusMessage: span.statusMessage,
    attributes: span.attributes,
  };
}

export function renderSpan(span: SpanNode): RenderedSpan {
  return { ...renderSpanFields(span), children: span.children.map(renderSpan) };
}

export function renderTraceDetail(trace: TraceDetail) {
  return { ...renderTrace(trace), spans: trace.spans.map(renderSpan) };
}

export function renderTraceSession(session: TraceSessionRecord) {
  return {
    sessionId: session.sessionId,
    agentId: session.agentId,
    agentName: session.agentName,
    traceCount: session.traceCount,
    firstTraceAt: iso(session.firstTraceAt),
    lastTraceAt: iso(session.lastTraceAt),
    inputTokens: session.inputTokens,
    outputTokens: session.outputTokens,
    costEur: session.costEur,
    errorCount: session.errorCount,
  };
}
