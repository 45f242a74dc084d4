export { type PostgresMigration, postgresMigrations, runPostgresMigrations } from "./migrations.js";
export {
  type OpenPostgresStoreOptions,
  openPostgresStore,
  PENDING_KNOWLEDGE_MEMBERS,
  PENDING_POSTGRES_FAMILIES,
  type PendingPostgresFamily,
  type PostgresStore,
  partlyPorted,
  pendingFamily,
} from "./open-postgres-store.js";
export { PostgresApiKeyStore } from "./postgres-api-keys.js";
export {
  PostgresConcurrencySlots,
  type PostgresConcurrencySlotsOptions,
} from "./postgres-concurrency-slots.js";
export { PostgresConversionTaskStore } from "./postgres-conversion-tasks.js";
export { PostgresExtractionStore } from "./postgres-extractions.js";
export { PostgresFileStore } from "./postgres-files.js";
export { JOBS_CHANNEL, PostgresJobQueue } from "./postgres-job-queue.js";
export { PostgresKeywordIndex } from "./postgres-keyword-index.js";
export { type AcceptedUpload, PostgresKnowledgeStore } from "./postgres-knowledge-store.js";
export { PostgresOrganizationStore } from "./postgres-organizations.js";
export { PostgresProviderStore } from "./postgres-providers.js";
export { PostgresRequestCounter } from "./postgres-request-counter.js";
export { PostgresStoredResponseStore } from "./postgres-stored-responses.js";
export {
  HNSW_MAX_DIM,
  PostgresVectorIndex,
  type PostgresVectorIndexOptions,
  type VectorMode,
} from "./postgres-vector-index.js";
export { fromPGlite, fromPgPool, type PGliteLike, type SqlClient, type SqlQueryable } from "./sql-client.js";
