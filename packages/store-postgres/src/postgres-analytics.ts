/**
 * Analytics reads (PLATFORM.md §14) on PostgreSQL: store-sqlite's `AnalyticsStore`,
 * asynchronous, over the same rollups (migration 40) and the same split of a range into whole
 * days, whole hours and raw-row edges (`splitRange`, shared). Extractions, schemas and scores
 * are other families' tables: the SQL reads their flags as `::int` and their JSON as `::jsonb`,
 * so it holds whether those columns are BOOLEAN or 0/1, JSONB or TEXT. Text keys are ordered
 * `COLLATE "C"` (bytewise, as SQLite).
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
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
  toErrorGroup,
  toExtractionStats,
  toHumanScoreStats,
  toLatencyBinCount,
  toUsageTotals,
  type UsageFilter,
  type UsageGrouping,
  type UsageTotals,
} from "@groundwork/store-rows";
import { atomicallyOn, connectionOf, transactionOn } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

const DAY_MS = 86_400_000;

/** An extraction's quality facts (store-sqlite's `ExtractionQualityFacts`). */
export interface ExtractionQuality {
  confidence: number | null;
  flagCount: number | null;
  validationApplied: boolean | null;
  violationCount: number | null;
}

/** Positional parameters: `p(value)` adds one and answers its placeholder. */
class Params {
  readonly values: unknown[] = [];
  p = (value: unknown): string => `$${this.values.push(value)}`;
}

/** The SQL of a grouping key over a time column (the bucket size is a trusted integer), as text. */
function keySql(grouping: UsageGrouping, timeColumn: string): string {
  if (grouping.by === "all") return "''";
  if (grouping.by === "model") return "model";
  const size = Math.trunc(grouping.sizeMs);
  return `(${timeColumn} - ${timeColumn} % ${size})::text`;
}

function usageWhere(filter: UsageFilter, params: Params): string {
  let sql = "";
  if (filter.model !== undefined) sql += ` AND model = ${params.p(filter.model)}`;
  if (filter.surface !== undefined) sql += ` AND surface = ${params.p(filter.surface)}`;
  if (filter.byok !== undefined) sql += ` AND byok = ${params.p(filter.byok)}`;
  // An empty list matches nothing, as SQLite's `IN (NULL)`.
  if (filter.models !== undefined) sql += ` AND model = ANY(${params.p([...filter.models])}::text[])`;
  return sql;
}

/** Scores of the organization in the range, by name, and (with `schemaId`) on that schema's extractions. */
function scoreWhere(
  organizationId: string,
  range: TimeRange,
  filter: HumanScoreFilter,
  params: Params,
): string {
  let sql = `organization_id = ${params.p(organizationId)} AND source = 'HUMAN'
    AND created_at >= ${params.p(range.from)} AND created_at < ${params.p(range.to)}`;
  if (filter.name !== undefined) sql += ` AND name = ${params.p(filter.name)}`;
  if (filter.schemaId !== undefined) {
    sql += ` AND subject_type = 'extraction' AND subject_id IN
        (SELECT id FROM extractions WHERE organization_id = ${params.p(organizationId)} AND schema_id = ${params.p(filter.schemaId)})`;
  }
  return sql;
}

/** A score's value as a number: NUMERIC as it is, BOOLEAN as 0/1 (SQLite's `json_extract(value, '$')`). */
const SCORE_NUMBER = `CASE jsonb_typeof(value::jsonb)
    WHEN 'number' THEN (value::jsonb #>> '{}')::double precision
    WHEN 'boolean' THEN CASE WHEN value::jsonb = 'true'::jsonb THEN 1 ELSE 0 END END`;

interface RollupSource {
  spans: readonly TimeRange[];
  table: "usage_hourly" | "usage_latency_daily" | "usage_latency_hourly" | "usage_records";
  time: "day" | "hour" | "created_at";
  rollup: boolean;
}

export class PostgresAnalyticsStore {
  constructor(
    private readonly client: SqlClient,
    /** Usage rows are written in batches: reads flush the queued ones first. */
    private readonly usage: { flush(): Promise<void> },
    _clock: Clock = systemClock,
    _ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** A unit of work over this client (the platform's `AtomicPort`; see postgres-family.ts). */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return atomicallyOn(this.client, work);
  }

  /** Requests, errors, tokens and cost per group. */
  async usageTotals(
    organizationId: string,
    range: TimeRange,
    filter: UsageFilter,
    grouping: UsageGrouping,
  ): Promise<UsageTotals[]> {
    await this.usage.flush();
    const { hours, edges } = splitRange(range, false);
    const groups = new Map<string, UsageTotals>();
    const sources: RollupSource[] = [
      { spans: hours, table: "usage_hourly", time: "hour", rollup: true },
      { spans: edges, table: "usage_records", time: "created_at", rollup: false },
    ];
    for (const source of sources) {
      const measures = source.rollup
        ? "sum(requests) AS requests, sum(errors) AS errors"
        : "count(*) AS requests, count(*) FILTER (WHERE outcome = 'error') AS errors";
      const rows = await this.eachSpan(
        source,
        organizationId,
        filter,
        (condition, where) =>
          `SELECT ${keySql(grouping, source.time)} AS key, ${measures}, sum(prompt_tokens) AS "promptTokens",
             sum(completion_tokens) AS "completionTokens", sum(cost_eur) AS "costEur"
           FROM ${source.table} WHERE ${condition}${where} GROUP BY 1`,
      );
      for (const row of rows.map(toUsageTotals)) {
        const group = groups.get(row.key);
        if (group === undefined) groups.set(row.key, row);
        else {
          group.requests += row.requests;
          group.errors += row.errors;
          group.promptTokens += row.promptTokens;
          group.completionTokens += row.completionTokens;
          group.costEur += row.costEur;
        }
      }
    }
    return [...groups.values()];
  }

  /** How many calls fall in each latency bin, per group, bins ascending within a group. */
  async latencyBins(
    organizationId: string,
    range: TimeRange,
    filter: UsageFilter,
    grouping: UsageGrouping,
  ): Promise<LatencyBinCount[]> {
    await this.usage.flush();
    // Daily rollups only where a group is a whole number of days (not for hourly buckets).
    const { days, hours, edges } = splitRange(range, !(grouping.by === "bucket" && grouping.sizeMs < DAY_MS));
    const counts = new Map<string, LatencyBinCount>();
    const sources: RollupSource[] = [
      { spans: days, table: "usage_latency_daily", time: "day", rollup: true },
      { spans: hours, table: "usage_latency_hourly", time: "hour", rollup: true },
      { spans: edges, table: "usage_records", time: "created_at", rollup: false },
    ];
    for (const source of sources) {
      const count = source.rollup ? "sum(requests)" : "count(*)";
      const rows = await this.eachSpan(
        source,
        organizationId,
        filter,
        (condition, where) =>
          `SELECT ${keySql(grouping, source.time)} AS key, latency_bin AS bin, ${count} AS count
           FROM ${source.table} WHERE ${condition}${where} GROUP BY 1, 2`,
      );
      for (const row of rows.map(toLatencyBinCount)) {
        const id = `${row.key}\u0000${row.bin}`;
        const known = counts.get(id);
        if (known === undefined) counts.set(id, row);
        else known.count += row.count;
      }
    }
    return [...counts.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.bin - b.bin));
  }

  /** Runs the query of `source` once per span, with its time condition and the filter; answers every row. */
  private async eachSpan(
    source: RollupSource,
    organizationId: string,
    filter: UsageFilter,
    query: (condition: string, where: string) => string,
  ): Promise<Array<Record<string, unknown>>> {
    const rows: Array<Record<string, unknown>> = [];
    for (const span of source.spans) {
      const params = new Params();
      const condition = `organization_id = ${params.p(organizationId)} AND ${source.time} >= ${params.p(span.from)}
        AND ${source.time} < ${params.p(span.to)}`;
      const where = usageWhere(filter, params);
      rows.push(...(await connectionOf(this.client).query(query(condition, where), params.values)).rows);
    }
    return rows;
  }

  /** The latency at 0-based `offset` in ascending order among the calls of one bin. */
  async latencyInBin(
    organizationId: string,
    range: TimeRange,
    filter: UsageFilter,
    bin: number,
    offset: number,
  ): Promise<number | null> {
    const params = new Params();
    const { rows } = await connectionOf(this.client).query<{ latency: number }>(
      `SELECT latency_ms AS latency FROM usage_records
         WHERE organization_id = ${params.p(organizationId)} AND latency_bin = ${params.p(bin)}
           AND created_at >= ${params.p(range.from)} AND created_at < ${params.p(range.to)}${usageWhere(filter, params)}
         ORDER BY latency_ms LIMIT 1 OFFSET ${params.p(offset)}`,
      params.values,
    );
    return rows[0] === undefined ? null : Number(rows[0].latency);
  }

  /** Failed calls grouped by the code and status the caller received, by count desc. */
  async errorGroups(organizationId: string, range: TimeRange, filter: UsageFilter): Promise<ErrorGroup[]> {
    await this.usage.flush();
    const params = new Params();
    const { rows } = await connectionOf(this.client).query(
      `SELECT error_code AS code, status, count(*) AS count, max(created_at) AS "lastAt"
         FROM usage_records WHERE organization_id = ${params.p(organizationId)} AND outcome = 'error'
           AND created_at >= ${params.p(range.from)} AND created_at < ${params.p(range.to)}${usageWhere(filter, params)}
         GROUP BY error_code, status
         ORDER BY count DESC, "lastAt" DESC, error_code COLLATE "C" NULLS FIRST, status NULLS FIRST`,
      params.values,
    );
    return rows.map(toErrorGroup);
  }

  // ---- extractions ----

  /** Finished extractions whose quality facts were never computed (written before they existed). */
  async extractionsWithoutQuality(
    organizationId: string,
    limit: number,
  ): Promise<Array<{ id: string; result: unknown }>> {
    const { rows } = await connectionOf(this.client).query<{ id: string; result: string | null }>(
      "SELECT id, result::text AS result FROM extractions WHERE organization_id = $1 AND quality_computed::int = 0 LIMIT $2",
      [organizationId, limit],
    );
    return rows.map((row) => ({ id: row.id, result: row.result === null ? null : JSON.parse(row.result) }));
  }

  /** Stores computed facts, all in one transaction. */
  async setExtractionQuality(
    facts: ReadonlyArray<{ id: string; quality: ExtractionQuality }>,
  ): Promise<void> {
    if (facts.length === 0) return;
    await transactionOn(this.client, async (tx) => {
      for (const { id, quality } of facts) {
        // 0/1 parameters: a BOOLEAN column reads them as false/true, an INTEGER one as they are.
        const applied = quality.validationApplied === null ? null : quality.validationApplied ? 1 : 0;
        await tx.query(
          `UPDATE extractions SET confidence = $1, flag_count = $2, validation_applied = $3, violation_count = $4,
               quality_computed = $5 WHERE id = $6`,
          [quality.confidence, quality.flagCount, applied, quality.violationCount, 1, id],
        );
      }
    });
  }

  /** Extraction counts and quality sums per group, by extractions desc. */
  async extractionStats(
    organizationId: string,
    range: TimeRange,
    filter: ExtractionAnalyticsFilter,
    grouping: ExtractionGrouping,
  ): Promise<ExtractionStats[]> {
    const key = grouping.by === "schema" ? "schema_id" : keySql(grouping, "created_at");
    const params = new Params();
    let where = `organization_id = ${params.p(organizationId)} AND created_at >= ${params.p(range.from)}
      AND created_at < ${params.p(range.to)}`;
    if (filter.schemaId !== undefined) where += ` AND schema_id = ${params.p(filter.schemaId)}`;
    if (filter.model !== undefined) where += ` AND model = ${params.p(filter.model)}`;
    const { rows } = await connectionOf(this.client).query(
      `SELECT (${key}) COLLATE "C" AS key, count(*) AS extractions,
           count(*) FILTER (WHERE status = 'COMPLETED') AS completed,
           count(*) FILTER (WHERE status = 'FAILED') AS failed, count(confidence) AS "withConfidence",
           coalesce(sum(confidence), 0) AS "confidenceSum",
           count(*) FILTER (WHERE confidence IS NOT NULL AND flag_count > 0) AS flagged,
           count(*) FILTER (WHERE validation_applied::int = 1) AS "validationApplied",
           count(*) FILTER (WHERE validation_applied::int = 1 AND violation_count > 0) AS "validationFailed"
         FROM extractions WHERE ${where}
         GROUP BY 1 ORDER BY 2 DESC, 1`,
      params.values,
    );
    return rows.map(toExtractionStats);
  }

  /** Names of schemas of the organization (deleted ones are absent). */
  async schemaNames(organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const { rows } = await connectionOf(this.client).query<{ id: string; name: string }>(
      "SELECT id, name FROM schemas WHERE organization_id = $1 AND id = ANY($2::text[])",
      [organizationId, [...ids]],
    );
    // In the order asked, as SQLite's one lookup per id.
    const found = new Map(rows.map((row) => [row.id, row.name]));
    const names = new Map<string, string>();
    for (const id of ids) {
      const name = found.get(id);
      if (name !== undefined) names.set(id, name);
    }
    return names;
  }

  /**
   * `HUMAN` scores per group and name: count, and the mean of NUMERIC values and BOOLEAN as 0/1;
   * CATEGORICAL means are null. With `schemaId`, only scores on that schema's extractions count.
   */
  async humanScoreStats(
    organizationId: string,
    range: TimeRange,
    filter: HumanScoreFilter,
    grouping: UsageGrouping,
  ): Promise<HumanScoreStats[]> {
    const key = keySql(grouping, "created_at");
    const params = new Params();
    const where = scoreWhere(organizationId, range, filter, params);
    const { rows } = await connectionOf(this.client).query(
      `SELECT (${key}) COLLATE "C" AS key, name COLLATE "C" AS name, data_type COLLATE "C" AS "dataType",
           count(*) AS count, CASE WHEN data_type = 'CATEGORICAL' THEN NULL ELSE avg(${SCORE_NUMBER}) END AS mean
         FROM scores WHERE ${where}
         GROUP BY 1, name, data_type ORDER BY 1, 2, 3`,
      params.values,
    );
    return rows.map(toHumanScoreStats);
  }

  /** One mean per group over every NUMERIC and BOOLEAN `HUMAN` score (the quality trend's line). */
  async humanScoreMeans(
    organizationId: string,
    range: TimeRange,
    filter: HumanScoreFilter,
    grouping: UsageGrouping,
  ): Promise<Array<{ key: string; mean: number | null }>> {
    const key = keySql(grouping, "created_at");
    const params = new Params();
    const where = scoreWhere(organizationId, range, filter, params);
    const { rows } = await connectionOf(this.client).query<{ key: string; mean: unknown }>(
      `SELECT ${key} AS key, avg(${SCORE_NUMBER}) AS mean
         FROM scores WHERE ${where} AND data_type IN ('NUMERIC', 'BOOLEAN')
         GROUP BY 1`,
      params.values,
    );
    return rows.map((row) => ({ key: String(row.key), mean: row.mean === null ? null : Number(row.mean) }));
  }
}
