/**
 * Asynchronous conversion tasks on PostgreSQL: the same methods and answers as store-sqlite's
 * ConversionTaskStore. A task's inputs are kept until it finishes so a task interrupted by a
 * restart can run again; creating and finishing are one transaction each.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import {
  type ConversionTask,
  type ConversionTaskInput,
  type ConversionTaskInputRow,
  type ConversionTaskRow,
  conversionTaskInputColumns,
  type FinishTask,
  toConversionTask,
  toConversionTaskInput,
} from "@groundwork/store-rows";
import { connectionOf, transactionOn } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresConversionTaskStore {
  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  async create(options: {
    organizationId: string;
    request: unknown;
    inputs: ConversionTaskInput[];
  }): Promise<ConversionTask> {
    const now = this.clock.now();
    const id = this.ids("task");
    const row = await transactionOn(this.client, async (tx) => {
      const { rows } = await tx.query<ConversionTaskRow>(
        `INSERT INTO conversion_tasks (id, organization_id, status, num_docs, request, created_at, updated_at)
           VALUES ($1, $2, 'pending', $3, $4, $5, $6) RETURNING *`,
        [
          id,
          options.organizationId,
          options.inputs.length,
          JSON.stringify(options.request ?? null),
          now,
          now,
        ],
      );
      for (const [position, input] of options.inputs.entries()) {
        await tx.query(
          `INSERT INTO conversion_task_inputs (task_id, position, kind, filename, mime_type, url, headers, content)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [id, position, ...conversionTaskInputColumns(input)],
        );
      }
      return rows[0] as ConversionTaskRow;
    });
    return toConversionTask(row);
  }

  async attachJob(id: string, jobId: string): Promise<void> {
    await connectionOf(this.client).query(
      "UPDATE conversion_tasks SET job_id = $1, updated_at = $2 WHERE id = $3",
      [jobId, this.clock.now(), id],
    );
  }

  /** The task, only within its organization when one is given. */
  async get(id: string, organizationId?: string): Promise<ConversionTask | null> {
    const { rows } =
      organizationId === undefined
        ? await connectionOf(this.client).query<ConversionTaskRow>(
            "SELECT * FROM conversion_tasks WHERE id = $1",
            [id],
          )
        : await connectionOf(this.client).query<ConversionTaskRow>(
            "SELECT * FROM conversion_tasks WHERE id = $1 AND organization_id = $2",
            [id, organizationId],
          );
    return rows[0] === undefined ? null : toConversionTask(rows[0]);
  }

  async inputs(id: string): Promise<ConversionTaskInput[]> {
    const { rows } = await connectionOf(this.client).query<ConversionTaskInputRow>(
      `SELECT kind, filename, mime_type, url, headers, content FROM conversion_task_inputs
         WHERE task_id = $1 ORDER BY position`,
      [id],
    );
    return rows.map(toConversionTaskInput);
  }

  /** Moves a pending (or interrupted processing) task to processing; false when it already finished. */
  async start(id: string): Promise<boolean> {
    const now = this.clock.now();
    const { rows } = await connectionOf(this.client).query(
      `UPDATE conversion_tasks SET status = 'processing', num_processed = 0, started_at = $1, updated_at = $1
         WHERE id = $2 AND status IN ('pending', 'processing') RETURNING id`,
      [now, id],
    );
    return rows.length > 0;
  }

  async progress(id: string, numProcessed: number): Promise<void> {
    await connectionOf(this.client).query(
      "UPDATE conversion_tasks SET num_processed = $1, updated_at = $2 WHERE id = $3 AND status = 'processing'",
      [numProcessed, this.clock.now(), id],
    );
  }

  /** Records the outcome unless the task already finished (e.g. it was cancelled); drops the inputs. */
  async finish(id: string, outcome: FinishTask): Promise<boolean> {
    const now = this.clock.now();
    return transactionOn(this.client, async (tx) => {
      const { rows } = await tx.query(
        `UPDATE conversion_tasks SET status = $1, result = $2, error = $3, num_succeeded = $4, num_failed = $5,
             num_processed = CASE WHEN $1 = 'success' THEN num_docs ELSE num_processed END,
             finished_at = $6, updated_at = $6
           WHERE id = $7 AND status IN ('pending', 'processing') RETURNING id`,
        [
          outcome.status,
          JSON.stringify(outcome.result ?? null),
          outcome.error ?? null,
          outcome.numSucceeded,
          outcome.numFailed,
          now,
          id,
        ],
      );
      if (rows.length === 0) return false;
      await tx.query("DELETE FROM conversion_task_inputs WHERE task_id = $1", [id]);
      return true;
    });
  }

  /** Deletes the task and its result; true when it existed in that organization. */
  async delete(id: string, organizationId: string): Promise<boolean> {
    const { rows } = await connectionOf(this.client).query(
      "DELETE FROM conversion_tasks WHERE id = $1 AND organization_id = $2 RETURNING id",
      [id, organizationId],
    );
    return rows.length > 0;
  }
}
