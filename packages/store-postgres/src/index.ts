export {
  type CopiedTable,
  CopyFromSqliteError,
  type CopyOptions,
  type CopyReport,
  copyFromSqlite,
  type SqliteSource,
  type SqliteStatement,
} from "./copy-from-sqlite.js";
export { type PostgresMigration, postgresMigrations, runPostgresMigrations } from "./migrations.js";
export {
  type OpenPostgresStoreOptions,
  openPostgresStore,
  type PostgresStore,
} from "./open-postgres-store.js";
export { PostgresAgentStore } from "./postgres-agents.js";
export { type ExtractionQuality, PostgresAnalyticsStore } from "./postgres-analytics.js";
export { PostgresAnnotationQueueStore } from "./postgres-annotation-queues.js";
export { PostgresApiKeyStore } from "./postgres-api-keys.js";
export { PostgresBashFileStore } from "./postgres-bash-files.js";
export { PostgresBillingStore } from "./postgres-billing.js";
export {
  PostgresConcurrencySlots,
  type PostgresConcurrencySlotsOptions,
} from "./postgres-concurrency-slots.js";
export { type CredentialSealer, PostgresConnectorStore } from "./postgres-connectors.js";
export { PostgresConversationStore } from "./postgres-conversations.js";
export { PostgresConversionTaskStore } from "./postgres-conversion-tasks.js";
export { PostgresDatasetStore } from "./postgres-datasets.js";
export { PostgresEvaluatorTemplateStore } from "./postgres-evaluator-templates.js";
export { PostgresExperimentStore } from "./postgres-experiments.js";
export { PostgresExtractionStore } from "./postgres-extractions.js";
export { atomicallyOn, connectionOf, PostgresFamily, transactionOn } from "./postgres-family.js";
export { PostgresFileStore } from "./postgres-files.js";
export { JOBS_CHANNEL, PostgresJobQueue } from "./postgres-job-queue.js";
export { PostgresKeywordIndex } from "./postgres-keyword-index.js";
export { type AcceptedUpload, PostgresKnowledgeStore } from "./postgres-knowledge-store.js";
export { PostgresMemoryFileStore } from "./postgres-memory-files.js";
export { PostgresOrganizationStore } from "./postgres-organizations.js";
export { PostgresPluginStore } from "./postgres-plugins.js";
export { PostgresPromptStore } from "./postgres-prompts.js";
export { PostgresProviderStore } from "./postgres-providers.js";
export { PostgresRequestCounter } from "./postgres-request-counter.js";
export { PostgresSchemaStore } from "./postgres-schemas.js";
export { PostgresScoreStore } from "./postgres-scores.js";
export { PostgresSkillStore } from "./postgres-skills.js";
export { PostgresStoredResponseStore } from "./postgres-stored-responses.js";
export { PostgresTraceStore, type SecretCipher } from "./postgres-traces.js";
export { PostgresUsageRecordStore } from "./postgres-usage-records.js";
export {
  HNSW_MAX_DIM,
  PostgresVectorIndex,
  type PostgresVectorIndexOptions,
  type VectorMode,
} from "./postgres-vector-index.js";
export {
  type NumberedLabelRow,
  PostgresLabelTable,
  type PostgresVersionedShape,
  PostgresVersionedStore,
  PostgresVersionTable,
} from "./postgres-versioned-store.js";
export { fromPGlite, fromPgPool, type PGliteLike, type SqlClient, type SqlQueryable } from "./sql-client.js";
