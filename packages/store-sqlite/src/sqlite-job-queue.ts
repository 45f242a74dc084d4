/**
 * The durable job queue on SQLite. Claims run in IMMEDIATE transactions, so two
 * processes sharing the file never claim the same job; a claim is a lease that
 * expires unless renewed, which is how a job whose worker died runs again.
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
import type { Database, Statement } from "better-sqlite3";

const DEFAULT_MAX_ATTEMPTS = 3;

/** A job whose last allowed claim lapsed will never run again: record it as failed. */
const ABANDON = `UPDATE jobs SET status = 'failed', lease_owner = NULL, lease_expires_at = NULL, updated_at = @now,
    last_error = 'The worker stopped responding on the last allowed attempt (' || attempts || ' of ' || max_attempts || ')'
  WHERE status = 'running' AND lease_expires_at <= @now AND attempts >= max_attempts`;

interface JobRow {
  id: string;
  kind: string;
  organization_id: string | null;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  result: string | null;
  last_error: string | null;
  created_at: number;
  run_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    organizationId: row.organization_id,
    payload: JSON.parse(row.payload) as unknown,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    lastError: row.last_error,
    createdAt: row.created_at,
    runAt: row.run_at,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
  };
}

export class SqliteJobQueue implements JobQueue {
  private readonly statements: {
    insert: Statement;
    get: Statement;
    abandonExhausted: Statement;
    abandonOne: Statement;
    nextClaimable: Statement;
    claim: Statement;
    heartbeat: Statement;
    complete: Statement;
    retry: Statement;
    failForGood: Statement;
  };

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    const kinds = "kind IN (SELECT value FROM json_each(@kinds))";
    this.statements = {
      insert: db.prepare(
        `INSERT INTO jobs (id, kind, organization_id, payload, status, attempts, max_attempts,
                           created_at, updated_at, run_at)
         VALUES (@id, @kind, @organizationId, @payload, 'queued', 0, @maxAttempts, @now, @now, @runAt)`,
      ),
      get: db.prepare("SELECT * FROM jobs WHERE id = ?"),
      abandonExhausted: db.prepare(`${ABANDON} AND ${kinds}`),
      abandonOne: db.prepare(`${ABANDON} AND id = @id`),
      nextClaimable: db.prepare(
        `SELECT id FROM jobs
         WHERE ${kinds} AND ((status = 'queued' AND run_at <= @now) OR (status = 'running' AND lease_expires_at <= @now))
         ORDER BY run_at, id LIMIT 1`,
      ),
      claim: db.prepare(
        `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_owner = @workerId,
           lease_expires_at = @expires, updated_at = @now
         WHERE id = @id RETURNING *`,
      ),
      heartbeat: db.prepare(
        `UPDATE jobs SET lease_expires_at = @expires, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @workerId`,
      ),
      complete: db.prepare(
        `UPDATE jobs SET status = 'succeeded', result = @result, lease_owner = NULL, lease_expires_at = NULL,
           updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @workerId`,
      ),
      retry: db.prepare(
        `UPDATE jobs SET status = 'queued', last_error = @error, run_at = @runAt, lease_owner = NULL,
           lease_expires_at = NULL, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @workerId AND attempts < max_attempts
         RETURNING id`,
      ),
      failForGood: db.prepare(
        `UPDATE jobs SET status = 'failed', last_error = @error, lease_owner = NULL, lease_expires_at = NULL,
           updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @workerId`,
      ),
    };
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<Job> {
    const now = this.clock.now();
    const id = this.ids("job");
    this.statements.insert.run({
      id,
      kind,
      organizationId: options.organizationId ?? null,
      payload: JSON.stringify(payload ?? null),
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      now,
      runAt: options.runAt ?? now,
    });
    return this.mustGet(id);
  }

  async claim(kinds: readonly string[], workerId: string, leaseMs: number): Promise<Job | null> {
    const now = this.clock.now();
    const params = { kinds: JSON.stringify(kinds), now };
    const claimOne = this.db.transaction((): JobRow | undefined => {
      this.statements.abandonExhausted.run(params);
      const next = this.statements.nextClaimable.get(params) as { id: string } | undefined;
      if (next === undefined) return undefined;
      return this.statements.claim.get({ id: next.id, workerId, expires: now + leaseMs, now }) as JobRow;
    });
    const row = claimOne.immediate();
    return row === undefined ? null : toJob(row);
  }

  async heartbeat(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const now = this.clock.now();
    return this.statements.heartbeat.run({ id: jobId, workerId, expires: now + leaseMs, now }).changes > 0;
  }

  async complete(jobId: string, workerId: string, result?: unknown): Promise<boolean> {
    const params = { id: jobId, workerId, result: JSON.stringify(result ?? null), now: this.clock.now() };
    return this.statements.complete.run(params).changes > 0;
  }

  async fail(
    jobId: string,
    workerId: string,
    error: string,
    options: FailOptions = {},
  ): Promise<FailOutcome> {
    const now = this.clock.now();
    const params = { id: jobId, workerId, error, now };
    return this.db
      .transaction((): FailOutcome => {
        if (options.permanent !== true) {
          const retried = this.statements.retry.get({ ...params, runAt: now + (options.retryInMs ?? 0) });
          if (retried !== undefined) return "retrying";
        }
        return this.statements.failForGood.run(params).changes > 0 ? "failed" : "lost";
      })
      .immediate();
  }

  /** The job as it stands; one abandoned on its last attempt reads as failed, not as running forever. */
  async get(jobId: string): Promise<Job | null> {
    this.statements.abandonOne.run({ id: jobId, now: this.clock.now() });
    const row = this.statements.get.get(jobId) as JobRow | undefined;
    return row === undefined ? null : toJob(row);
  }

  private mustGet(id: string): Job {
    const row = this.statements.get.get(id) as JobRow;
    return toJob(row);
  }
}
