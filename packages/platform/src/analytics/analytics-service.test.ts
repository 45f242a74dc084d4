/** Analytics through the library, over known usage rows, extractions and scores. */
import type { Principal, UsageEvent } from "@groundwork/core";
import { nearestRank } from "@groundwork/observability";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import type { PlatformStore } from "../store-port.js";
import { AnalyticsService } from "./analytics-service.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2025-03-01T00:00:00.000Z");

let now = T0;
let store: PlatformStore;
let analytics: AnalyticsService;
let ada: Principal;
let stranger: Principal;

async function principal(name: string): Promise<Principal> {
  const org = await store.organizations.create(name, "enterprise");
  return {
    organizationId: org.id,
    organizationName: org.name,
    plan: "enterprise",
    role: "viewer",
    apiKeyId: "",
  };
}

beforeEach(async () => {
  now = T0;
  store = await openTestStore({ clock: { now: () => now } });
  analytics = new AnalyticsService(store, { now: () => now });
  ada = await principal("ada");
  stranger = await principal("stranger");
});

afterEach(async () => await store.close());

const iso = (ms: number) => new Date(ms).toISOString();

async function usage(at: number, overrides: Partial<UsageEvent> = {}, who: Principal = ada): Promise<void> {
  now = at;
  await store.usage.record({
    organizationId: who.organizationId,
    apiKeyId: null,
    model: "hosted-a/gpt-x",
    surface: "CHAT",
    byok: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: null,
    costEur: 0.001,
    latencyMs: 100,
    outcome: "ok",
    endUser: null,
    ...overrides,
  });
}

describe("usage analytics", () => {
  it("summarizes calls in [from, to) with exact nearest-rank latencies, only the organization's", async () => {
    const latencies = [12.5, 80, 80.01, 300, 7, 1500.25, 42, 42, 99.99, 10_000];
    for (const [i, latencyMs] of latencies.entries()) {
      await usage(T0 + i * 17 * 60_000 + 1234, {
        latencyMs,
        ...(i % 4 === 0 ? { outcome: "error", errorCode: "upstream_error", status: 502 } : {}),
      });
    }
    await usage(T0 + 3 * HOUR, { latencyMs: 1 }, stranger);
    await usage(T0 - 1, { latencyMs: 1 }); // before the range
    now = T0 + DAY;
    const summary = await analytics.summary(ada, { from: iso(T0), to: iso(T0 + 5 * HOUR) });
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(summary).toEqual({
      from: T0,
      to: T0 + 5 * HOUR,
      requests: 10,
      errors: 3,
      errorRate: 0.3,
      promptTokens: 100,
      completionTokens: 50,
      totalTokens: 150,
      costEur: 0.01,
      latencyP50Ms: nearestRank(sorted, 0.5),
      latencyP95Ms: nearestRank(sorted, 0.95),
    });
    expect(summary.latencyP50Ms).toBe(80); // rank 5 of 10
    expect(summary.latencyP95Ms).toBe(10_000);
  });

  it("answers zeros, null rates and null percentiles for an empty range", async () => {
    expect(await analytics.summary(ada, {})).toMatchObject({
      requests: 0,
      errors: 0,
      errorRate: null,
      costEur: 0,
      latencyP50Ms: null,
      latencyP95Ms: null,
    });
  });

  it("agrees with a naive computation for any rows and any unaligned range (rollups + edges)", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 3 * DAY }),
            latency: fc.oneof(
              fc.integer({ min: 0, max: 5000 }),
              fc.double({ min: 0, max: 60_000, noNaN: true }),
            ),
            error: fc.boolean(),
          }),
          { maxLength: 60 },
        ),
        fc.integer({ min: 0, max: DAY }),
        fc.integer({ min: 1, max: 3 * DAY }),
        async (rows, start, span) => {
          // An organization of its own per run: nothing of an earlier run is counted.
          ada = await principal(`ada-${++run}`);
          for (const row of rows) {
            await usage(T0 + row.at, {
              latencyMs: Math.round(row.latency * 100) / 100,
              ...(row.error ? { outcome: "error", errorCode: "upstream_error", status: 502 } : {}),
            });
          }
          const from = T0 + start;
          const to = from + span;
          const inRange = rows.filter((row) => T0 + row.at >= from && T0 + row.at < to);
          const sorted = inRange.map((row) => Math.round(row.latency * 100) / 100).sort((a, b) => a - b);
          const summary = await analytics.summary(ada, { from: iso(from), to: iso(to) });
          expect(summary.requests).toBe(inRange.length);
          expect(summary.errors).toBe(inRange.filter((row) => row.error).length);
          expect(summary.latencyP50Ms).toBe(nearestRank(sorted, 0.5));
          expect(summary.latencyP95Ms).toBe(nearestRank(sorted, 0.95));
          const series = await analytics.timeseries(ada, { from: iso(from), to: iso(to) });
          expect(series.points.reduce((sum, point) => sum + point.requests, 0)).toBe(inRange.length);
          for (const point of series.points) {
            const size = series.bucket === "hour" ? HOUR : DAY;
            const mine = inRange
              .filter((row) => T0 + row.at >= point.start && T0 + row.at < point.start + size)
              .map((row) => Math.round(row.latency * 100) / 100)
              .sort((a, b) => a - b);
            expect(point.requests).toBe(mine.length);
            expect(point.latencyP50Ms).toBe(nearestRank(mine, 0.5));
            expect(point.latencyP95Ms).toBe(nearestRank(mine, 0.95));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("lists every UTC bucket of the range, empty ones as zeros", async () => {
    await usage(T0 + 2 * HOUR + 5);
    now = T0 + DAY;
    const series = await analytics.timeseries(ada, { from: iso(T0 + 30 * 60_000), to: iso(T0 + 4 * HOUR) });
    expect(series.bucket).toBe("hour");
    expect(series.points.map((point) => point.start)).toEqual([T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR]);
    expect(series.points.map((point) => point.requests)).toEqual([0, 0, 1, 0]);
    expect(series.points[0]).toEqual({
      start: T0,
      requests: 0,
      errors: 0,
      totalTokens: 0,
      costEur: 0,
      latencyP50Ms: null,
      latencyP95Ms: null,
    });
  });

  it("groups providers by model prefix (bare names are builtin), by requests desc", async () => {
    await usage(T0 + 1, { model: "hosted-a/gpt-x", latencyMs: 10 });
    await usage(T0 + 2, { model: "hosted-a/gpt-y", latencyMs: 30 });
    await usage(T0 + 3, {
      model: "hosted-a/gpt-y",
      latencyMs: 20,
      outcome: "error",
      errorCode: "upstream_error",
      status: 502,
    });
    await usage(T0 + 4, { model: "gpt-4o-mini", latencyMs: 5, byok: false });
    await usage(T0 + 5, { model: "cloud-b/claude", latencyMs: 7, byok: true, costEur: 0 });
    await usage(T0 + 6, { model: "cloud-b/claude", latencyMs: 9, byok: true, costEur: 0 });
    now = T0 + HOUR;
    const { providers } = await analytics.providers(ada, {});
    expect(providers.map((p) => p.provider)).toEqual(["hosted-a", "cloud-b", "builtin"]);
    expect(providers[0]).toEqual({
      provider: "hosted-a",
      requests: 3,
      errors: 1,
      totalTokens: 45,
      costEur: 0.003,
      latencyP50Ms: 20,
      latencyP95Ms: 30,
    });
    expect(providers[1]).toMatchObject({ requests: 2, costEur: 0, latencyP50Ms: 7, latencyP95Ms: 9 });
    // Filters apply to every endpoint.
    expect((await analytics.providers(ada, { byok: "true" })).providers.map((p) => p.provider)).toEqual([
      "cloud-b",
    ]);
    expect((await analytics.summary(ada, { model: "hosted-a/gpt-y" })).requests).toBe(2);
    expect((await analytics.summary(ada, { surface: "EMBEDDINGS" })).requests).toBe(0);
  });

  it("groups errors by code and status, by count desc, with the last time", async () => {
    await usage(T0 + 1, { outcome: "error", errorCode: "upstream_error", status: 502 });
    await usage(T0 + 2, { outcome: "error", errorCode: "rate_limit_exceeded", status: 429 });
    await usage(T0 + 3, { outcome: "error", errorCode: "upstream_error", status: 502 });
    await usage(T0 + 4, { outcome: "error", errorCode: "upstream_error", status: 400 });
    await usage(T0 + 5, { outcome: "aborted" });
    await usage(T0 + 6);
    await usage(T0 + 7, { outcome: "error", errorCode: "upstream_error", status: 502 }, stranger);
    now = T0 + HOUR;
    expect(await analytics.errors(ada, {})).toEqual({
      from: T0 + HOUR - 7 * DAY,
      to: T0 + HOUR,
      total: 4,
      errors: [
        { code: "upstream_error", status: 502, count: 2, lastAt: T0 + 3 },
        { code: "upstream_error", status: 400, count: 1, lastAt: T0 + 4 },
        { code: "rate_limit_exceeded", status: 429, count: 1, lastAt: T0 + 2 },
      ],
    });
  });
});

describe("extraction quality analytics", () => {
  const field = (score: number | null) => ({
    grounding: { score: 1, basis: "exact_match" },
    confidence: score === null ? null : { score, basis: "grounded" },
    provenance: [],
  });
  const result = (scores: Array<number | null>, flagCount: number, applied: boolean, violations: number) => ({
    structuredOutput: {},
    metadata: {},
    resultMetadata: {
      schemaValidation: { applied, violationCount: violations, truncated: false, violations: [] },
      scoring: {
        methods: ["grounding", "confidence"],
        fields: Object.fromEntries(scores.map((score, i) => [`f${i}`, field(score)])),
        items: {},
        confidence: { calibrated: false, flags: [], flagCount, truncated: false },
      },
    },
  });

  async function extraction(
    at: number,
    schemaId: string,
    status: "COMPLETED" | "FAILED" | "PENDING",
    stored: Record<string, unknown> | null,
    who: Principal = ada,
  ): Promise<string> {
    now = at;
    return (
      await store.extractions.create({
        organizationId: who.organizationId,
        schemaId,
        schemaVersionId: `${schemaId}_v1`,
        status,
        strategy: "SINGLE_SHOT",
        model: "hosted-a/gpt-x",
        inputText: "x",
        imageCount: 0,
        inputTokens: 1,
        result: stored,
      })
    ).id;
  }

  async function score(
    at: number,
    subjectId: string,
    name: string,
    dataType: "NUMERIC" | "BOOLEAN" | "CATEGORICAL",
    value: number | boolean | string,
    source: "HUMAN" | "API" = "HUMAN",
  ) {
    now = at;
    await store.scores.create({
      organizationId: ada.organizationId,
      subjectType: "extraction",
      subjectId,
      name,
      dataType,
      value,
      comment: null,
      source,
      queueItemId: null,
      createdByKeyId: null,
    });
  }

  it("reports schemas, quality and the trend from facts computed once per extraction", async () => {
    // Written without quality facts (as before migration 022): computed on the first read.
    const a = await extraction(T0 + 1, "sch_a", "COMPLETED", result([1, 0.5, null], 0, true, 0));
    const b = await extraction(T0 + 2, "sch_a", "COMPLETED", result([0.2], 2, true, 1));
    await extraction(T0 + 3, "sch_a", "FAILED", null);
    await extraction(T0 + DAY + 4, "sch_b", "COMPLETED", result([], 0, false, 0));
    await extraction(T0 + DAY + 5, "sch_b", "PENDING", null);
    await extraction(T0 + 6, "sch_a", "COMPLETED", result([0], 5, true, 3), stranger);
    await score(T0 + 10, a, "correct", "BOOLEAN", true);
    await score(T0 + 11, b, "correct", "BOOLEAN", false);
    await score(T0 + 12, b, "correct", "BOOLEAN", true);
    await score(T0 + DAY + 13, a, "stars", "NUMERIC", 4);
    await score(T0 + 14, a, "label", "CATEGORICAL", "fine");
    await score(T0 + 15, a, "stars", "NUMERIC", 1, "API");
    now = T0 + 2 * DAY;
    const query = { from: iso(T0), to: iso(T0 + 2 * DAY) };

    const schemas = await analytics.schemas(ada, query);
    expect(schemas.schemas).toEqual([
      {
        schemaId: "sch_a",
        schemaName: null,
        extractions: 3,
        completed: 2,
        failed: 1,
        meanConfidence: (0.75 + 0.2) / 2,
        flaggedShare: 0.5,
        validationFailureRate: 0.5,
      },
      {
        schemaId: "sch_b",
        schemaName: null,
        extractions: 2,
        completed: 1,
        failed: 0,
        meanConfidence: null,
        flaggedShare: null,
        validationFailureRate: null,
      },
    ]);

    const quality = await analytics.quality(ada, query);
    expect(quality).toEqual({
      from: T0,
      to: T0 + 2 * DAY,
      extractions: 5,
      meanConfidence: (0.75 + 0.2) / 2,
      flaggedShare: 0.5,
      validationFailureRate: 0.5,
      failureRate: 0.2,
      humanScores: [
        { name: "correct", dataType: "BOOLEAN", count: 3, mean: 2 / 3 },
        { name: "label", dataType: "CATEGORICAL", count: 1, mean: null },
        { name: "stars", dataType: "NUMERIC", count: 1, mean: 4 },
      ],
    });
    expect(await analytics.quality(ada, { ...query, schemaId: "sch_b" })).toMatchObject({
      extractions: 2,
      failureRate: 0,
      humanScores: [],
    });

    const trend = await analytics.qualityTrend(ada, { ...query, scoreName: "correct" });
    expect(trend.bucket).toBe("hour");
    expect(trend.points).toHaveLength(48);
    expect(trend.points[0]).toEqual({
      start: T0,
      extractions: 3,
      meanConfidence: (0.75 + 0.2) / 2,
      flaggedShare: 0.5,
      validationFailureRate: 0.5,
      humanScoreMean: 2 / 3,
    });
    expect(trend.points[24]).toMatchObject({ extractions: 2, meanConfidence: null, humanScoreMean: null });
    expect(trend.points[1]).toMatchObject({ extractions: 0, meanConfidence: null, humanScoreMean: null });
    // The facts are in columns now: nothing left to compute.
    expect(await store.analytics.extractionsWithoutQuality(ada.organizationId, 10)).toEqual([]);
  });

  it("names schemas that still exist", async () => {
    now = T0;
    const created = await store.schemas.create(ada.organizationId, { name: "invoice" });
    await extraction(T0 + 1, created.id, "COMPLETED", result([0.9], 0, true, 0));
    now = T0 + HOUR;
    expect((await analytics.schemas(ada, {})).schemas[0]).toMatchObject({
      schemaId: created.id,
      schemaName: "invoice",
    });
  });
});
