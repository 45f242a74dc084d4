/**
 * Versioned migrations of the PostgreSQL store, applied in one transaction under an advisory
 * lock, so several processes starting on one database at once migrate it exactly once.
 * Timestamps are epoch milliseconds (BIGINT) from the application's clock, as in the SQLite
 * store, so both stores answer the same values.
 */
import { knowledgeBaseTables, pgvectorColumn } from "./kb-migrations.js";
import { agentsAndToolsMigrations } from "./migrations/agents-and-tools.js";
import { connectorInputOwnersMigration } from "./migrations/connector-input-owners.js";
import { evaluationMigrations } from "./migrations/evaluation.js";
import { knowledgeBaseMemberMigrations } from "./migrations/knowledge-bases.js";
import { organizationKeysMigration } from "./migrations/organization-keys.js";
import { schemasSkillsExperimentsMigrations } from "./migrations/schemas-skills-experiments.js";
import { tenantsDocumentsMigrations } from "./migrations/tenants-documents.js";
import { usageAnalyticsBillingTracesMigrations } from "./migrations/usage-analytics-billing-traces.js";
import type { SqlClient } from "./sql-client.js";

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const postgresMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: "the durable job queue",
    // `organization_id` carries no foreign key yet: organizations live in this store once the
    // remaining families are ported (decision PG3).
    sql: `
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        organization_id TEXT,
        payload JSONB NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        result JSONB,
        last_error TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        run_at BIGINT NOT NULL,
        lease_owner TEXT,
        lease_expires_at BIGINT
      );
      CREATE INDEX jobs_claimable ON jobs (kind, status, run_at, id);
    `,
  },
  knowledgeBaseTables,
  pgvectorColumn,
  {
    version: 4,
    name: "limits shared by processes",
    // One row per organization and minute; `concurrency_slots` rows are leases (decision PG30).
    sql: `
      CREATE TABLE request_windows (
        organization_id TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (organization_id, window_start)
      );
      CREATE TABLE concurrency_slots (
        id TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX concurrency_slots_key ON concurrency_slots (key, expires_at);
    `,
  },
  {
    version: 5,
    name: "keyword index without a pending list",
    // With GIN's fast update, new rows wait in a pending list that every search scans linearly
    // until a vacuum merges it (up to gin_pending_list_limit, 4 MB): right after an ingestion the
    // planner then prices the index out and filters every row of the knowledge base. Inserting
    // into the index directly costs ingestion a little and keeps search latency steady (PG12).
    sql: "ALTER INDEX kb_keywords_terms SET (fastupdate = off);",
  },
  // Knowledge-base members 6–9.
  ...knowledgeBaseMemberMigrations,
  // By area (sorted below): tenants and documents 10–15, agents and tools 20–25, evaluation
  // 30–35, usage, analytics, billing and traces 40–42.
  ...tenantsDocumentsMigrations,
  ...agentsAndToolsMigrations,
  ...evaluationMigrations,
  ...usageAnalyticsBillingTracesMigrations,
  // Schemas 16, skills 22, experiments' organization key 36 (reserved numbers of the areas above).
  ...schemasSkillsExperimentsMigrations,
  // 50: the foreign keys to organizations, once every family's tables are here.
  organizationKeysMigration,
  // 51: connector questions' owning process and its lease (several processes, round 2).
  connectorInputOwnersMigration,
].sort((a, b) => a.version - b.version);

/** A number every Groundwork process agrees on, for the migration lock. */
const MIGRATION_LOCK = 0x67_77_6d_67; // "gwmg"

/**
 * Applies every migration the database has not recorded, in version order; returns the versions
 * applied. Not only those above the highest recorded: areas reserve numbers in ranges, so a
 * family's migration may come with a number below one a database already has (schemas' 16
 * after 42) and must still be applied (decision PG131).
 */
export async function runPostgresMigrations(
  client: SqlClient,
  list: readonly PostgresMigration[] = postgresMigrations,
): Promise<number[]> {
  return client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const recorded = new Set(
      (await tx.query<{ version: unknown }>("SELECT version FROM schema_migrations")).rows.map((row) =>
        Number(row.version),
      ),
    );
    const applied: number[] = [];
    for (const migration of [...list].sort((a, b) => a.version - b.version)) {
      if (recorded.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
        migration.version,
        migration.name,
        Date.now(),
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
