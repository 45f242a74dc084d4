/**
 * The durable job queue on PostgreSQL, for several worker processes on one database (the
 * contract is core's `JobQueue`; the SQLite queue is the same queue in one file):
 * - a claim is one statement: `FOR UPDATE SKIP LOCKED` picks the oldest ready job no other
 *   transaction holds, so concurrent workers never wait on each other nor take the same job;
 * - a claim is a lease: a worker that dies stops renewing it, and the next claim after it
 *   lapses hands the job out again, until `max_attempts` claims were made; a job whose last
 *   allowed claim lapsed is recorded failed (at the next claim of its kind, or when read);
 * - `enqueue` sends a NOTIFY on `groundwork_jobs` with the job's kind, so idle workers wake at
 *   once instead of at their next poll ({@link PostgresJobQueue.onEnqueued}).
 * Times come from the application's clock, like the SQLite queue's.
 */
import {
  type Clock,
  defaultIdGenerator,
  type EnqueueOptions,
  type FailOptions,
  type FailOutcome,
  type IdGenerator,
  type Job,
  type JobQueue,
  type JobStatus,
  systemClock,
} from "@groundwork/core";
import type { SqlClient } from "./sql-client.js";

const DEFAULT_MAX_ATTEMPTS = 3;
/** The NOTIFY channel of enqueued jobs (payload: the job's kind). */
export const JOBS_CHANNEL = "groundwork_jobs";

interface JobRow {
  id: string;
  kind: string;
  organization_id: string | null;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  result: unknown;
  last_error: string | null;
  created_at: string | number;
  run_at: string | number;
  lease_owner: string | null;
  lease_expires_at: string | number | null;
}

/** BIGINT arrives as a string from node-postgres; ms timestamps fit a double exactly. */
function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    organizationId: row.organization_id,
    payload: row.payload ?? null,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    result: row.result ?? null,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    runAt: Number(row.run_at),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
  };
}

/** A job whose last allowed claim lapsed will never run again: record it as failed. */
const ABANDON_SET = `status = 'failed', lease_owner = NULL, lease_expires_at = NULL, updated_at = $2,
    last_error = 'The worker stopped responding on the last allowed attempt (' || attempts || ' of ' || max_attempts || ')'`;
const EXHAUSTED = "status = 'running' AND lease_expires_at <= $2 AND attempts >= max_attempts";

/**
 * Abandons the exhausted jobs of the kinds (rows another claim holds are skipped, never waited
 * for, so claims cannot deadlock), then claims the oldest ready job. Both parts see one snapshot;
 * they touch disjoint rows (attempts spent vs. not).
 */
const CLAIM = `
  WITH abandoned AS (
    UPDATE jobs SET ${ABANDON_SET}
    WHERE id IN (SELECT id FROM jobs WHERE kind = ANY($1::text[]) AND ${EXHAUSTED} FOR UPDATE SKIP LOCKED)
  ), next AS (
    SELECT id FROM jobs
    WHERE kind = ANY($1::text[])
      AND ((status = 'queued' AND run_at <= $2::bigint)
        OR (status = 'running' AND lease_expires_at <= $2 AND attempts < max_attempts))
    ORDER BY run_at, id
    LIMIT 1
    FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, lease_owner = $3, lease_expires_at = $4,
    updated_at = $2
  FROM next WHERE jobs.id = next.id
  RETURNING jobs.*`;

export class PostgresJobQueue implements JobQueue {
  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<Job> {
    const now = this.clock.now();
    const { rows } = await this.client.query<JobRow>(
      `INSERT INTO jobs (id, kind, organization_id, payload, status, attempts, max_attempts, created_at, updated_at, run_at)
       VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6, $6, $7) RETURNING *`,
      [
        this.ids("job"),
        kind,
        options.organizationId ?? null,
        JSON.stringify(payload ?? null),
        options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        now,
        options.runAt ?? now,
      ],
    );
    await this.client.query("SELECT pg_notify($1, $2)", [JOBS_CHANNEL, kind]);
    return toJob(rows[0] as JobRow);
  }

  async claim(kinds: readonly string[], workerId: string, leaseMs: number): Promise<Job | null> {
    const now = this.clock.now();
    const { rows } = await this.client.query<JobRow>(CLAIM, [kinds, now, workerId, now + leaseMs]);
    return rows[0] === undefined ? null : toJob(rows[0]);
  }

  async heartbeat(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const now = this.clock.now();
    const { rows } = await this.client.query(
      `UPDATE jobs SET lease_expires_at = $3, updated_at = $4
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
      [jobId, workerId, now + leaseMs, now],
    );
    return rows.length > 0;
  }

  async complete(jobId: string, workerId: string, result?: unknown): Promise<boolean> {
    const { rows } = await this.client.query(
      `UPDATE jobs SET status = 'succeeded', result = $3, lease_owner = NULL, lease_expires_at = NULL, updated_at = $4
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
      [jobId, workerId, JSON.stringify(result ?? null), this.clock.now()],
    );
    return rows.length > 0;
  }

  async fail(
    jobId: string,
    workerId: string,
    error: string,
    options: FailOptions = {},
  ): Promise<FailOutcome> {
    const now = this.clock.now();
    // One statement decides: retry while attempts remain (and the failure is not permanent),
    // else fail for good; nothing when the worker no longer holds the job.
    const { rows } = await this.client.query<{ status: JobStatus }>(
      `UPDATE jobs SET
         status = CASE WHEN $4::boolean AND attempts < max_attempts THEN 'queued' ELSE 'failed' END,
         run_at = CASE WHEN $4::boolean AND attempts < max_attempts THEN $5::bigint ELSE run_at END,
         last_error = $3, lease_owner = NULL, lease_expires_at = NULL, updated_at = $6
       WHERE id = $1 AND status = 'running' AND lease_owner = $2
       RETURNING status`,
      [jobId, workerId, error, options.permanent !== true, now + (options.retryInMs ?? 0), now],
    );
    const status = rows[0]?.status;
    return status === undefined ? "lost" : status === "queued" ? "retrying" : "failed";
  }

  /** The job as it stands; one abandoned on its last attempt reads as failed, not as running forever. */
  async get(jobId: string): Promise<Job | null> {
    const now = this.clock.now();
    await this.client.query(`UPDATE jobs SET ${ABANDON_SET} WHERE id = $1 AND ${EXHAUSTED}`, [jobId, now]);
    const { rows } = await this.client.query<JobRow>("SELECT * FROM jobs WHERE id = $1", [jobId]);
    return rows[0] === undefined ? null : toJob(rows[0]);
  }

  /**
   * Calls `wake` with the kind of every job enqueued by any process on this database, so a
   * worker can claim at once (a JobWorker's poll stays the fallback). Resolves to a function
   * that stops listening.
   */
  onEnqueued(wake: (kind: string) => void): Promise<() => Promise<void>> {
    return this.client.listen(JOBS_CHANNEL, wake);
  }
}
