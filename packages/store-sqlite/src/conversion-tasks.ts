/**
 * Asynchronous conversion tasks (spec document 1, "Conversion task"). A task row
 * carries its state and, once finished, its result; its inputs (uploaded bytes,
 * URLs with their headers) are kept until then so a task interrupted by a restart
 * can run again, and are deleted when it finishes.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import {
  type ConversionTask,
  type ConversionTaskInput,
  type ConversionTaskInputRow,
  type ConversionTaskRow,
  type ConversionTaskStatus,
  conversionTaskInputColumns,
  type FinishTask,
  toConversionTaskInput,
  toConversionTask as toTask,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type { ConversionTask, ConversionTaskInput, ConversionTaskStatus, FinishTask };

export class ConversionTaskStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  create(options: {
    organizationId: string;
    request: unknown;
    inputs: ConversionTaskInput[];
  }): ConversionTask {
    const now = this.clock.now();
    const id = this.ids("task");
    const insertInput = this.sql(
      `INSERT INTO conversion_task_inputs (task_id, position, kind, filename, mime_type, url, headers, content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db
      .transaction(() => {
        this.sql(
          `INSERT INTO conversion_tasks (id, organization_id, status, num_docs, request, created_at, updated_at)
             VALUES (?, ?, 'pending', ?, ?, ?, ?)`,
        ).run(
          id,
          options.organizationId,
          options.inputs.length,
          JSON.stringify(options.request ?? null),
          now,
          now,
        );
        options.inputs.forEach((input, position) => {
          insertInput.run(id, position, ...conversionTaskInputColumns(input));
        });
      })
      .immediate();
    return this.get(id) as ConversionTask;
  }

  attachJob(id: string, jobId: string): void {
    this.sql("UPDATE conversion_tasks SET job_id = ?, updated_at = ? WHERE id = ?").run(
      jobId,
      this.clock.now(),
      id,
    );
  }

  /** The task, only within its organization when one is given. */
  get(id: string, organizationId?: string): ConversionTask | null {
    const row = (
      organizationId === undefined
        ? this.sql("SELECT * FROM conversion_tasks WHERE id = ?").get(id)
        : this.sql("SELECT * FROM conversion_tasks WHERE id = ? AND organization_id = ?").get(
            id,
            organizationId,
          )
    ) as ConversionTaskRow | undefined;
    return row === undefined ? null : toTask(row);
  }

  inputs(id: string): ConversionTaskInput[] {
    const rows = this.sql(
      "SELECT kind, filename, mime_type, url, headers, content FROM conversion_task_inputs WHERE task_id = ? ORDER BY position",
    ).all(id) as ConversionTaskInputRow[];
    return rows.map(toConversionTaskInput);
  }

  /** Moves a pending (or interrupted processing) task to processing; false when it already finished. */
  start(id: string): boolean {
    const now = this.clock.now();
    return (
      this.sql(
        `UPDATE conversion_tasks SET status = 'processing', num_processed = 0, started_at = ?, updated_at = ?
           WHERE id = ? AND status IN ('pending', 'processing')`,
      ).run(now, now, id).changes > 0
    );
  }

  progress(id: string, numProcessed: number): void {
    this.sql(
      "UPDATE conversion_tasks SET num_processed = ?, updated_at = ? WHERE id = ? AND status = 'processing'",
    ).run(numProcessed, this.clock.now(), id);
  }

  /** Records the outcome unless the task already finished (e.g. it was cancelled); drops the inputs. */
  finish(id: string, outcome: FinishTask): boolean {
    const now = this.clock.now();
    return this.db
      .transaction(() => {
        const changed =
          this.sql(
            `UPDATE conversion_tasks SET status = ?, result = ?, error = ?, num_succeeded = ?, num_failed = ?,
                 num_processed = CASE WHEN ? = 'success' THEN num_docs ELSE num_processed END,
                 finished_at = ?, updated_at = ?
               WHERE id = ? AND status IN ('pending', 'processing')`,
          ).run(
            outcome.status,
            JSON.stringify(outcome.result ?? null),
            outcome.error ?? null,
            outcome.numSucceeded,
            outcome.numFailed,
            outcome.status,
            now,
            now,
            id,
          ).changes > 0;
        if (changed) this.sql("DELETE FROM conversion_task_inputs WHERE task_id = ?").run(id);
        return changed;
      })
      .immediate();
  }

  /** Deletes the task and its result; true when it existed in that organization. */
  delete(id: string, organizationId: string): boolean {
    return (
      this.sql("DELETE FROM conversion_tasks WHERE id = ? AND organization_id = ?").run(id, organizationId)
        .changes > 0
    );
  }
}
