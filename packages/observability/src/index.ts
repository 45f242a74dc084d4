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
export { gatewaySpanAttributes, withGatewaySpanAttributes } from "./tracing/gateway-span-context.js";
export {
  CONTENT_ATTRIBUTE_LIMIT,
  GEN_AI,
  GROUNDWORK,
  type TraceKind,
} from "./tracing/gen-ai-attributes.js";
export { GLOBAL_TRACE_HOOKS, type TraceHooks } from "./tracing/trace-hooks.js";
