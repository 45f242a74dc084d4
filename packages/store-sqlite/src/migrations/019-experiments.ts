import type { Migration } from "./migration.js";

export const experiments: Migration = {
  version: 19,
  name: "experiments: variants, durable runs and their per-item results",
  sql: `
    -- evaluators is the JSON array of {name, type, params} the experiment scores with; a run
    -- keeps its own snapshot (plan) so later edits never change a run that already started.
    CREATE TABLE experiments (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      dataset_id TEXT NOT NULL,
      dataset_version_id TEXT,
      evaluators TEXT NOT NULL,
      baseline_run_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX experiments_created ON experiments(organization_id, created_at DESC, id DESC);
    CREATE INDEX experiments_dataset ON experiments(dataset_id);

    -- config holds the kind's fields (promptId/promptRef/model, agent, model, schemaId/…) and params.
    CREATE TABLE experiment_variants (
      id TEXT PRIMARY KEY,
      experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('prompt', 'agent', 'model', 'extraction')),
      config TEXT NOT NULL,
      prompt_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (experiment_id, name)
    );
    CREATE INDEX experiment_variants_prompt ON experiment_variants(prompt_id) WHERE prompt_id IS NOT NULL;

    -- Progress, usage and the per-evaluator sums are updated in the transaction that inserts
    -- a result, so a run killed at any point has counters that match its results.
    CREATE TABLE experiment_runs (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
      variant_id TEXT NOT NULL,
      variant_name TEXT NOT NULL,
      variant TEXT NOT NULL,
      evaluators TEXT NOT NULL,
      dataset_id TEXT NOT NULL,
      dataset_version_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
      total INTEGER NOT NULL,
      completed INTEGER NOT NULL DEFAULT 0,
      failed INTEGER NOT NULL DEFAULT 0,
      score_sums TEXT NOT NULL DEFAULT '{}',
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_eur REAL NOT NULL DEFAULT 0,
      plan TEXT,
      error TEXT,
      job_id TEXT,
      role TEXT NOT NULL,
      created_by_key_id TEXT,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      completed_at INTEGER
    );
    CREATE INDEX experiment_runs_experiment ON experiment_runs(experiment_id, created_at DESC, id DESC);
    CREATE INDEX experiment_runs_variant ON experiment_runs(variant_id, status);

    -- One result per (run, dataset item): a resumed run skips the items it already has and
    -- can never record one twice. position is the item's place in the dataset version.
    CREATE TABLE experiment_run_results (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      run_id TEXT NOT NULL REFERENCES experiment_runs(id) ON DELETE CASCADE,
      dataset_item_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
      input TEXT NOT NULL,
      expected_output TEXT NOT NULL,
      output TEXT,
      error TEXT,
      latency_ms INTEGER NOT NULL,
      usage TEXT NOT NULL,
      trace_id TEXT,
      scores TEXT NOT NULL,
      -- [[evaluator, value], …]: what regression reads, without the comments and errors of scores.
      score_values TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      UNIQUE (run_id, dataset_item_id)
    );
    CREATE INDEX experiment_run_results_order ON experiment_run_results(run_id, position);
    CREATE INDEX experiment_run_results_org ON experiment_run_results(organization_id, id);
  `,
};
