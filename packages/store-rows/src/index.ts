/**
 * The rows both SQL stores read and write (issue #24). A table's row type and its mapping to
 * the platform's record live here once, so the SQLite store and the PostgreSQL store answer
 * the same values: both keep the same logical column values (timestamps as epoch ms, JSON as
 * text or JSONB parsed to the same value, blobs as bytes), and each store only writes its own
 * SQL. One module per store family; this index re-exports them.
 */

export * from "./agents.js";
export {
  type ErrorGroup,
  type ExtractionAnalyticsFilter,
  type ExtractionGrouping,
  type ExtractionStats,
  type HumanScoreFilter,
  type HumanScoreStats,
  type LatencyBinCount,
  splitRange,
  type TimeRange,
  toErrorGroup,
  toExtractionStats,
  toHumanScoreStats,
  toLatencyBinCount,
  toUsageTotals,
  type UsageFilter,
  type UsageGrouping,
  type UsageTotals,
} from "./analytics.js";
export * from "./annotation-queues.js";
export {
  API_KEY_PREFIX,
  type ApiKeyRecord,
  type ApiKeyRow,
  hashApiKey,
  LAST_USED_RESOLUTION_MS,
  newApiKey,
  SHOWN_PREFIX_LENGTH,
  toApiKey,
  toPrincipal,
  type VerifiedKeyRow,
} from "./api-keys.js";
export * from "./bash-files.js";
export { bool, int, intOrNull, json } from "./columns.js";
export * from "./connectors.js";
export * from "./conversations.js";
export {
  type ConversionTask,
  type ConversionTaskInput,
  type ConversionTaskInputRow,
  type ConversionTaskRow,
  type ConversionTaskStatus,
  conversionTaskInputColumns,
  type FinishTask,
  toConversionTask,
  toConversionTaskInput,
} from "./conversion-tasks.js";
export { CredentialCipher } from "./credential-cipher.js";
export * from "./datasets.js";
export * from "./evaluator-templates.js";
export * from "./experiments.js";
export {
  type ExtractionFilter,
  type ExtractionImage,
  type ExtractionInsert,
  type ExtractionQualityFacts,
  type ExtractionRecord,
  type ExtractionRow,
  type ExtractionStatus,
  type ExtractionStrategyName,
  extractionQualityColumns,
  type SourcePlacement,
  toExtraction,
} from "./extractions.js";
export { bytes, FILE_COLUMNS, type FileRecord, type FileRow, toFile } from "./files.js";
export {
  type ChunkRow,
  type ConfigVersion,
  type ConfigVersionRow,
  configSnapshot,
  type DocumentRow,
  IN_PROGRESS,
  type KbRow,
  type RevisionRow,
  toChunk,
  toConfigVersion,
  toDocument,
  toKb,
  toRevision,
} from "./knowledge-bases.js";
export { likePattern } from "./like-pattern.js";
export * from "./memory-files.js";
export { type Organization, type OrganizationRow, toOrganization } from "./organizations.js";
export * from "./plugins.js";
export * from "./prompts.js";
export { type ProviderRecord, type ProviderRow, toProvider } from "./providers.js";
export * from "./schemas.js";
export * from "./scores.js";
export * from "./skills.js";
export {
  type StoredResponseKind,
  type StoredResponseRecord,
  type StoredResponseRow,
  type StoredResponseSave,
  storedResponseColumns,
  toStoredResponse,
} from "./stored-responses.js";
export * from "./text-match.js";
export {
  DEFAULT_TRACING_SETTINGS,
  foldBatchTraces,
  foldTraceSpans,
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
} from "./traces.js";
export {
  toUsageRecord,
  USAGE_COLUMNS,
  type UsageRecord,
  type UsageRecordInput,
  usageRecordOf,
  usageRowValues,
} from "./usage.js";
export { VERIFIED_LIMIT, VERIFIED_TTL_MS, VerifiedKeys } from "./verified-keys.js";
export * from "./versioned.js";
