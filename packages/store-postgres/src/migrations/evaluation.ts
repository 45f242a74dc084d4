/**
 * The evaluation families' tables on PostgreSQL (versions 30–35): prompts, datasets, evaluator
 * templates, scores, experiments and annotation queues — the tables, constraints and indexes of
 * store-sqlite's migrations 010, 011, 012, 013, 019 and 020 in PostgreSQL types (decisions
 * PG81–PG85): epoch-ms BIGINT; JSON as TEXT holding the exact text the store wrote; ids and
 * names `COLLATE "C"` (SQLite compares text bytewise); a rowid the store orders by as an
 * identity column. `organization_id` carries no foreign key until organizations are on this
 * store (added when the families merge).
 */
import type { PostgresMigration } from "../migrations.js";

export const evaluationMigrations: PostgresMigration[] = [
  {
    version: 30,
    name: "prompts, versions, labels",
    sql: `
      CREATE TABLE prompts (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        type TEXT NOT NULL,
        description TEXT,
        tags TEXT NOT NULL DEFAULT '[]',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX prompts_organization ON prompts (organization_id, created_at);
      CREATE TABLE prompt_versions (
        id TEXT COLLATE "C" PRIMARY KEY,
        prompt_id TEXT NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
        version_number INTEGER NOT NULL,
        prompt TEXT NOT NULL,
        config TEXT NOT NULL DEFAULT '{}',
        variables TEXT NOT NULL DEFAULT '[]',
        change_description TEXT,
        active BOOLEAN NOT NULL DEFAULT TRUE,
        copied_from_version_id TEXT,
        created_at BIGINT NOT NULL,
        deactivated_at BIGINT,
        UNIQUE (prompt_id, version_number)
      );
      CREATE TABLE prompt_labels (
        prompt_id TEXT NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
        name TEXT COLLATE "C" NOT NULL,
        prompt_version_id TEXT REFERENCES prompt_versions (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (prompt_id, name)
      );
      CREATE INDEX prompt_labels_version ON prompt_labels (prompt_version_id);
    `,
  },
  {
    version: 31,
    name: "datasets: items as immutable revisions, versions as epochs",
    sql: `
      CREATE TABLE datasets (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        description TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        item_count INTEGER NOT NULL DEFAULT 0,
        next_position INTEGER NOT NULL DEFAULT 0,
        epoch INTEGER NOT NULL DEFAULT 1,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX datasets_organization ON datasets (organization_id, created_at);
      CREATE TABLE dataset_items (
        rev BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        item_id TEXT COLLATE "C" NOT NULL,
        position INTEGER NOT NULL,
        input TEXT NOT NULL,
        expected_output TEXT NOT NULL,
        metadata TEXT NOT NULL,
        source_trace_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        valid_from INTEGER NOT NULL,
        valid_to INTEGER
      );
      CREATE UNIQUE INDEX dataset_items_current ON dataset_items (dataset_id, position) WHERE valid_to IS NULL;
      CREATE UNIQUE INDEX dataset_items_current_id ON dataset_items (item_id) WHERE valid_to IS NULL;
      CREATE INDEX dataset_items_frozen ON dataset_items (dataset_id, position, valid_from, valid_to);
      CREATE INDEX dataset_items_by_id ON dataset_items (item_id);
      CREATE TABLE dataset_blocks (
        dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        block INTEGER NOT NULL,
        item_count INTEGER NOT NULL,
        PRIMARY KEY (dataset_id, block)
      );
      CREATE TABLE dataset_versions (
        id TEXT COLLATE "C" PRIMARY KEY,
        dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        version_number INTEGER NOT NULL,
        description TEXT,
        item_count INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (dataset_id, version_number)
      );
      CREATE TABLE dataset_version_blocks (
        version_id TEXT NOT NULL REFERENCES dataset_versions (id) ON DELETE CASCADE,
        block INTEGER NOT NULL,
        item_count INTEGER NOT NULL,
        PRIMARY KEY (version_id, block)
      );
    `,
  },
  {
    version: 32,
    name: "LLM-judge evaluator templates",
    sql: `
      CREATE TABLE evaluator_templates (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        description TEXT,
        prompt TEXT NOT NULL,
        model TEXT NOT NULL,
        scale TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX evaluator_templates_organization ON evaluator_templates (organization_id, created_at);
    `,
  },
  {
    version: 33,
    name: "scores on responses, extractions, conversations, dataset items, traces and run results",
    // seq stands in for SQLite's rowid: a queue item lists its scores in insertion order.
    sql: `
      CREATE TABLE scores (
        id TEXT COLLATE "C" PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        organization_id TEXT NOT NULL,
        subject_type TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        data_type TEXT NOT NULL CHECK (data_type IN ('NUMERIC', 'CATEGORICAL', 'BOOLEAN')),
        value TEXT NOT NULL,
        comment TEXT,
        source TEXT NOT NULL CHECK (source IN ('HUMAN', 'API', 'EVAL')),
        queue_item_id TEXT,
        created_by_key_id TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX scores_created ON scores (organization_id, created_at DESC, id DESC);
      CREATE INDEX scores_subject ON scores (organization_id, subject_type, subject_id, created_at DESC);
      CREATE INDEX scores_name ON scores (organization_id, name, created_at DESC);
      CREATE INDEX scores_queue_item ON scores (queue_item_id, created_at, seq) WHERE queue_item_id IS NOT NULL;
    `,
  },
  {
    version: 34,
    name: "experiments: variants, durable runs and their per-item results",
    sql: `
      CREATE TABLE experiments (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        description TEXT,
        dataset_id TEXT NOT NULL,
        dataset_version_id TEXT,
        evaluators TEXT NOT NULL,
        baseline_run_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX experiments_created ON experiments (organization_id, created_at DESC, id DESC);
      CREATE INDEX experiments_dataset ON experiments (dataset_id);
      CREATE TABLE experiment_variants (
        id TEXT COLLATE "C" PRIMARY KEY,
        experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
        name TEXT COLLATE "C" NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('prompt', 'agent', 'model', 'extraction')),
        config TEXT NOT NULL,
        prompt_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (experiment_id, name)
      );
      CREATE INDEX experiment_variants_prompt ON experiment_variants (prompt_id) WHERE prompt_id IS NOT NULL;
      CREATE TABLE experiment_runs (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
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
        input_tokens BIGINT NOT NULL DEFAULT 0,
        output_tokens BIGINT NOT NULL DEFAULT 0,
        cost_eur DOUBLE PRECISION NOT NULL DEFAULT 0,
        plan TEXT,
        error TEXT,
        job_id TEXT,
        role TEXT NOT NULL,
        created_by_key_id TEXT,
        created_at BIGINT NOT NULL,
        started_at BIGINT,
        completed_at BIGINT
      );
      CREATE INDEX experiment_runs_experiment ON experiment_runs (experiment_id, created_at DESC, id DESC);
      CREATE INDEX experiment_runs_variant ON experiment_runs (variant_id, status);
      CREATE TABLE experiment_run_results (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        run_id TEXT NOT NULL REFERENCES experiment_runs (id) ON DELETE CASCADE,
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
        score_values TEXT NOT NULL DEFAULT '[]',
        created_at BIGINT NOT NULL,
        UNIQUE (run_id, dataset_item_id)
      );
      CREATE INDEX experiment_run_results_order ON experiment_run_results (run_id, position);
      CREATE INDEX experiment_run_results_org ON experiment_run_results (organization_id, id);
    `,
  },
  {
    version: 35,
    name: "annotation queues with score configurations, items and their locks",
    sql: `
      CREATE TABLE annotation_queues (
        id TEXT COLLATE "C" PRIMARY KEY,
        organization_id TEXT NOT NULL,
        name TEXT COLLATE "C" NOT NULL,
        description TEXT,
        score_configs TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'ARCHIVED')),
        pending_count INTEGER NOT NULL DEFAULT 0,
        completed_count INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        archived_at BIGINT,
        UNIQUE (organization_id, name)
      );
      CREATE INDEX annotation_queues_listing ON annotation_queues (organization_id, status, created_at DESC, id DESC);
      CREATE TABLE annotation_queue_items (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id TEXT COLLATE "C" NOT NULL UNIQUE,
        queue_id TEXT NOT NULL REFERENCES annotation_queues (id) ON DELETE CASCADE,
        organization_id TEXT NOT NULL,
        subject_type TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'COMPLETED')),
        locked_by_key_id TEXT,
        locked_until BIGINT,
        completed_by_key_id TEXT,
        completed_at BIGINT,
        scored_names TEXT NOT NULL DEFAULT '[]',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX annotation_queue_items_queue ON annotation_queue_items (queue_id, status, seq);
      CREATE INDEX annotation_queue_items_subject
        ON annotation_queue_items (organization_id, subject_type, subject_id, seq);
      CREATE INDEX annotation_queue_items_unlocked
        ON annotation_queue_items (queue_id, seq) WHERE status = 'PENDING' AND locked_by_key_id IS NULL;
      CREATE INDEX annotation_queue_items_lock_end
        ON annotation_queue_items (queue_id, locked_until) WHERE status = 'PENDING' AND locked_by_key_id IS NOT NULL;
      CREATE INDEX annotation_queue_items_holder
        ON annotation_queue_items (queue_id, locked_by_key_id, seq) WHERE status = 'PENDING' AND locked_by_key_id IS NOT NULL;
      CREATE INDEX annotation_queue_items_queue_subject
        ON annotation_queue_items (queue_id, subject_type, subject_id, status);
    `,
  },
];
