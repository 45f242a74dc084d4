export { int8Code } from "@groundwork/kb";
export {
  type AgentConversationRecord,
  type AgentLabelRecord,
  type AgentMode,
  type AgentRecord,
  type AgentRunRecord,
  AgentStore,
  type AgentVersionRecord,
  type RunInput,
} from "./agents.js";
export {
  AnalyticsStore,
  type ErrorGroup,
  type ExtractionAnalyticsFilter,
  type ExtractionGrouping,
  type ExtractionStats,
  type HumanScoreFilter,
  type HumanScoreStats,
  type LatencyBinCount,
  type TimeRange,
  type UsageFilter,
  type UsageGrouping,
  type UsageTotals,
} from "./analytics.js";
export {
  type AnnotationQueueChanges,
  type AnnotationQueueRecord,
  type AnnotationQueueStatus,
  AnnotationQueueStore,
  type QueueItemChanges,
  type QueueItemRecord,
  type QueueItemStatus,
  type QueueScoreConfig,
  type QueueSubject,
} from "./annotation-queues.js";
export { type ApiKeyRecord, ApiKeyStore, hashApiKey } from "./api-keys.js";
export { type BashFileChange, BashFileStore, type BashTreeRevision } from "./bash-files.js";
export { BillingStore } from "./billing.js";
export {
  type AllowanceRecord,
  type CachedTool,
  type ConnectionRow,
  type ConnectorAuthKind,
  type ConnectorChanges,
  type ConnectorRecord,
  ConnectorStore,
  type InputMode,
  type InputRequestRecord,
  type InputRequestStatus,
  type NewConnector,
  type NewInputRequest,
  type QuestionOwner,
} from "./connectors.js";
export {
  type ConversationFilter,
  type ConversationItemRecord,
  type ConversationStatus,
  ConversationStore,
  type ConversationView,
} from "./conversations.js";
export {
  type ConversionTask,
  type ConversionTaskInput,
  type ConversionTaskStatus,
  ConversionTaskStore,
  type FinishTask,
} from "./conversion-tasks.js";
export { CredentialCipher } from "./credential-cipher.js";
export { type Database, openDatabase } from "./database.js";
export {
  type DatasetChanges,
  type DatasetItemRecord,
  type DatasetItemValues,
  type DatasetRecord,
  DatasetStore,
  type DatasetVersionRecord,
} from "./datasets.js";
export {
  type EvaluatorTemplateInput,
  type EvaluatorTemplateRecord,
  EvaluatorTemplateStore,
} from "./evaluator-templates.js";
export { type Flushable, flushAtExit } from "./exit-flush.js";
export {
  type ExperimentEvaluator,
  type ExperimentRecord,
  type ExperimentRunRecord,
  type ExperimentRunStatus,
  ExperimentStore,
  type NewExperiment,
  type NewRun,
  type RunResultInsert,
  type RunResultRecord,
  type RunScore,
  type RunUsage,
  type ScoreSums,
  type VariantKind,
  type VariantRecord,
} from "./experiments.js";
export {
  type ExtractionFilter,
  type ExtractionImage,
  type ExtractionInsert,
  type ExtractionQualityFacts,
  type ExtractionRecord,
  type ExtractionStatus,
  ExtractionStore,
  type ExtractionStrategyName,
  type SourcePlacement,
} from "./extractions.js";
export { type FileRecord, FileStore } from "./files.js";
export { type AcceptedUpload, metadataMatches } from "./kb-documents.js";
export { anyTermQuery, SqliteKeywordIndex, searchFts5 } from "./kb-keyword-index.js";
export { type KbIndexOptions, SqliteVectorIndex } from "./kb-vector-index.js";
export { KnowledgeBaseStore } from "./knowledge-bases.js";
export {
  type MemberMemoryUsage,
  type MemberScope,
  type MemoryFileRecord,
  MemoryFileStore,
  type MemoryFileWithContent,
  type MemoryText,
} from "./memory-files.js";
export { type OpenStoreOptions, openStore, type Store } from "./open-store.js";
export { type Organization, OrganizationStore } from "./organizations.js";
export {
  type PluginComponents,
  type PluginInput,
  type PluginRecord,
  type PluginSourceType,
  PluginStore,
} from "./plugins.js";
export {
  type PromptContent,
  type PromptFilter,
  type PromptLabelRecord,
  type PromptMessage,
  type PromptRecord,
  PromptStore,
  type PromptType,
  type PromptVersionInput,
  type PromptVersionRecord,
} from "./prompts.js";
export { type ProviderRecord, ProviderStore } from "./providers.js";
export { type Migration, migrations, runMigrations } from "./run-migrations.js";
export {
  LATEST_LABEL,
  type SchemaLabelRecord,
  type SchemaRecord,
  SchemaStore,
  type SchemaVersionRecord,
} from "./schemas.js";
export {
  type ScoreDataType,
  type ScoreFilter,
  type ScoreInsert,
  type ScoreRecord,
  type ScoreSource,
  ScoreStore,
  type ScoreValue,
} from "./scores.js";
export {
  type SkillFileEntry,
  type SkillLabelRecord,
  type SkillRecord,
  SkillStore,
  type SkillVersionInput,
  type SkillVersionRecord,
  type SkillVersionRef,
  type SkillVersionSource,
} from "./skills.js";
export { SqliteJobQueue } from "./sqlite-job-queue.js";
export {
  type StoredResponseKind,
  type StoredResponseRecord,
  StoredResponseStore,
} from "./stored-responses.js";
export {
  DEFAULT_TRACING_SETTINGS,
  type SessionFilter,
  type SpanRecord,
  type TraceFilter,
  type TraceRecord,
  type TraceSessionRecord,
  type TraceSpanInput,
  TraceStore,
  type TracingSettingsChanges,
  type TracingSettingsRecord,
} from "./traces.js";
export {
  type UsageRecord,
  type UsageRecordInput,
  UsageRecordStore,
} from "./usage-records.js";
