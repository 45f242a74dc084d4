export { type PostgresMigration, postgresMigrations, runPostgresMigrations } from "./migrations.js";
export { JOBS_CHANNEL, PostgresJobQueue } from "./postgres-job-queue.js";
export { fromPGlite, fromPgPool, type PGliteLike, type SqlClient, type SqlQueryable } from "./sql-client.js";
