/**
 * Version 50: the foreign keys the SQLite schema has and the PostgreSQL tables were created
 * without while their families were ported separately (decisions PG3, PG46, PG65, PG85, PG108):
 * every tenant table's `organization_id` references `organizations`, `ON DELETE CASCADE` as in
 * SQLite, so deleting an organization removes the same rows on both stores (PG160).
 *
 * One statement per key, each added only where its table exists and the column has no foreign
 * key yet (PG161): a family ported later (schemas, skills, experiments) may create its tables
 * with the key already, and a table this branch does not have yet gets it when it does —
 * whichever migration lands first, the key exists exactly once. The list is checked against
 * SQLite's `PRAGMA foreign_key_list` by src/organization-keys.test.ts.
 */
import type { PostgresMigration } from "../migrations.js";

/** Tables whose `organization_id` references `organizations(id) ON DELETE CASCADE` on SQLite. */
export const ORGANIZATION_SCOPED_TABLES = [
  "agent_conversations",
  "agent_runs",
  "agents",
  "annotation_queues",
  "billing_page_counts",
  "connector_inputs",
  "connectors",
  "conversion_tasks",
  "datasets",
  "evaluator_templates",
  "experiments",
  "extractions",
  "files",
  "jobs",
  "knowledge_bases",
  "memory_files",
  "plugins",
  "prompts",
  "providers",
  "schemas",
  "scores",
  "skills",
  "stored_responses",
  "traces",
  "tracing_settings",
  "usage_hourly",
  "usage_latency_daily",
  "usage_latency_hourly",
  "usage_records",
] as const;

const keys = ORGANIZATION_SCOPED_TABLES.map((table) => `('${table}')`).join(",\n        ");

export const organizationKeysMigration: PostgresMigration = {
  version: 50,
  name: "foreign keys to organizations, as in SQLite",
  sql: `
    DO $$
    DECLARE
      target text;
    BEGIN
      FOR target IN SELECT t FROM (VALUES
        ${keys}
      ) AS k (t)
      LOOP
        CONTINUE WHEN to_regclass(target) IS NULL;
        CONTINUE WHEN EXISTS (
          SELECT 1 FROM pg_constraint c
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
          WHERE c.contype = 'f' AND c.conrelid = to_regclass(target) AND a.attname = 'organization_id'
        );
        EXECUTE format(
          'ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE',
          target, target || '_organization_id_fkey');
      END LOOP;
    END $$;
  `,
};
