/**
 * What instrumented code needs to trace: an OpenTelemetry tracer and whether an
 * organization captures content. Engines and platform services take this as a
 * collaborator and use only `@opentelemetry/api` through it; the platform composes
 * the recording implementation (per-organization settings, sampling, the trace store,
 * OTLP export) behind it.
 *
 * Contract for instrumented code:
 * - start a root span with `tracer.startActiveSpan(name, {attributes: {[GROUNDWORK.organizationId]: orgId,
 *   [GROUNDWORK.traceKind]: kind, …}}, fn)`; nested work started inside `fn` becomes its children
 *   through the active context (a context manager is registered when tracing is composed);
 * - set `gen_ai.input.messages` / `gen_ai.output.messages` only when `captureContent(orgId)` is true,
 *   as JSON cut to CONTENT_ATTRIBUTE_LIMIT; never a secret in any attribute;
 * - check `span.isRecording()` before building costly attributes;
 * - end every span (error: `span.setStatus({code: SpanStatusCode.ERROR, message})` and `error.type`).
 */
import { type Tracer, trace } from "@opentelemetry/api";

export interface TraceHooks {
  readonly tracer: Tracer;
  /** Whether prompt and completion text may be stored in this organization's traces (off by default). */
  captureContent(organizationId: string): boolean;
}

/**
 * No recording of our own: spans go to the application's global OpenTelemetry provider
 * if it registered one (as any instrumented library's do), else nowhere.
 */
export const GLOBAL_TRACE_HOOKS: TraceHooks = {
  tracer: trace.getTracer("@groundwork/platform"),
  captureContent: () => false,
};
