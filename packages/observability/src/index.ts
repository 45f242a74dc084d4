/**
 * @groundwork/observability: tracing (OpenTelemetry GenAI spans), analytics and billing
 * as pure engines over ports; the platform package composes them with the store.
 */

export { providerOf, rate, roundEur } from "./analytics/analytics-measures.js";
export {
  type AnalyticsRange,
  DEFAULT_SPAN_MS,
  MAX_HOURLY_SPAN_MS,
  MAX_SPAN_MS,
  parseInstant,
  type RangeQuery,
  resolveAnalyticsRange,
} from "./analytics/analytics-range.js";
export { type ExtractionQuality, extractionQuality } from "./analytics/extraction-quality.js";
export { type BinPosition, locateRank, nearestRank, nearestRankIndex } from "./analytics/nearest-rank.js";
export {
  type AnalyticsBucket,
  alignedBuckets,
  bucketMs,
  bucketStart,
  DAY_MS,
  HOUR_MS,
} from "./analytics/time-buckets.js";
export { type BillingDecision, decide } from "./billing/billing-decision.js";
export {
  type BillingAllowance,
  BillingLedger,
  type BillingLedgerOptions,
  type BillingMeter,
  type CheckResult,
  createBillingAllowance,
  type LimitStatus,
  type TierView,
} from "./billing/billing-ledger.js";
export {
  type BillingWindow,
  minuteWindow,
  monthWindow,
  secondsToNextMinute,
} from "./billing/billing-period.js";
export {
  BILLING_RESOURCE_INFO,
  BILLING_RESOURCES,
  BILLING_TIERS,
  type BillingPeriod,
  type BillingReason,
  type BillingResource,
  type BillingResourceInfo,
  type BillingTier,
  type BillingUnit,
  includedUsageEur,
  isBillingResource,
  resolveTiers,
  type TierLimits,
  type TierOverrides,
} from "./billing/billing-tiers.js";
export { RequestWindow } from "./billing/request-window.js";
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
