export { type PostgresMigration, postgresMigrations, runPostgresMigrations } from "./migrations.js";
export {
  PostgresConcurrencySlots,
  type PostgresConcurrencySlotsOptions,
} from "./postgres-concurrency-slots.js";
export { JOBS_CHANNEL, PostgresJobQueue } from "./postgres-job-queue.js";
export { PostgresRequestCounter } from "./postgres-request-counter.js";
export { fromPGlite, fromPgPool, type PGliteLike, type SqlClient, type SqlQueryable } from "./sql-client.js";
