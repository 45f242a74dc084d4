/**
 * One row per gateway call, for plan usage and later analytics.
 *
 * Rows are written in batches: `record` queues the row and one transaction
 * inserts everything queued a few milliseconds later (a commit per call was a
 * visible share of a gateway request). Reads see every recorded call: listing flushes
 * first, the charged total adds the queued rows, and closing the store flushes.
 *
 * The charged total is asked before every built-in call (the plan allowance), so it is kept
 * in memory per organization: read once from the hourly rollup, then advanced by every batch
 * this store writes, and read again after CHARGED_REFRESH_MS in case another process wrote
 * to the same database (a SUM over the month's raw rows cost more than the rest of a call).
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
import type { Database, Statement } from "better-sqlite3";
import { insertRows } from "./multi-row-insert.js";
import { statementCache } from "./statement-cache.js";
import { indexPendingLatencies, LATENCY_INDEX_AT } from "./usage-latencies.js";

export type { UsageRecord, UsageRecordInput } from "@groundwork/store-rows";

/**
 * Queued rows are written this long after the first of them (or at once when
 * this many are queued). A crash can lose the calls of that window, like the
 * calls still in flight; a commit per call cost about 5% of a gateway request.
 * A batch's cost is mostly the pages it dirties, and each latency bin's rows sit on
 * their own page of `usage_records_latency`, so a row costs less the more rows share
 * a commit: usage row and trace per call 83 µs in batches of 25, 66 in 50, 56 in 250
 * (same run, HP57). 50 ms holds ~125 calls at the gateway's full rate; a longer window saved
 * little more and held the event loop longer per commit (the p99 rose).
 */
const FLUSH_DELAY_MS = 50;
const FLUSH_AT_ROWS = 256;
/** A failed batch is tried again after this long (the database was busy or full). */
const RETRY_MS = 250;
/** A cached charged total is read from the database again after this long. */
const CHARGED_REFRESH_MS = 1_000;
const HOUR_MS = 3_600_000;

/** An organization's charged total (built-in calls) since `since`, as written to the table at `readAt`. */
interface ChargedTotal {
  since: number;
  total: number;
  readAt: number;
}

/** The charged cost of an organization's queued rows (built-in calls) and the oldest row's time. */
interface QueuedCharge {
  total: number;
  oldest: number;
}

export class UsageRecordStore {
  private readonly sql: (text: string) => Statement;
  /** Inserts a batch; answers whether the same transaction also indexed the rows' latencies. */
  private readonly insertAll: (records: readonly UsageRecord[]) => boolean;
  /** Rows this store wrote since it last indexed latencies (HP65). */
  private unindexed = 0;
  private pending: UsageRecord[] = [];
  private scheduled = false;
  private readonly charged = new Map<string, ChargedTotal>();
  /** Per organization: the charged cost of its queued rows, summed in queue order, and their oldest time. */
  private readonly queued = new Map<string, QueuedCharge>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
    const insert = { table: "usage_records", columns: USAGE_COLUMNS };
    this.insertAll = db.transaction((records: readonly UsageRecord[]) => {
      insertRows(this.sql, insert, records, usageRowValues);
      // Thousands of rows indexed at once share each latency bin's pages (usage-latencies.ts).
      if (this.unindexed + records.length < LATENCY_INDEX_AT) return false;
      indexPendingLatencies(this.sql);
      return true;
    });
  }

  record(input: UsageRecordInput): UsageRecord {
    const record = usageRecordOf(input, this.ids("use"), this.clock.now());
    this.pending.push(record);
    if (!record.byok) this.queue(record);
    if (this.pending.length >= FLUSH_AT_ROWS) this.flushOrRetry();
    else this.schedule(FLUSH_DELAY_MS);
    return record;
  }

  /** Writes every queued row now (reads and closing the store call it). */
  flush(): void {
    if (this.pending.length === 0 || !this.db.open) return;
    const batch = this.pending;
    this.pending = [];
    this.queued.clear();
    try {
      this.unindexed = this.insertAll(batch) ? 0 : this.unindexed + batch.length;
    } catch (error) {
      this.pending = batch.concat(this.pending); // nothing is dropped; the next flush tries again
      for (const record of this.pending) if (!record.byok) this.queue(record);
      throw error;
    }
    for (const record of batch) {
      const cached = this.charged.get(record.organizationId);
      if (cached !== undefined && !record.byok && record.createdAt >= cached.since) {
        cached.total += record.costEur;
      }
    }
  }

  private flushOrRetry(): void {
    try {
      this.flush();
    } catch {
      this.schedule(RETRY_MS, true);
    }
  }

  /** A retry does not keep the process alive; the first attempt does, so a script's last calls are kept. */
  private schedule(delayMs: number, retry = false): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const timer = setTimeout(() => {
      this.scheduled = false;
      this.flushOrRetry();
    }, delayMs);
    if (retry) timer.unref();
  }

  /** Charged cost (built-in calls) of an organization since `since` (epoch ms). */
  chargedSince(organizationId: string, since: number): number {
    // Rows still queued are added here rather than flushed: this runs before every built-in call,
    // so their sum is kept as they are queued (walking the queue cost a call ~125 rows at full rate).
    const charge = this.queued.get(organizationId);
    let queued = 0;
    if (charge !== undefined)
      queued = since <= charge.oldest ? charge.total : this.queuedSince(organizationId, since);
    return this.writtenChargedSince(organizationId, since) + queued;
  }

  private queue(record: UsageRecord): void {
    const charge = this.queued.get(record.organizationId);
    if (charge === undefined)
      this.queued.set(record.organizationId, { total: 0 + record.costEur, oldest: record.createdAt });
    else {
      charge.total += record.costEur;
      if (record.createdAt < charge.oldest) charge.oldest = record.createdAt;
    }
  }

  /** The queued rows' charged cost since a time after the oldest of them (a month or hour just begun). */
  private queuedSince(organizationId: string, since: number): number {
    let queued = 0;
    for (const record of this.pending) {
      if (record.organizationId === organizationId && !record.byok && record.createdAt >= since) {
        queued += record.costEur;
      }
    }
    return queued;
  }

  /** The charged total of the rows already written, from the cache while it is fresh. */
  private writtenChargedSince(organizationId: string, since: number): number {
    const now = this.clock.now();
    const cached = this.charged.get(organizationId);
    if (cached !== undefined && cached.since === since && now - cached.readAt < CHARGED_REFRESH_MS) {
      return cached.total;
    }
    // From an hour boundary on (the month's start always is one) the hourly rollup holds the same sum.
    const row = (
      since % HOUR_MS === 0
        ? this.sql(
            "SELECT COALESCE(SUM(cost_eur), 0) AS total FROM usage_hourly WHERE organization_id = ? AND hour >= ? AND byok = 0",
          )
        : this.sql(
            "SELECT COALESCE(SUM(cost_eur), 0) AS total FROM usage_records WHERE organization_id = ? AND byok = 0 AND created_at >= ?",
          )
    ).get(organizationId, since) as { total: number };
    // One entry per organization: the allowance asks with the current month's start.
    this.charged.set(organizationId, { since, total: row.total, readAt: now });
    return row.total;
  }

  list(organizationId: string, limit = 100): UsageRecord[] {
    this.flush();
    const rows = this.sql(
      "SELECT * FROM usage_records WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
    ).all(organizationId, limit) as Array<Record<string, unknown>>;
    return rows.map(toUsageRecord);
  }
}
