/**
 * Usage records on PostgreSQL: store-sqlite's `UsageRecordStore`, asynchronous. As there,
 * `record` queues the row and one multi-row INSERT writes everything queued a few milliseconds
 * later (the gateway records on its hot path; a round trip per call would be its largest cost),
 * and the rollups follow in the same statement (the statement trigger of migration 40).
 *
 * The charged total (read before every built-in call) is cached per organization as on SQLite.
 * Writes and the total's database reads run one after the other on one chain, so a read never
 * races a batch in flight: the rows of a batch are counted as queued until it commits and only
 * then added to the cached total.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import {
  toUsageRecord,
  USAGE_COLUMNS,
  type UsageRecord,
  type UsageRecordInput,
  usageRecordOf,
  usageRowValues,
} from "@groundwork/store-rows";
import { atomicallyOn } from "./postgres-family.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

/** As on SQLite: the batch window, its size, the retry delay and the charged total's freshness. */
const FLUSH_DELAY_MS = 20;
const FLUSH_AT_ROWS = 256;
const RETRY_MS = 250;
const CHARGED_REFRESH_MS = 1_000;
const HOUR_MS = 3_600_000;
/** Rows per INSERT statement (16 parameters each, under PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 1_000;

interface ChargedTotal {
  since: number;
  total: number;
  readAt: number;
}

const isCharged = (record: UsageRecord, organizationId: string, since: number) =>
  record.organizationId === organizationId && !record.byok && record.createdAt >= since;

/** One INSERT of `records` (their values in `USAGE_COLUMNS` order). */
async function insertRows(sql: SqlQueryable, records: readonly UsageRecord[]): Promise<void> {
  const width = USAGE_COLUMNS.length;
  const tuples = records.map(
    (_, row) => `(${USAGE_COLUMNS.map((_, column) => `$${row * width + column + 1}`).join(", ")})`,
  );
  await sql.query(
    `INSERT INTO usage_records (${USAGE_COLUMNS.join(", ")}) VALUES ${tuples.join(", ")}`,
    records.flatMap(usageRowValues),
  );
}

export class PostgresUsageRecordStore {
  private pending: UsageRecord[] = [];
  /** The batch being written: not yet in the database's totals, no longer in `pending`. */
  private writing: UsageRecord[] = [];
  /** Every write and charged-total read, in order. */
  private chain: Promise<unknown> = Promise.resolve();
  private scheduled = false;
  private closed = false;
  private readonly charged = new Map<string, ChargedTotal>();

  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** A unit of work over this client (the platform's `AtomicPort`; see postgres-family.ts). */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return atomicallyOn(this.client, work);
  }

  async record(input: UsageRecordInput): Promise<UsageRecord> {
    const record = usageRecordOf(input, this.ids("use"), this.clock.now());
    this.pending.push(record);
    if (this.pending.length >= FLUSH_AT_ROWS) this.flushOrRetry();
    else this.schedule(FLUSH_DELAY_MS);
    return record;
  }

  /** Writes every queued row now (reads and closing the store call it). */
  flush(): Promise<void> {
    return this.inTurn(() => this.writePending());
  }

  /** Writes the queued rows and stops the timers: the composed store's `close` awaits it. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  /** Runs `work` after every write and read queued before it. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.chain.then(work);
    this.chain = turn.catch(() => {});
    return turn;
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0 || this.closed) return;
    const batch = this.pending;
    this.pending = [];
    this.writing = batch;
    try {
      if (batch.length <= ROWS_PER_STATEMENT) await insertRows(this.client, batch);
      else {
        await this.client.transaction(async (tx) => {
          for (let start = 0; start < batch.length; start += ROWS_PER_STATEMENT) {
            await insertRows(tx, batch.slice(start, start + ROWS_PER_STATEMENT));
          }
        });
      }
    } catch (error) {
      this.pending = batch.concat(this.pending); // nothing is dropped; the next flush tries again
      throw error;
    } finally {
      this.writing = [];
    }
    for (const record of batch) {
      const cached = this.charged.get(record.organizationId);
      if (cached !== undefined && isCharged(record, record.organizationId, cached.since)) {
        cached.total += record.costEur;
      }
    }
  }

  private flushOrRetry(): void {
    this.flush().catch(() => this.schedule(RETRY_MS, true));
  }

  /** A retry does not keep the process alive; the first attempt does, so a script's last calls are kept. */
  private schedule(delayMs: number, retry = false): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    const timer = setTimeout(() => {
      this.scheduled = false;
      this.flushOrRetry();
    }, delayMs);
    if (retry) timer.unref();
  }

  /** Charged cost (built-in calls) of an organization since `since` (epoch ms). */
  async chargedSince(organizationId: string, since: number): Promise<number> {
    const written = await this.writtenChargedSince(organizationId, since);
    // Counted after the written total is known: a batch is either in it or still queued here.
    let queued = 0;
    for (const list of [this.writing, this.pending]) {
      for (const record of list) if (isCharged(record, organizationId, since)) queued += record.costEur;
    }
    return written + queued;
  }

  private async writtenChargedSince(organizationId: string, since: number): Promise<number> {
    const cached = this.charged.get(organizationId);
    if (
      cached !== undefined &&
      cached.since === since &&
      this.clock.now() - cached.readAt < CHARGED_REFRESH_MS
    ) {
      return cached.total;
    }
    return this.inTurn(async () => {
      const now = this.clock.now();
      // From an hour boundary on (the month's start always is one) the hourly rollup holds the same sum.
      const { rows } = await this.client.query<{ total: number }>(
        since % HOUR_MS === 0
          ? "SELECT COALESCE(SUM(cost_eur), 0) AS total FROM usage_hourly WHERE organization_id = $1 AND hour >= $2 AND NOT byok"
          : "SELECT COALESCE(SUM(cost_eur), 0) AS total FROM usage_records WHERE organization_id = $1 AND NOT byok AND created_at >= $2",
        [organizationId, since],
      );
      const total = Number(rows[0]?.total ?? 0);
      this.charged.set(organizationId, { since, total, readAt: now });
      return total;
    });
  }

  async list(organizationId: string, limit = 100): Promise<UsageRecord[]> {
    await this.flush();
    const { rows } = await this.client.query(
      "SELECT * FROM usage_records WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
      [organizationId, limit],
    );
    return rows.map(toUsageRecord);
  }
}
