/**
 * Experiments (PLATFORM.md §11): experiments over a dataset, their variants, durable runs
 * (one per variant) and the runs' per-item results. A result is inserted together with the
 * run's progress, usage and per-evaluator sums in one transaction, and at most once per
 * (run, dataset item) — so a run killed mid-way and resumed neither loses nor repeats a
 * result. The rules (validation, states, limits) are the platform's experiment service's.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  ACTIVE_RUN_STATUSES as ACTIVE,
  type ExperimentEvaluator,
  type ExperimentRecord,
  type ExperimentRow,
  type ExperimentRunRecord,
  type ExperimentRunStatus,
  fromScoreValues,
  type NewExperiment,
  type NewRun,
  promptIdOf,
  type RunResultRow as ResultRow,
  type RunResultInsert,
  type RunResultRecord,
  type ExperimentRunRow as RunRow,
  type RunScore,
  type RunUsage,
  type ScoreSums,
  scoreValuesOf,
  toExperiment,
  toRunResult as toResult,
  toExperimentRun as toRun,
  toExperimentVariant as toVariant,
  type VariantKind,
  type VariantRecord,
  type ExperimentVariantRow as VariantRow,
} from "@groundwork/store-rows";
import { SqliteStore } from "./sqlite-store.js";

export type {
  ExperimentEvaluator,
  ExperimentRecord,
  ExperimentRunRecord,
  ExperimentRunStatus,
  NewExperiment,
  NewRun,
  RunResultInsert,
  RunResultRecord,
  RunScore,
  RunUsage,
  ScoreSums,
  VariantKind,
  VariantRecord,
};

export class ExperimentStore extends SqliteStore {
  // ---- experiments ----

  create(organizationId: string, input: NewExperiment): ExperimentRecord {
    const now = this.clock.now();
    const record: ExperimentRecord = {
      id: this.ids("exp"),
      organizationId,
      ...input,
      baselineRunId: null,
      createdAt: now,
      updatedAt: now,
    };
    this.sql(
      `INSERT INTO experiments (id, organization_id, name, description, dataset_id, dataset_version_id, evaluators,
           baseline_run_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
    ).run(
      record.id,
      organizationId,
      record.name,
      record.description,
      record.datasetId,
      record.datasetVersionId,
      JSON.stringify(record.evaluators),
      now,
      now,
    );
    return record;
  }

  get(organizationId: string, id: string): ExperimentRecord | null {
    const row = this.sql("SELECT * FROM experiments WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as ExperimentRow | undefined;
    return row === undefined ? null : toExperiment(row);
  }

  findByName(organizationId: string, name: string): ExperimentRecord | null {
    const row = this.sql("SELECT * FROM experiments WHERE organization_id = ? AND name = ?").get(
      organizationId,
      name,
    ) as ExperimentRow | undefined;
    return row === undefined ? null : toExperiment(row);
  }

  /** Newest first. */
  list(
    organizationId: string,
    filter: { datasetId?: string | undefined },
    page: PageRequest,
  ): { items: ExperimentRecord[]; total: number } {
    const clause = filter.datasetId === undefined ? "" : " AND dataset_id = ?";
    const params: unknown[] =
      filter.datasetId === undefined ? [organizationId] : [organizationId, filter.datasetId];
    const total = (
      this.sql(`SELECT count(*) AS n FROM experiments WHERE organization_id = ?${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const rows = this.sql(
      `SELECT * FROM experiments WHERE organization_id = ?${clause}
         ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ExperimentRow[];
    return { items: rows.map(toExperiment), total };
  }

  update(
    experiment: ExperimentRecord,
    changes: Partial<
      Pick<ExperimentRecord, "name" | "description" | "datasetVersionId" | "evaluators" | "baselineRunId">
    >,
  ): ExperimentRecord {
    const next: ExperimentRecord = { ...experiment, ...changes, updatedAt: this.clock.now() };
    this.sql(
      `UPDATE experiments SET name = ?, description = ?, dataset_version_id = ?, evaluators = ?, baseline_run_id = ?,
           updated_at = ? WHERE id = ?`,
    ).run(
      next.name,
      next.description,
      next.datasetVersionId,
      JSON.stringify(next.evaluators),
      next.baselineRunId,
      next.updatedAt,
      next.id,
    );
    return next;
  }

  /** Deletes the experiment with its variants, runs and results. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM experiments WHERE organization_id = ? AND id = ?").run(organizationId, id)
        .changes > 0
    );
  }

  /** The name of the organization's oldest experiment over the dataset, or null. */
  experimentOfDataset(organizationId: string, datasetId: string): string | null {
    const row = this.sql(
      "SELECT name FROM experiments WHERE organization_id = ? AND dataset_id = ? ORDER BY created_at, id LIMIT 1",
    ).get(organizationId, datasetId) as { name: string } | undefined;
    return row?.name ?? null;
  }

  /** Whether an experiment of the organization has an `llm_judge` evaluator with the template. */
  usesTemplate(organizationId: string, templateId: string): boolean {
    const rows = this.sql(
      "SELECT evaluators FROM experiments WHERE organization_id = ? AND instr(evaluators, ?) > 0",
    ).all(organizationId, templateId) as Array<{ evaluators: string }>;
    return rows.some((row) =>
      (JSON.parse(row.evaluators) as ExperimentEvaluator[]).some(
        (evaluator) => evaluator.type === "llm_judge" && evaluator.params.templateId === templateId,
      ),
    );
  }

  /** Whether a variant of one of the organization's experiments uses the prompt. */
  usesPrompt(organizationId: string, promptId: string): boolean {
    return (
      this.sql(
        `SELECT 1 FROM experiment_variants v JOIN experiments e ON e.id = v.experiment_id
           WHERE v.prompt_id = ? AND e.organization_id = ? LIMIT 1`,
      ).get(promptId, organizationId) !== undefined
    );
  }

  // ---- variants ----

  addVariant(
    experimentId: string,
    input: { name: string; kind: VariantKind; config: Record<string, unknown> },
  ): VariantRecord {
    const now = this.clock.now();
    const record: VariantRecord = {
      id: this.ids("var"),
      experimentId,
      ...input,
      createdAt: now,
      updatedAt: now,
    };
    this.sql(
      `INSERT INTO experiment_variants (id, experiment_id, name, kind, config, prompt_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      record.id,
      experimentId,
      record.name,
      record.kind,
      JSON.stringify(record.config),
      promptIdOf(record),
      now,
      now,
    );
    return record;
  }

  getVariant(experimentId: string, id: string): VariantRecord | null {
    const row = this.sql("SELECT * FROM experiment_variants WHERE experiment_id = ? AND id = ?").get(
      experimentId,
      id,
    ) as VariantRow | undefined;
    return row === undefined ? null : toVariant(row);
  }

  /** Oldest first (the order they were added). */
  listVariants(experimentId: string): VariantRecord[] {
    return (
      this.sql("SELECT * FROM experiment_variants WHERE experiment_id = ? ORDER BY created_at, id").all(
        experimentId,
      ) as VariantRow[]
    ).map(toVariant);
  }

  updateVariant(
    variant: VariantRecord,
    changes: { name: string; config: Record<string, unknown> },
  ): VariantRecord {
    const next: VariantRecord = { ...variant, ...changes, updatedAt: this.clock.now() };
    this.sql(
      "UPDATE experiment_variants SET name = ?, config = ?, prompt_id = ?, updated_at = ? WHERE id = ?",
    ).run(next.name, JSON.stringify(next.config), promptIdOf(next), next.updatedAt, next.id);
    return next;
  }

  deleteVariant(experimentId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM experiment_variants WHERE experiment_id = ? AND id = ?").run(experimentId, id)
        .changes > 0
    );
  }

  // ---- runs ----

  createRun(input: NewRun): ExperimentRunRecord {
    const now = this.clock.now();
    const id = this.ids("xrun");
    this.sql(
      `INSERT INTO experiment_runs (id, organization_id, experiment_id, variant_id, variant_name, variant, evaluators,
           dataset_id, dataset_version_id, status, total, role, created_by_key_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
    ).run(
      id,
      input.organizationId,
      input.experimentId,
      input.variant.id,
      input.variant.name,
      JSON.stringify(input.variant),
      JSON.stringify(input.evaluators),
      input.datasetId,
      input.datasetVersionId,
      input.total,
      input.role,
      input.createdByKeyId,
      now,
    );
    return this.runById(id) as ExperimentRunRecord;
  }

  attachJob(runId: string, jobId: string): void {
    this.sql("UPDATE experiment_runs SET job_id = ? WHERE id = ?").run(jobId, runId);
  }

  /**
   * Ends `failed` the active runs whose job the queue gave up on: a process that keeps dying
   * mid-run loses the job's lease on every attempt, and once they are spent the queue fails the
   * job without any handler running to end the run (its error is the queue's last error).
   */
  private failAbandonedRuns(experimentId: string): void {
    this.sql(
      `UPDATE experiment_runs SET status = 'failed', completed_at = ?,
           error = COALESCE((SELECT last_error FROM jobs WHERE jobs.id = experiment_runs.job_id), 'The run stopped')
         WHERE experiment_id = ? AND status IN ${ACTIVE}
           AND job_id IN (SELECT id FROM jobs WHERE status = 'failed')`,
    ).run(this.clock.now(), experimentId);
  }

  runById(id: string): ExperimentRunRecord | null {
    const row = this.sql("SELECT * FROM experiment_runs WHERE id = ?").get(id) as RunRow | undefined;
    return row === undefined ? null : toRun(row);
  }

  getRun(experimentId: string, id: string): ExperimentRunRecord | null {
    this.failAbandonedRuns(experimentId);
    const row = this.sql("SELECT * FROM experiment_runs WHERE experiment_id = ? AND id = ?").get(
      experimentId,
      id,
    ) as RunRow | undefined;
    return row === undefined ? null : toRun(row);
  }

  /** Newest first. */
  listRuns(
    experimentId: string,
    filter: { variantId?: string | undefined; status?: ExperimentRunStatus | undefined },
    page: PageRequest,
  ): { items: ExperimentRunRecord[]; total: number } {
    this.failAbandonedRuns(experimentId);
    const where = ["experiment_id = ?"];
    const params: unknown[] = [experimentId];
    if (filter.variantId !== undefined) {
      where.push("variant_id = ?");
      params.push(filter.variantId);
    }
    if (filter.status !== undefined) {
      where.push("status = ?");
      params.push(filter.status);
    }
    const clause = where.join(" AND ");
    const total = (
      this.sql(`SELECT count(*) AS n FROM experiment_runs WHERE ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT * FROM experiment_runs WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as RunRow[];
    return { items: rows.map(toRun), total };
  }

  /** The newest `completed` run of each variant of the experiment, in the variants' order. */
  newestCompletedRuns(experimentId: string): ExperimentRunRecord[] {
    const rows = this.sql(
      `SELECT r.* FROM experiment_runs r
         WHERE r.experiment_id = ? AND r.status = 'completed' AND r.id = (
           SELECT r2.id FROM experiment_runs r2 WHERE r2.variant_id = r.variant_id AND r2.status = 'completed'
             ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1)
         ORDER BY r.created_at, r.id`,
    ).all(experimentId) as RunRow[];
    return rows.map(toRun);
  }

  hasActiveRun(experimentId: string, variantId?: string): boolean {
    const row =
      variantId === undefined
        ? this.sql(
            `SELECT 1 FROM experiment_runs WHERE experiment_id = ? AND status IN ${ACTIVE} LIMIT 1`,
          ).get(experimentId)
        : this.sql(
            `SELECT 1 FROM experiment_runs WHERE experiment_id = ? AND variant_id = ? AND status IN ${ACTIVE} LIMIT 1`,
          ).get(experimentId, variantId);
    return row !== undefined;
  }

  /** queued → running (the first claim stamps `startedAt`); false when the run is no longer active. */
  markRunning(id: string): boolean {
    return (
      this.sql(
        `UPDATE experiment_runs SET status = 'running', started_at = coalesce(started_at, ?)
           WHERE id = ? AND status IN ${ACTIVE}`,
      ).run(this.clock.now(), id).changes > 0
    );
  }

  setPlan(id: string, plan: Record<string, unknown>): void {
    this.sql("UPDATE experiment_runs SET plan = ? WHERE id = ?").run(JSON.stringify(plan), id);
  }

  /** Ends an active run (`completed`, `failed` or `cancelled`); false when it had already ended. */
  finishRun(id: string, status: "completed" | "failed" | "cancelled", error: string | null = null): boolean {
    return (
      this.sql(
        `UPDATE experiment_runs SET status = ?, error = ?, completed_at = ? WHERE id = ? AND status IN ${ACTIVE}`,
      ).run(status, error, this.clock.now(), id).changes > 0
    );
  }

  /** Cancels every active run of the experiment; the ids cancelled, oldest first. */
  cancelActiveRuns(experimentId: string): string[] {
    const ids = (
      this.sql(
        `SELECT id FROM experiment_runs WHERE experiment_id = ? AND status IN ${ACTIVE} ORDER BY created_at, id`,
      ).all(experimentId) as Array<{
        id: string;
      }>
    ).map((row) => row.id);
    for (const id of ids) this.finishRun(id, "cancelled");
    return ids;
  }

  // ---- results ----

  /**
   * Records one item's result while the run is `running`, with the run's counters, in one
   * transaction; null when the run is no longer running or already has a result for the item.
   * `accumulate` adds the result's scores to the run's per-evaluator sums (the evaluation
   * engine's rule, applied inside the transaction).
   */
  addResult(
    input: RunResultInsert,
    accumulate: (sums: ScoreSums, scores: readonly RunScore[]) => ScoreSums,
  ): RunResultRecord | null {
    return this.atomically(() => {
      const run = this.sql("SELECT status, score_sums FROM experiment_runs WHERE id = ?").get(input.runId) as
        | { status: ExperimentRunStatus; score_sums: string }
        | undefined;
      if (run?.status !== "running") return null;
      const { otelTraceId, ...fields } = input;
      const record: RunResultRecord = {
        ...fields,
        traceId: null,
        id: this.ids("xres"),
        createdAt: this.clock.now(),
      };
      const inserted = this.sql(
        `INSERT OR IGNORE INTO experiment_run_results (id, organization_id, run_id, dataset_item_id, position, status,
             input, expected_output, output, error, latency_ms, usage, trace_id, scores, score_values, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        record.id,
        record.organizationId,
        record.runId,
        record.datasetItemId,
        record.position,
        record.status,
        JSON.stringify(record.input),
        JSON.stringify(record.expectedOutput ?? null),
        record.output,
        record.error,
        record.latencyMs,
        JSON.stringify(record.usage),
        otelTraceId,
        JSON.stringify(record.scores),
        scoreValuesOf(record.scores),
        record.createdAt,
      );
      if (inserted.changes === 0) return null;
      const sums = accumulate(JSON.parse(run.score_sums) as ScoreSums, record.scores);
      this.sql(
        `UPDATE experiment_runs SET completed = completed + ?, failed = failed + ?, score_sums = ?,
             input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, cost_eur = cost_eur + ?
           WHERE id = ?`,
      ).run(
        record.status === "completed" ? 1 : 0,
        record.status === "failed" ? 1 : 0,
        JSON.stringify(sums),
        record.usage.inputTokens,
        record.usage.outputTokens,
        record.usage.costEur,
        record.runId,
      );
      return record;
    });
  }

  /** The dataset items the run already has a result for (what a resumed run skips). */
  resultItemIds(runId: string): Set<string> {
    const rows = this.sql("SELECT dataset_item_id FROM experiment_run_results WHERE run_id = ?").all(
      runId,
    ) as Array<{
      dataset_item_id: string;
    }>;
    return new Set(rows.map((row) => row.dataset_item_id));
  }

  /** In dataset order. */
  listResults(
    runId: string,
    filter: { status?: "completed" | "failed" | undefined },
    page: PageRequest,
  ): { items: RunResultRecord[]; total: number } {
    const clause = filter.status === undefined ? "" : " AND status = ?";
    const params: unknown[] = filter.status === undefined ? [runId] : [runId, filter.status];
    const total = (
      this.sql(`SELECT count(*) AS n FROM experiment_run_results WHERE run_id = ?${clause}`).get(
        ...params,
      ) as {
        n: number;
      }
    ).n;
    const rows = this.sql(
      `SELECT *, (SELECT t.id FROM traces t WHERE t.organization_id = r.organization_id
           AND t.otel_trace_id = r.trace_id AND t.kind = 'experiment' ORDER BY t.id LIMIT 1) AS trace_ref
         FROM experiment_run_results r WHERE run_id = ?${clause} ORDER BY position LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ResultRow[];
    return { items: rows.map(toResult), total };
  }

  /** Every result of the run in dataset order, with only what regression needs (names and values). */
  resultScores(runId: string): Array<{
    datasetItemId: string;
    status: RunResultRecord["status"];
    scores: Array<{ name: string; value: number | null }>;
  }> {
    const rows = this.sql(
      "SELECT dataset_item_id, status, score_values FROM experiment_run_results WHERE run_id = ? ORDER BY position",
    ).all(runId) as Array<{
      dataset_item_id: string;
      status: RunResultRecord["status"];
      score_values: string;
    }>;
    return rows.map((row) => ({
      datasetItemId: row.dataset_item_id,
      status: row.status,
      scores: fromScoreValues(row.score_values),
    }));
  }

  /** Whether the run result exists in the organization (scores on `run_result` subjects). */
  resultExists(organizationId: string, id: string): boolean {
    return (
      this.sql("SELECT 1 FROM experiment_run_results WHERE organization_id = ? AND id = ?").get(
        organizationId,
        id,
      ) !== undefined
    );
  }
}
