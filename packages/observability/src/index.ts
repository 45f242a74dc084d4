/**
 * @groundwork/observability: tracing (OpenTelemetry GenAI spans), analytics and billing
 * as pure engines over ports; the platform package composes them with the store.
 */

export { gatewaySpanAttributes, withGatewaySpanAttributes } from "./tracing/gateway-span-context.js";
export {
  CONTENT_ATTRIBUTE_LIMIT,
  GEN_AI,
  GROUNDWORK,
  type TraceKind,
} from "./tracing/gen-ai-attributes.js";
export {
  EXPORT_BATCH_SPANS,
  type ExportTarget,
  type OtlpExporterOptions,
  OtlpTraceExporter,
} from "./tracing/otlp-exporter.js";
export {
  createRecordingTracing,
  ensureContextManager,
  type FinishedSpan,
  type RecordingTracing,
  type RecordingTracingOptions,
  type SpanSink,
  sampledByRate,
  type TracingPolicy,
} from "./tracing/recording-tracer.js";
export { traceRequestId, withTraceRequestId } from "./tracing/request-id-context.js";
export { GLOBAL_TRACE_HOOKS, type TraceHooks } from "./tracing/trace-hooks.js";
