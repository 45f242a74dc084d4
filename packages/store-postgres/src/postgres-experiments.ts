/**
 * Experiments on PostgreSQL: the counterpart of store-sqlite's `ExperimentStore` (same methods,
 * same answers; rows mapped by @groundwork/store-rows). Several worker processes may run, cancel
 * and resume runs on one database, so every step the run worker relies on is safe across
 * processes: a run's state changes are single conditional UPDATEs (`… WHERE status IN
 * ('queued', 'running')`, re-checked by PostgreSQL after a racing writer commits), and a result
 * is recorded with its run's counters in one transaction that first locks the run's row
 * (`FOR UPDATE`): a cancel waits for it or wins before it, two items of one run add to the sums
 * one after the other, and the unique (run, dataset item) keeps a result from being recorded twice.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  ACTIVE_RUN_STATUSES as ACTIVE,
  type ExperimentRecord,
  type ExperimentRow,
  type ExperimentRunRecord,
  type ExperimentRunRow,
  type ExperimentRunStatus,
  type ExperimentVariantRow,
  fromScoreValues,
  int,
  json,
  type NewExperiment,
  type NewRun,
  promptIdOf,
  type RunResultInsert,
  type RunResultRecord,
  type RunResultRow,
  type RunScore,
  type ScoreSums,
  scoreValuesOf,
  toExperiment,
  toExperimentRun,
  toExperimentVariant,
  toRunResult,
  type VariantKind,
  type VariantRecord,
} from "@groundwork/store-rows";
import { PostgresFamily, parameters } from "./postgres-family.js";

export class PostgresExperimentStore extends PostgresFamily {
  // ---- experiments ----

  /** Throws the driver's unique violation when the organization has an experiment of that name (as SQLite). */
  async create(organizationId: string, input: NewExperiment): Promise<ExperimentRecord> {
    const now = this.clock.now();
    const record: ExperimentRecord = {
      id: this.ids("exp"),
      organizationId,
      ...input,
      baselineRunId: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.query(
      `INSERT INTO experiments (id, organization_id, name, description, dataset_id, dataset_version_id, evaluators,
           baseline_run_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $8)`,
      [
        record.id,
        organizationId,
        record.name,
        record.description,
        record.datasetId,
        record.datasetVersionId,
        JSON.stringify(record.evaluators),
        now,
      ],
    );
    return record;
  }

  async get(organizationId: string, id: string): Promise<ExperimentRecord | null> {
    const row = await this.row<ExperimentRow>(
      "SELECT * FROM experiments WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return row === undefined ? null : toExperiment(row);
  }

  async findByName(organizationId: string, name: string): Promise<ExperimentRecord | null> {
    const row = await this.row<ExperimentRow>(
      "SELECT * FROM experiments WHERE organization_id = $1 AND name = $2",
      [organizationId, name],
    );
    return row === undefined ? null : toExperiment(row);
  }

  /** Newest first. */
  async list(
    organizationId: string,
    filter: { datasetId?: string | undefined },
    page: PageRequest,
  ): Promise<{ items: ExperimentRecord[]; total: number }> {
    const { values, p } = parameters([organizationId]);
    const clause = filter.datasetId === undefined ? "" : ` AND dataset_id = ${p(filter.datasetId)}`;
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM experiments WHERE organization_id = $1${clause}`,
      values,
    );
    const rows = await this.rows<ExperimentRow>(
      `SELECT * FROM experiments WHERE organization_id = $1${clause}
         ORDER BY created_at DESC, id DESC LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toExperiment), total: int(counted?.n ?? 0) };
  }

  async update(
    experiment: ExperimentRecord,
    changes: Partial<
      Pick<ExperimentRecord, "name" | "description" | "datasetVersionId" | "evaluators" | "baselineRunId">
    >,
  ): Promise<ExperimentRecord> {
    const next: ExperimentRecord = { ...experiment, ...changes, updatedAt: this.clock.now() };
    await this.db.query(
      `UPDATE experiments SET name = $1, description = $2, dataset_version_id = $3, evaluators = $4,
           baseline_run_id = $5, updated_at = $6 WHERE id = $7`,
      [
        next.name,
        next.description,
        next.datasetVersionId,
        JSON.stringify(next.evaluators),
        next.baselineRunId,
        next.updatedAt,
        next.id,
      ],
    );
    return next;
  }

  /** Deletes the experiment with its variants, runs and results. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM experiments WHERE organization_id = $1 AND id = $2 RETURNING 1", [
        organizationId,
        id,
      ])) > 0
    );
  }

  /** The name of the organization's oldest experiment over the dataset, or null. */
  async experimentOfDataset(organizationId: string, datasetId: string): Promise<string | null> {
    const row = await this.row<{ name: string }>(
      `SELECT name FROM experiments WHERE organization_id = $1 AND dataset_id = $2
         ORDER BY created_at, id LIMIT 1`,
      [organizationId, datasetId],
    );
    return row?.name ?? null;
  }

  /** Whether an experiment of the organization has an `llm_judge` evaluator with the template. */
  async usesTemplate(organizationId: string, templateId: string): Promise<boolean> {
    const rows = await this.rows<{ evaluators: string }>(
      "SELECT evaluators FROM experiments WHERE organization_id = $1 AND strpos(evaluators, $2) > 0",
      [organizationId, templateId],
    );
    return rows.some((row) =>
      json<NewExperiment["evaluators"]>(row.evaluators).some(
        (evaluator) => evaluator.type === "llm_judge" && evaluator.params.templateId === templateId,
      ),
    );
  }

  /** Whether a variant of one of the organization's experiments uses the prompt. */
  async usesPrompt(organizationId: string, promptId: string): Promise<boolean> {
    const row = await this.row(
      `SELECT 1 FROM experiment_variants v JOIN experiments e ON e.id = v.experiment_id
         WHERE v.prompt_id = $1 AND e.organization_id = $2 LIMIT 1`,
      [promptId, organizationId],
    );
    return row !== undefined;
  }

  // ---- variants ----

  async addVariant(
    experimentId: string,
    input: { name: string; kind: VariantKind; config: Record<string, unknown> },
  ): Promise<VariantRecord> {
    const now = this.clock.now();
    const record: VariantRecord = {
      id: this.ids("var"),
      experimentId,
      ...input,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.query(
      `INSERT INTO experiment_variants (id, experiment_id, name, kind, config, prompt_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [
        record.id,
        experimentId,
        record.name,
        record.kind,
        JSON.stringify(record.config),
        promptIdOf(record),
        now,
      ],
    );
    return record;
  }

  async getVariant(experimentId: string, id: string): Promise<VariantRecord | null> {
    const row = await this.row<ExperimentVariantRow>(
      "SELECT * FROM experiment_variants WHERE experiment_id = $1 AND id = $2",
      [experimentId, id],
    );
    return row === undefined ? null : toExperimentVariant(row);
  }

  /** Oldest first (the order they were added). */
  async listVariants(experimentId: string): Promise<VariantRecord[]> {
    const rows = await this.rows<ExperimentVariantRow>(
      "SELECT * FROM experiment_variants WHERE experiment_id = $1 ORDER BY created_at, id",
      [experimentId],
    );
    return rows.map(toExperimentVariant);
  }

  async updateVariant(
    variant: VariantRecord,
    changes: { name: string; config: Record<string, unknown> },
  ): Promise<VariantRecord> {
    const next: VariantRecord = { ...variant, ...changes, updatedAt: this.clock.now() };
    await this.db.query(
      "UPDATE experiment_variants SET name = $1, config = $2, prompt_id = $3, updated_at = $4 WHERE id = $5",
      [next.name, JSON.stringify(next.config), promptIdOf(next), next.updatedAt, next.id],
    );
    return next;
  }

  async deleteVariant(experimentId: string, id: string): Promise<boolean> {
    return (
      (await this.changes(
        "DELETE FROM experiment_variants WHERE experiment_id = $1 AND id = $2 RETURNING 1",
        [experimentId, id],
      )) > 0
    );
  }

  // ---- runs ----

  async createRun(input: NewRun): Promise<ExperimentRunRecord> {
    const row = await this.row<ExperimentRunRow>(
      `INSERT INTO experiment_runs (id, organization_id, experiment_id, variant_id, variant_name, variant, evaluators,
           dataset_id, dataset_version_id, status, total, role, created_by_key_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', $10, $11, $12, $13) RETURNING *`,
      [
        this.ids("xrun"),
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
        this.clock.now(),
      ],
    );
    return toExperimentRun(row as ExperimentRunRow);
  }

  async attachJob(runId: string, jobId: string): Promise<void> {
    await this.db.query("UPDATE experiment_runs SET job_id = $1 WHERE id = $2", [jobId, runId]);
  }

  /**
   * Ends `failed` the active runs whose job the queue gave up on: a process that keeps dying
   * mid-run loses the job's lease on every attempt, and once they are spent the queue fails the
   * job without any handler running to end the run (its error is the queue's last error).
   */
  private async failAbandonedRuns(experimentId: string): Promise<void> {
    await this.db.query(
      `UPDATE experiment_runs SET status = 'failed', completed_at = $1,
           error = COALESCE((SELECT last_error FROM jobs WHERE jobs.id = experiment_runs.job_id), 'The run stopped')
         WHERE experiment_id = $2 AND status IN ${ACTIVE}
           AND job_id IN (SELECT id FROM jobs WHERE status = 'failed')`,
      [this.clock.now(), experimentId],
    );
  }

  async runById(id: string): Promise<ExperimentRunRecord | null> {
    const row = await this.row<ExperimentRunRow>("SELECT * FROM experiment_runs WHERE id = $1", [id]);
    return row === undefined ? null : toExperimentRun(row);
  }

  async getRun(experimentId: string, id: string): Promise<ExperimentRunRecord | null> {
    await this.failAbandonedRuns(experimentId);
    const row = await this.row<ExperimentRunRow>(
      "SELECT * FROM experiment_runs WHERE experiment_id = $1 AND id = $2",
      [experimentId, id],
    );
    return row === undefined ? null : toExperimentRun(row);
  }

  /** Newest first. */
  async listRuns(
    experimentId: string,
    filter: { variantId?: string | undefined; status?: ExperimentRunStatus | undefined },
    page: PageRequest,
  ): Promise<{ items: ExperimentRunRecord[]; total: number }> {
    await this.failAbandonedRuns(experimentId);
    const { values, p } = parameters([experimentId]);
    const where = ["experiment_id = $1"];
    if (filter.variantId !== undefined) where.push(`variant_id = ${p(filter.variantId)}`);
    if (filter.status !== undefined) where.push(`status = ${p(filter.status)}`);
    const clause = where.join(" AND ");
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM experiment_runs WHERE ${clause}`,
      values,
    );
    const rows = await this.rows<ExperimentRunRow>(
      `SELECT * FROM experiment_runs WHERE ${clause} ORDER BY created_at DESC, id DESC
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toExperimentRun), total: int(counted?.n ?? 0) };
  }

  /** The newest `completed` run of each variant of the experiment, in the variants' order. */
  async newestCompletedRuns(experimentId: string): Promise<ExperimentRunRecord[]> {
    const rows = await this.rows<ExperimentRunRow>(
      `SELECT r.* FROM experiment_runs r
         WHERE r.experiment_id = $1 AND r.status = 'completed' AND r.id = (
           SELECT r2.id FROM experiment_runs r2 WHERE r2.variant_id = r.variant_id AND r2.status = 'completed'
             ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1)
         ORDER BY r.created_at, r.id`,
      [experimentId],
    );
    return rows.map(toExperimentRun);
  }

  async hasActiveRun(experimentId: string, variantId?: string): Promise<boolean> {
    const row =
      variantId === undefined
        ? await this.row(
            `SELECT 1 FROM experiment_runs WHERE experiment_id = $1 AND status IN ${ACTIVE} LIMIT 1`,
            [experimentId],
          )
        : await this.row(
            `SELECT 1 FROM experiment_runs WHERE experiment_id = $1 AND variant_id = $2 AND status IN ${ACTIVE} LIMIT 1`,
            [experimentId, variantId],
          );
    return row !== undefined;
  }

  /** queued → running (the first claim stamps `startedAt`); false when the run is no longer active. */
  async markRunning(id: string): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE experiment_runs SET status = 'running', started_at = coalesce(started_at, $1)
           WHERE id = $2 AND status IN ${ACTIVE} RETURNING 1`,
        [this.clock.now(), id],
      )) > 0
    );
  }

  async setPlan(id: string, plan: Record<string, unknown>): Promise<void> {
    await this.db.query("UPDATE experiment_runs SET plan = $1 WHERE id = $2", [JSON.stringify(plan), id]);
  }

  /** Ends an active run (`completed`, `failed` or `cancelled`); false when it had already ended. */
  async finishRun(
    id: string,
    status: "completed" | "failed" | "cancelled",
    error: string | null = null,
  ): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE experiment_runs SET status = $1, error = $2, completed_at = $3
           WHERE id = $4 AND status IN ${ACTIVE} RETURNING 1`,
        [status, error, this.clock.now(), id],
      )) > 0
    );
  }

  /** Cancels every active run of the experiment in one statement; the ids cancelled, oldest first. */
  async cancelActiveRuns(experimentId: string): Promise<string[]> {
    const rows = await this.rows<{ id: string }>(
      `WITH cancelled AS (
         UPDATE experiment_runs SET status = 'cancelled', error = NULL, completed_at = $1
           WHERE experiment_id = $2 AND status IN ${ACTIVE} RETURNING id, created_at)
       SELECT id FROM cancelled ORDER BY created_at, id`,
      [this.clock.now(), experimentId],
    );
    return rows.map((row) => row.id);
  }

  // ---- results ----

  /**
   * Records one item's result while the run is `running`, with the run's counters, in one
   * transaction; null when the run is no longer running or already has a result for the item.
   * `accumulate` adds the result's scores to the run's per-evaluator sums (the evaluation
   * engine's rule, applied inside the transaction, on the run's row locked `FOR UPDATE`).
   */
  addResult(
    input: RunResultInsert,
    accumulate: (sums: ScoreSums, scores: readonly RunScore[]) => ScoreSums,
  ): Promise<RunResultRecord | null> {
    return this.transactionally(async (tx) => {
      const run = (
        await tx.query<{ status: ExperimentRunStatus; score_sums: string }>(
          "SELECT status, score_sums FROM experiment_runs WHERE id = $1 FOR UPDATE",
          [input.runId],
        )
      ).rows[0];
      if (run?.status !== "running") return null;
      const { otelTraceId, ...fields } = input;
      const record: RunResultRecord = {
        ...fields,
        traceId: null,
        id: this.ids("xres"),
        createdAt: this.clock.now(),
      };
      const inserted = await tx.query(
        `INSERT INTO experiment_run_results (id, organization_id, run_id, dataset_item_id, position, status,
             input, expected_output, output, error, latency_ms, usage, trace_id, scores, score_values, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
           ON CONFLICT DO NOTHING RETURNING 1`,
        [
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
        ],
      );
      if (inserted.rows.length === 0) return null;
      const sums = accumulate(json<ScoreSums>(run.score_sums), record.scores);
      await tx.query(
        `UPDATE experiment_runs SET completed = completed + $1, failed = failed + $2, score_sums = $3,
             input_tokens = input_tokens + $4, output_tokens = output_tokens + $5, cost_eur = cost_eur + $6
           WHERE id = $7`,
        [
          record.status === "completed" ? 1 : 0,
          record.status === "failed" ? 1 : 0,
          JSON.stringify(sums),
          record.usage.inputTokens,
          record.usage.outputTokens,
          record.usage.costEur,
          record.runId,
        ],
      );
      return record;
    });
  }

  /** The dataset items the run already has a result for (what a resumed run skips). */
  async resultItemIds(runId: string): Promise<Set<string>> {
    const rows = await this.rows<{ dataset_item_id: string }>(
      "SELECT dataset_item_id FROM experiment_run_results WHERE run_id = $1",
      [runId],
    );
    return new Set(rows.map((row) => row.dataset_item_id));
  }

  /** In dataset order. */
  async listResults(
    runId: string,
    filter: { status?: "completed" | "failed" | undefined },
    page: PageRequest,
  ): Promise<{ items: RunResultRecord[]; total: number }> {
    const { values, p } = parameters([runId]);
    const clause = filter.status === undefined ? "" : ` AND status = ${p(filter.status)}`;
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM experiment_run_results WHERE run_id = $1${clause}`,
      values,
    );
    const rows = await this.rows<RunResultRow>(
      `SELECT *, (SELECT t.id FROM traces t WHERE t.organization_id = r.organization_id
           AND t.otel_trace_id = r.trace_id AND t.kind = 'experiment' ORDER BY t.id LIMIT 1) AS trace_ref
         FROM experiment_run_results r WHERE run_id = $1${clause} ORDER BY position
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toRunResult), total: int(counted?.n ?? 0) };
  }

  /** Every result of the run in dataset order, with only what regression needs (names and values). */
  async resultScores(runId: string): Promise<
    Array<{
      datasetItemId: string;
      status: RunResultRecord["status"];
      scores: Array<{ name: string; value: number | null }>;
    }>
  > {
    const rows = await this.rows<{
      dataset_item_id: string;
      status: RunResultRecord["status"];
      score_values: string;
    }>(
      "SELECT dataset_item_id, status, score_values FROM experiment_run_results WHERE run_id = $1 ORDER BY position",
      [runId],
    );
    return rows.map((row) => ({
      datasetItemId: row.dataset_item_id,
      status: row.status,
      scores: fromScoreValues(row.score_values),
    }));
  }

  /** Whether the run result exists in the organization (scores on `run_result` subjects). */
  async resultExists(organizationId: string, id: string): Promise<boolean> {
    const row = await this.row(
      "SELECT 1 FROM experiment_run_results WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return row !== undefined;
  }
}
