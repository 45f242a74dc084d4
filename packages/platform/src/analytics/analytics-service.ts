/**
 * Analytics (PLATFORM.md §14): usage, errors, providers and extraction quality of the caller's
 * organization over a time range. The store answers sums and latency-bin counts; the exact
 * nearest-rank latencies are found by locating the rank among the bins and reading inside one
 * bin (docs/decisions.md AN3). Times are epoch ms here; the HTTP layer renders ISO strings.
 */
import { type Clock, type Principal, systemClock, type UsageSurface } from "@groundwork/core";
import {
  type AnalyticsBucket,
  type AnalyticsRange,
  alignedBuckets,
  bucketMs,
  extractionQuality,
  locateRank,
  nearestRankIndex,
  providerOf,
  rate,
  resolveAnalyticsRange,
  roundEur,
} from "@groundwork/observability";
import type {
  ExtractionStats,
  TimeRange,
  UsageFilter,
  UsageGrouping,
  UsageTotals,
} from "@groundwork/store-sqlite";
import { z } from "zod";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";

export const USAGE_SURFACES = [
  "CHAT",
  "VISION",
  "EMBEDDINGS",
  "RESPONSES",
  "AUDIO",
] as const satisfies readonly UsageSurface[];

const text = (name: string) =>
  z.string({ error: `${name} must be a string` }).min(1, `${name} must not be empty`);

/** The filters of the common query (the range and bucket are read by `resolveAnalyticsRange`). */
export const analyticsQuery = z.object({
  from: z.string({ error: "from must be a string" }).optional(),
  to: z.string({ error: "to must be a string" }).optional(),
  bucket: z.string({ error: "bucket must be a string" }).optional(),
  model: text("model").optional(),
  surface: z
    .enum(USAGE_SURFACES, { error: `surface must be one of ${USAGE_SURFACES.join(", ")}` })
    .optional(),
  byok: z
    .enum(["true", "false"], { error: "byok must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  schemaId: text("schemaId").optional(),
  scoreName: text("scoreName").optional(),
});
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

export interface LatencyPercentiles {
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

export interface AnalyticsSummary extends LatencyPercentiles {
  from: number;
  to: number;
  requests: number;
  errors: number;
  errorRate: number | null;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costEur: number;
}

export interface UsagePoint extends LatencyPercentiles {
  requests: number;
  errors: number;
  totalTokens: number;
  costEur: number;
}

export interface AnalyticsTimeseries {
  from: number;
  to: number;
  bucket: AnalyticsBucket;
  points: Array<{ start: number } & UsagePoint>;
}

export interface AnalyticsProviders {
  from: number;
  to: number;
  providers: Array<{ provider: string } & UsagePoint>;
}

export interface AnalyticsErrors {
  from: number;
  to: number;
  total: number;
  errors: Array<{ code: string | null; status: number | null; count: number; lastAt: number }>;
}

export interface QualityRates {
  meanConfidence: number | null;
  flaggedShare: number | null;
  validationFailureRate: number | null;
}

export interface AnalyticsSchemas {
  from: number;
  to: number;
  schemas: Array<
    {
      schemaId: string;
      schemaName: string | null;
      extractions: number;
      completed: number;
      failed: number;
    } & QualityRates
  >;
}

export interface AnalyticsQuality extends QualityRates {
  from: number;
  to: number;
  extractions: number;
  failureRate: number | null;
  humanScores: Array<{ name: string; dataType: string; count: number; mean: number | null }>;
}

export interface AnalyticsQualityTrend {
  from: number;
  to: number;
  bucket: AnalyticsBucket;
  points: Array<{ start: number; extractions: number; humanScoreMean: number | null } & QualityRates>;
}

/** Rows whose quality facts predate their columns are computed this many at a time. */
const QUALITY_BACKFILL_BATCH = 500;

const ALL: UsageGrouping = { by: "all" };

function emptyTotals(key: string): UsageTotals {
  return { key, requests: 0, errors: 0, promptTokens: 0, completionTokens: 0, costEur: 0 };
}

function qualityRates(stats: ExtractionStats | undefined): QualityRates {
  if (stats === undefined) return { meanConfidence: null, flaggedShare: null, validationFailureRate: null };
  return {
    meanConfidence: stats.withConfidence === 0 ? null : stats.confidenceSum / stats.withConfidence,
    flaggedShare: rate(stats.flagged, stats.withConfidence),
    validationFailureRate: rate(stats.validationFailed, stats.validationApplied),
  };
}

export class AnalyticsService {
  private readonly clock: Clock;

  constructor(
    private readonly store: Pick<PlatformStore, "analytics">,
    clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
  }

  async summary(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsSummary> {
    const { range, usage } = this.parse(raw);
    const org = principal.organizationId;
    const totals = (await this.store.analytics.usageTotals(org, range, usage, ALL))[0] ?? emptyTotals("");
    return {
      from: range.from,
      to: range.to,
      requests: totals.requests,
      errors: totals.errors,
      errorRate: rate(totals.errors, totals.requests),
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      totalTokens: totals.promptTokens + totals.completionTokens,
      costEur: roundEur(totals.costEur),
      ...((await this.percentiles(org, range, usage, ALL)).get("") ?? NO_LATENCY),
    };
  }

  async timeseries(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsTimeseries> {
    const { range, usage } = this.parse(raw);
    const org = principal.organizationId;
    const grouping: UsageGrouping = { by: "bucket", sizeMs: bucketMs(range.bucket) };
    const totals = new Map(
      (await this.store.analytics.usageTotals(org, range, usage, grouping)).map((row) => [row.key, row]),
    );
    const latencies = await this.percentiles(org, range, usage, grouping);
    const points = alignedBuckets(range.from, range.to, range.bucket).map((start) => {
      const key = String(start);
      return {
        start,
        ...usagePoint(totals.get(key) ?? emptyTotals(key)),
        ...(latencies.get(key) ?? NO_LATENCY),
      };
    });
    return { from: range.from, to: range.to, bucket: range.bucket, points };
  }

  async providers(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsProviders> {
    const { range, usage } = this.parse(raw);
    const org = principal.organizationId;
    const byProvider = new Map<string, { totals: UsageTotals; models: string[] }>();
    for (const row of await this.store.analytics.usageTotals(org, range, usage, { by: "model" })) {
      const provider = providerOf(row.key);
      const known = byProvider.get(provider);
      if (known === undefined)
        byProvider.set(provider, { totals: { ...row, key: provider }, models: [row.key] });
      else {
        known.models.push(row.key);
        for (const field of ["requests", "errors", "promptTokens", "completionTokens", "costEur"] as const) {
          known.totals[field] += row[field];
        }
      }
    }
    const providers = await Promise.all(
      [...byProvider.entries()].map(async ([provider, { totals, models }]) => ({
        provider,
        ...usagePoint(totals),
        ...((await this.percentiles(org, range, { ...usage, models }, ALL)).get("") ?? NO_LATENCY),
      })),
    );
    providers.sort((a, b) => b.requests - a.requests || (a.provider < b.provider ? -1 : 1));
    return { from: range.from, to: range.to, providers };
  }

  async errors(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsErrors> {
    const { range, usage } = this.parse(raw);
    const errors = await this.store.analytics.errorGroups(principal.organizationId, range, usage);
    return {
      from: range.from,
      to: range.to,
      total: errors.reduce((sum, group) => sum + group.count, 0),
      errors,
    };
  }

  async schemas(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsSchemas> {
    const { range, extractions } = this.parse(raw);
    const org = principal.organizationId;
    await this.computeMissingQuality(org);
    const stats = await this.store.analytics.extractionStats(org, range, extractions, { by: "schema" });
    const names = await this.store.analytics.schemaNames(
      org,
      stats.map((row) => row.key),
    );
    return {
      from: range.from,
      to: range.to,
      schemas: stats.map((row) => ({
        schemaId: row.key,
        schemaName: names.get(row.key) ?? null,
        extractions: row.extractions,
        completed: row.completed,
        failed: row.failed,
        ...qualityRates(row),
      })),
    };
  }

  async quality(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsQuality> {
    const { range, extractions, scores } = this.parse(raw);
    const org = principal.organizationId;
    await this.computeMissingQuality(org);
    const stats = (await this.store.analytics.extractionStats(org, range, extractions, ALL))[0];
    const humanScores = (
      await this.store.analytics.humanScoreStats(org, range, { schemaId: scores.schemaId }, ALL)
    ).map(({ name, dataType, count, mean }) => ({ name, dataType, count, mean }));
    return {
      from: range.from,
      to: range.to,
      extractions: stats?.extractions ?? 0,
      ...qualityRates(stats),
      failureRate: rate(stats?.failed ?? 0, stats?.extractions ?? 0),
      humanScores,
    };
  }

  async qualityTrend(principal: Principal, raw: AnalyticsQuery | unknown): Promise<AnalyticsQualityTrend> {
    const { range, extractions, scores } = this.parse(raw);
    const org = principal.organizationId;
    await this.computeMissingQuality(org);
    const grouping: UsageGrouping = { by: "bucket", sizeMs: bucketMs(range.bucket) };
    const stats = new Map(
      (await this.store.analytics.extractionStats(org, range, extractions, grouping)).map((row) => [
        row.key,
        row,
      ]),
    );
    const means = new Map(
      (await this.store.analytics.humanScoreMeans(org, range, scores, grouping)).map((row) => [
        row.key,
        row.mean,
      ]),
    );
    const points = alignedBuckets(range.from, range.to, range.bucket).map((start) => {
      const row = stats.get(String(start));
      return {
        start,
        extractions: row?.extractions ?? 0,
        ...qualityRates(row),
        humanScoreMean: means.get(String(start)) ?? null,
      };
    });
    return { from: range.from, to: range.to, bucket: range.bucket, points };
  }

  /** Validates the query: filters by zod (400 naming the field), then the range rules. */
  private parse(raw: unknown) {
    const query = validate(analyticsQuery, raw ?? {});
    const range = resolveAnalyticsRange(query, this.clock.now());
    const usage: UsageFilter = { model: query.model, surface: query.surface, byok: query.byok };
    return {
      range,
      usage,
      extractions: { schemaId: query.schemaId, model: query.model },
      scores: { schemaId: query.schemaId, name: query.scoreName },
    };
  }

  /**
   * p50 and p95 per group: each rank is located among the group's ordered latency bins, then the
   * exact value is read inside that one bin over the group's own time span.
   */
  private async percentiles(
    organizationId: string,
    range: AnalyticsRange,
    filter: UsageFilter,
    grouping: UsageGrouping,
  ): Promise<Map<string, LatencyPercentiles>> {
    const groups = new Map<string, Array<{ bin: number; count: number }>>();
    for (const row of await this.store.analytics.latencyBins(organizationId, range, filter, grouping)) {
      const bins = groups.get(row.key) ?? [];
      bins.push({ bin: row.bin, count: row.count });
      groups.set(row.key, bins);
    }
    const answers = new Map<string, LatencyPercentiles>();
    for (const [key, bins] of groups) {
      const span = groupSpan(key, range, grouping);
      const total = bins.reduce((sum, bin) => sum + bin.count, 0);
      const at = async (p: number): Promise<number | null> => {
        if (total === 0) return null;
        const position = locateRank(bins, nearestRankIndex(total, p));
        if (position === null) return null;
        return await this.store.analytics.latencyInBin(
          organizationId,
          span,
          filter,
          position.bin,
          position.offset,
        );
      };
      answers.set(key, { latencyP50Ms: await at(0.5), latencyP95Ms: await at(0.95) });
    }
    return answers;
  }

  /** Computes, once, the quality facts of extractions finished before their columns existed. */
  private async computeMissingQuality(organizationId: string): Promise<void> {
    for (;;) {
      const rows = await this.store.analytics.extractionsWithoutQuality(
        organizationId,
        QUALITY_BACKFILL_BATCH,
      );
      if (rows.length === 0) return;
      await this.store.analytics.setExtractionQuality(
        rows.map((row) => ({ id: row.id, quality: extractionQuality(row.result) })),
      );
    }
  }
}

const NO_LATENCY: LatencyPercentiles = { latencyP50Ms: null, latencyP95Ms: null };

function usagePoint(totals: UsageTotals): Omit<UsagePoint, keyof LatencyPercentiles> {
  return {
    requests: totals.requests,
    errors: totals.errors,
    totalTokens: totals.promptTokens + totals.completionTokens,
    costEur: roundEur(totals.costEur),
  };
}

/** The time a group covers: its bucket clipped to the range, or the whole range. */
function groupSpan(key: string, range: TimeRange, grouping: UsageGrouping): TimeRange {
  if (grouping.by !== "bucket") return { from: range.from, to: range.to };
  const start = Number(key);
  return { from: Math.max(start, range.from), to: Math.min(start + grouping.sizeMs, range.to) };
}
