/**
 * Analytics reads (PLATFORM.md §14): their filters, groupings and answers, the split of a range
 * into rollup spans and raw-row edges, and the mapping of answer rows (sums are BIGINT or
 * NUMERIC strings from node-postgres) — shared by both stores, which each write their own SQL.
 */
import type { UsageSurface } from "@groundwork/core";
import { int } from "./columns.js";

const HOUR_MS = 3_600_000;

/** Epoch ms: `from` inclusive, `to` exclusive. */
export interface TimeRange {
  from: number;
  to: number;
}

export interface UsageFilter {
  model?: string | undefined;
  surface?: UsageSurface | undefined;
  byok?: boolean | undefined;
  /** Only these models (a provider's), when given. */
  models?: readonly string[] | undefined;
}

/**
 * How rows are grouped: one group (`all`, key ""), by UTC-aligned bucket start (`bucket`,
 * key the start in ms as a string), or by model string (`model`).
 */
export type UsageGrouping = { by: "all" } | { by: "bucket"; sizeMs: number } | { by: "model" };

/** Extractions group like usage, or by schema (key the schema id). */
export type ExtractionGrouping = UsageGrouping | { by: "schema" };

export interface UsageTotals {
  key: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  costEur: number;
}

export interface LatencyBinCount {
  key: string;
  bin: number;
  count: number;
}

export interface ErrorGroup {
  code: string | null;
  status: number | null;
  count: number;
  lastAt: number;
}

export interface ExtractionAnalyticsFilter {
  schemaId?: string | undefined;
  model?: string | undefined;
}

/** Extraction counts of a group; quality sums over the rows that have each fact. */
export interface ExtractionStats {
  key: string;
  extractions: number;
  completed: number;
  failed: number;
  withConfidence: number;
  confidenceSum: number;
  flagged: number;
  validationApplied: number;
  validationFailed: number;
}

export interface HumanScoreStats {
  key: string;
  name: string;
  dataType: "NUMERIC" | "CATEGORICAL" | "BOOLEAN";
  count: number;
  /** Mean of NUMERIC values and BOOLEAN as 0/1; null for CATEGORICAL. */
  mean: number | null;
}

export interface HumanScoreFilter {
  schemaId?: string | undefined;
  name?: string | undefined;
}

const DAY_MS = 86_400_000;

/**
 * The range split into the partial hours at its edges (read from the rows), whole hours (hourly
 * rollups) and, when `days`, whole UTC days (daily rollups, for latency bins).
 */
export function splitRange(
  { from, to }: TimeRange,
  days: boolean,
): { days: TimeRange[]; hours: TimeRange[]; edges: TimeRange[] } {
  const first = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const last = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (first >= last) return { days: [], hours: [], edges: [{ from, to }] };
  const edges: TimeRange[] = [];
  if (from < first) edges.push({ from, to: first });
  if (last < to) edges.push({ from: last, to });
  const firstDay = Math.ceil(first / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(last / DAY_MS) * DAY_MS;
  if (!days || firstDay >= lastDay) return { days: [], hours: [{ from: first, to: last }], edges };
  const hours: TimeRange[] = [];
  if (first < firstDay) hours.push({ from: first, to: firstDay });
  if (lastDay < last) hours.push({ from: lastDay, to: last });
  return { days: [{ from: firstDay, to: lastDay }], hours, edges };
}

type Row = Record<string, unknown>;

export const toUsageTotals = (row: Row): UsageTotals => ({
  key: String(row.key),
  requests: int(row.requests),
  errors: int(row.errors),
  promptTokens: int(row.promptTokens),
  completionTokens: int(row.completionTokens),
  costEur: Number(row.costEur),
});

export const toLatencyBinCount = (row: Row): LatencyBinCount => ({
  key: String(row.key),
  bin: int(row.bin),
  count: int(row.count),
});

export const toErrorGroup = (row: Row): ErrorGroup => ({
  code: row.code as string | null,
  status: row.status === null ? null : int(row.status),
  count: int(row.count),
  lastAt: int(row.lastAt),
});

export const toExtractionStats = (row: Row): ExtractionStats => ({
  key: String(row.key),
  extractions: int(row.extractions),
  completed: int(row.completed),
  failed: int(row.failed),
  withConfidence: int(row.withConfidence),
  confidenceSum: Number(row.confidenceSum),
  flagged: int(row.flagged),
  validationApplied: int(row.validationApplied),
  validationFailed: int(row.validationFailed),
});

export const toHumanScoreStats = (row: Row): HumanScoreStats => ({
  key: String(row.key),
  name: row.name as string,
  dataType: row.dataType as HumanScoreStats["dataType"],
  count: int(row.count),
  mean: row.mean === null ? null : Number(row.mean),
});
