/**
 * Analytics queries (PLATFORM.md §14) over usage records, extractions and scores of one
 * organization. Usage sums and latency-bin counts come from the rollups for whole days (bins)
 * and whole hours, and from the rows themselves for the partial hours at the range's edges; the exact latency of
 * a rank is then read inside one bin from `usage_latencies`, the latency index written behind the
 * rows (docs/decisions.md AN3, HP65). The maths (ranks, rates, buckets) live in @groundwork/observability.
 */
import type { Clock, IdGenerator } from "@groundwork/core";
import {
  type ErrorGroup,
  type ExtractionAnalyticsFilter,
  type ExtractionGrouping,
  type ExtractionStats,
  type HumanScoreFilter,
  type HumanScoreStats,
  type LatencyBinCount,
  splitRange,
  type TimeRange,
  type UsageFilter,
  type UsageGrouping,
  type UsageTotals,
} from "@groundwork/store-rows";
import type { Database } from "better-sqlite3";
import type { ExtractionQualityFacts } from "./extractions.js";
import { SqliteStore } from "./sqlite-store.js";
import { indexPendingLatencies, latenciesPending } from "./usage-latencies.js";

export type {
  ErrorGroup,
  ExtractionAnalyticsFilter,
  ExtractionGrouping,
  ExtractionStats,
  HumanScoreFilter,
  HumanScoreStats,
  LatencyBinCount,
  TimeRange,
  UsageFilter,
  UsageGrouping,
  UsageTotals,
} from "@groundwork/store-rows";

const DAY_MS = 86_400_000;

/** The SQL of a grouping key over a time column (the bucket size is a trusted integer). */
function keySql(grouping: UsageGrouping, timeColumn: string): string {
  if (grouping.by === "all") return "''";
  if (grouping.by === "model") return "model";
  const size = Math.trunc(grouping.sizeMs);
  return `CAST(${timeColumn} - ${timeColumn} % ${size} AS TEXT)`;
}

function usageWhere(filter: UsageFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.model !== undefined) {
    clauses.push("model = ?");
    params.push(filter.model);
  }
  if (filter.surface !== undefined) {
    clauses.push("surface = ?");
    params.push(filter.surface);
  }
  if (filter.byok !== undefined) {
    clauses.push("byok = ?");
    params.push(filter.byok ? 1 : 0);
  }
  if (filter.models !== undefined) {
    clauses.push(`model IN (${filter.models.map(() => "?").join(", ") || "NULL"})`);
    params.push(...filter.models);
  }
  return { sql: clauses.map((clause) => ` AND ${clause}`).join(""), params };
}

/** Scores of the organization in the range, by name, and (with `schemaId`) on that schema's extractions. */
function scoreWhere(
  organizationId: string,
  range: TimeRange,
  filter: HumanScoreFilter,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [organizationId, range.from, range.to];
  let sql = "";
  if (filter.name !== undefined) {
    sql += " AND name = ?";
    params.push(filter.name);
  }
  if (filter.schemaId !== undefined) {
    sql += ` AND subject_type = 'extraction' AND subject_id IN
        (SELECT id FROM extractions WHERE organization_id = ? AND schema_id = ?)`;
    params.push(organizationId, filter.schemaId);
  }
  return { sql, params };
}

/**
 * Where usage sums come from over part of a range: a rollup table (hourly or daily rows that
 * already count requests) over whole hours or days, or the usage rows themselves at the edges.
 */
interface RollupSource {
  spans: readonly TimeRange[];
  table: "usage_hourly" | "usage_latency_daily" | "usage_latency_hourly" | "usage_records";
  /** The table's time column, also what `keySql` groups buckets by. */
  time: "day" | "hour" | "created_at";
  /** Rollup rows carry `requests`; usage rows count one each. */
  rollup: boolean;
}

export class AnalyticsStore extends SqliteStore {
  constructor(
    db: Database,
    /** Usage rows are written in batches: reads flush the queued ones first. */
    private readonly usage: { flush(): void },
    clock?: Clock,
    ids?: IdGenerator,
  ) {
    super(db, clock, ids);
  }

  /** Requests, errors, tokens and cost per group. */
  usageTotals(
    organizationId: string,
    range: TimeRange,
    filter: UsageFilter,
    grouping: UsageGrouping,
  ): UsageTotals[] {
    this.usage.flush();
    const where = usageWhere(filter);
    const { hours, edges } = splitRange(range, false);
    const groups = new Map<string, UsageTotals>();
    const add = (row: UsageTotals) => {
      const group = groups.get(row.key);
      if (group === undefined) groups.set(row.key, { ...row });
      else {
        group.requests += row.requests;
        group.errors += row.errors;
        group.promptTokens += row.promptTokens;
        group.completionTokens += row.completionTokens;
        group.costEur += row.costEur;
      }
    };
    const sources: RollupSource[] = [
      { spans: hours, table: "usage_hourly", time: "hour", rollup: true },
      { spans: edges, table: "usage_records", time: "created_at", rollup: false },
    ];
    for (const source of sources) {
      const measures = source.rollup
        ? "sum(requests) AS requests, sum(errors) AS errors"
        : "count(*) AS requests, sum(outcome = 'error') AS errors";
      this.eachSpan(source, organizationId, where, (span, params) =>
        (
          this.sql(
            `SELECT ${keySql(grouping, source.time)} AS key, ${measures}, sum(prompt_tokens) AS promptTokens,
                 sum(completion_tokens) AS completionTokens, sum(cost_eur) AS costEur
               FROM ${source.table} WHERE ${span}${where.sql} GROUP BY 1`,
          ).all(...params) as UsageTotals[]
        ).forEach(add),
      );
    }
    return [...groups.values()];
  }

  /** How many calls fall in each latency bin, per group, bins ascending within a group. */
  latencyBins(
    organizationId: string,
    range: TimeRange,
    filter: UsageFilter,
    grouping: UsageGrouping,
  ): LatencyBinCount[] {
    this.usage.flush();
    const where = usageWhere(filter);
    // Daily rollups only where a group is a whole number of days (not for hourly buckets).
    const { days, hours, edges } = splitRange(range, !(grouping.by === "bucket" && grouping.sizeMs < DAY_MS));
    const counts = new Map<string, LatencyBinCount>();
    const add = (row: LatencyBinCount) => {
      const id = `${row.key}\u0000${row.bin}`;
      const known = counts.get(id);
      if (known === undefined) counts.set(id, { ...row });
      else known.count += row.count;
    };
    const sources: RollupSource[] = [
      { spans: days, table: "usage_latency_daily", time: "day", rollup: true },
      { spans: hours, table: "usage_latency_hourly", time: "hour", rollup: true },
      { spans: edges, table: "usage_records", time: "created_at", rollup: false },
    ];
    for (const source of sources) {
      const count = source.rollup ? "sum(requests)" : "count(*)";
      this.eachSpan(source, organizationId, where, (span, params) =>
        (
          this.sql(
            `SELECT ${keySql(grouping, source.time)} AS key, latency_bin AS bin, ${count} AS count
               FROM ${source.table} WHERE ${span}${where.sql} GROUP BY 1, 2`,
          ).all(...params) as LatencyBinCount[]
        ).forEach(add),
      );
    }
    return [...counts.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.bin - b.bin));
  }

  /** Runs `query` once per span of `source`, with its time condition and parameters. */
  private eachSpan(
    source: RollupSource,
    organizationId: string,
    where: { params: unknown[] },
    query: (condition: string, params: unknown[]) => void,
  ): void {
    const condition = `organization_id = ? AND ${source.time} >= ? AND ${source.time} < ?`;
    for (const span of source.spans) query(condition, [organizationId, span.from, span.to, ...where.params]);
  }

  /** The latency at 0-based `offset` in ascending order among the calls of one bin. */
  latencyInBin(
    organizationId: string,
    range: TimeRange,
    filter: UsageFilter,
    bin: number,
    offset: number,
  ): number | null {
    this.usage.flush();
    // Immediate: the rows indexed and the watermark moved are the same rows, whoever wrote them.
    if (latenciesPending(this.sql)) this.atomically(() => indexPendingLatencies(this.sql));
    const where = usageWhere(filter);
    // The filters' columns are the usage row's (one lookup by its seq per entry of the bin).
    const rows = where.sql === "" ? "" : " JOIN usage_records r ON r.seq = l.seq";
    const row = this.sql(
      `SELECT l.latency_ms AS latency FROM usage_latencies l${rows}
         WHERE l.organization_id = ? AND l.latency_bin = ? AND l.created_at >= ? AND l.created_at < ?${where.sql}
         ORDER BY l.latency_ms LIMIT 1 OFFSET ?`,
    ).get(organizationId, bin, range.from, range.to, ...where.params, offset) as
      | { latency: number }
      | undefined;
    return row?.latency ?? null;
  }

  /** Failed calls grouped by the code and status the caller received, by count desc. */
  errorGroups(organizationId: string, range: TimeRange, filter: UsageFilter): ErrorGroup[] {
    this.usage.flush();
    const where = usageWhere(filter);
    return this.sql(
      `SELECT error_code AS code, status, count(*) AS count, max(created_at) AS lastAt
         FROM usage_records WHERE organization_id = ? AND outcome = 'error' AND created_at >= ? AND created_at < ?${where.sql}
         GROUP BY error_code, status ORDER BY count DESC, lastAt DESC, code, status`,
    ).all(organizationId, range.from, range.to, ...where.params) as ErrorGroup[];
  }

  // ---- extractions ----

  /** Finished extractions whose quality facts were never computed (written before they existed). */
  extractionsWithoutQuality(organizationId: string, limit: number): Array<{ id: string; result: unknown }> {
    const rows = this.sql(
      "SELECT id, result FROM extractions WHERE organization_id = ? AND quality_computed = 0 LIMIT ?",
    ).all(organizationId, limit) as Array<{ id: string; result: string | null }>;
    return rows.map((row) => ({ id: row.id, result: row.result === null ? null : JSON.parse(row.result) }));
  }

  /** Stores computed facts, all in one transaction. */
  setExtractionQuality(facts: ReadonlyArray<{ id: string; quality: ExtractionQualityFacts }>): void {
    this.atomically(() => {
      const update = this.sql(
        `UPDATE extractions SET confidence = ?, flag_count = ?, validation_applied = ?, violation_count = ?,
             quality_computed = 1 WHERE id = ?`,
      );
      for (const { id, quality } of facts) {
        const applied = quality.validationApplied === null ? null : quality.validationApplied ? 1 : 0;
        update.run(quality.confidence, quality.flagCount, applied, quality.violationCount, id);
      }
    });
  }

  /** Extraction counts and quality sums per group, by extractions desc. */
  extractionStats(
    organizationId: string,
    range: TimeRange,
    filter: ExtractionAnalyticsFilter,
    grouping: ExtractionGrouping,
  ): ExtractionStats[] {
    const key = grouping.by === "schema" ? "schema_id" : keySql(grouping, "created_at");
    const params: unknown[] = [organizationId, range.from, range.to];
    let where = "";
    if (filter.schemaId !== undefined) {
      where += " AND schema_id = ?";
      params.push(filter.schemaId);
    }
    if (filter.model !== undefined) {
      where += " AND model = ?";
      params.push(filter.model);
    }
    return this.sql(
      `SELECT ${key} AS key, count(*) AS extractions, sum(status = 'COMPLETED') AS completed,
           sum(status = 'FAILED') AS failed, count(confidence) AS withConfidence,
           coalesce(sum(confidence), 0) AS confidenceSum,
           sum(confidence IS NOT NULL AND flag_count > 0) AS flagged,
           sum(validation_applied = 1) AS validationApplied,
           sum(validation_applied = 1 AND violation_count > 0) AS validationFailed
         FROM extractions WHERE organization_id = ? AND created_at >= ? AND created_at < ?${where}
         GROUP BY 1 ORDER BY 2 DESC, 1`,
    ).all(...params) as ExtractionStats[];
  }

  /** Names of schemas of the organization (deleted ones are absent). */
  schemaNames(organizationId: string, ids: readonly string[]): Map<string, string> {
    const names = new Map<string, string>();
    const statement = this.sql("SELECT name FROM schemas WHERE organization_id = ? AND id = ?");
    for (const id of ids) {
      const row = statement.get(organizationId, id) as { name: string } | undefined;
      if (row !== undefined) names.set(id, row.name);
    }
    return names;
  }

  /**
   * `HUMAN` scores per group and name: count, and the mean of NUMERIC values and BOOLEAN as 0/1
   * (`json_extract` reads `true`/`false` as 1/0); CATEGORICAL means are null. With `schemaId`,
   * only scores on that schema's extractions count.
   */
  humanScoreStats(
    organizationId: string,
    range: TimeRange,
    filter: HumanScoreFilter,
    grouping: UsageGrouping,
  ): HumanScoreStats[] {
    const key = keySql(grouping, "created_at");
    const { sql: where, params } = scoreWhere(organizationId, range, filter);
    return this.sql(
      `SELECT ${key} AS key, name, data_type AS dataType, count(*) AS count,
           CASE WHEN data_type = 'CATEGORICAL' THEN NULL ELSE avg(json_extract(value, '$')) END AS mean
         FROM scores WHERE organization_id = ? AND source = 'HUMAN' AND created_at >= ? AND created_at < ?${where}
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ).all(...params) as HumanScoreStats[];
  }

  /** One mean per group over every NUMERIC and BOOLEAN `HUMAN` score (the quality trend's line). */
  humanScoreMeans(
    organizationId: string,
    range: TimeRange,
    filter: HumanScoreFilter,
    grouping: UsageGrouping,
  ): Array<{ key: string; mean: number | null }> {
    const key = keySql(grouping, "created_at");
    const { sql: where, params } = scoreWhere(organizationId, range, filter);
    return this.sql(
      `SELECT ${key} AS key, avg(json_extract(value, '$')) AS mean
         FROM scores WHERE organization_id = ? AND source = 'HUMAN' AND data_type IN ('NUMERIC', 'BOOLEAN')
           AND created_at >= ? AND created_at < ?${where}
         GROUP BY 1`,
    ).all(...params) as Array<{ key: string; mean: number | null }>;
  }
}
