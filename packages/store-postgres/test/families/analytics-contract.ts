/**
 * The analytics family contract: usage sums, latency bins, the latency at a rank and error
 * groups equal a recount of the usage rows for random rows, ranges, filters and groupings (the
 * rollups are exact); extraction and human-score statistics over other families' rows. Every
 * call awaited (SQLite is the reference).
 */
import type { UsageSurface } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { UsageFilter, UsageGrouping } from "../../../store-sqlite/src/analytics.js";
import type { AreaBackend, OpenArea } from "./usage-area-backend.js";
import { HOUR, usageEvent, withArea } from "./usage-contract.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);

interface Call {
  at: number;
  model: string;
  surface: UsageSurface;
  byok: boolean;
  error: boolean;
  code: string | null;
  status: number | null;
  latency: number;
  prompt: number;
  completion: number;
  cost: number;
}

const binOf = (latency: number) => Math.trunc(Math.log(Math.max(latency, 0) + 1) * 50);

function keyOf(call: Call, grouping: UsageGrouping): string {
  if (grouping.by === "all") return "";
  if (grouping.by === "model") return call.model;
  return String(call.at - (call.at % grouping.sizeMs));
}

function matches(call: Call, filter: UsageFilter): boolean {
  return (
    (filter.model === undefined || call.model === filter.model) &&
    (filter.surface === undefined || call.surface === filter.surface) &&
    (filter.byok === undefined || call.byok === filter.byok) &&
    (filter.models === undefined || filter.models.includes(call.model))
  );
}

const byKey = <T extends { key: string }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

let serial = 0;
const rowId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++serial).toString().padStart(6, "0")}`;

async function extraction(
  area: AreaBackend,
  org: string,
  fields: {
    schema: string;
    model?: string;
    status?: string;
    at: number;
    result?: unknown;
    quality?: boolean;
  },
) {
  const id = rowId("ext");
  await area.insertRow("extractions", {
    id,
    organization_id: org,
    schema_id: fields.schema,
    schema_version_id: `${fields.schema}_v1`,
    status: fields.status ?? "COMPLETED",
    strategy: "SINGLE_SHOT",
    model: fields.model ?? "m",
    result: fields.result === undefined ? null : JSON.stringify(fields.result),
    created_at: fields.at,
    updated_at: fields.at,
    quality_computed: fields.quality === true ? 1 : 0,
  });
  return id;
}

async function score(
  area: AreaBackend,
  org: string,
  fields: { name: string; dataType: string; value: unknown; at: number; source?: string; subject?: string },
) {
  await area.insertRow("scores", {
    id: rowId("scr"),
    organization_id: org,
    subject_type: "extraction",
    subject_id: fields.subject ?? "ext_none",
    name: fields.name,
    data_type: fields.dataType,
    value: JSON.stringify(fields.value),
    source: fields.source ?? "HUMAN",
    created_at: fields.at,
  });
}

const callArb = fc.record({
  at: fc.integer({ min: 0, max: 3 * DAY }).map((ms) => T0 + ms),
  model: fc.constantFrom("m-a", "m-b", "M-c"),
  surface: fc.constantFrom<UsageSurface>("CHAT", "EMBEDDINGS"),
  byok: fc.boolean(),
  error: fc.boolean(),
  code: fc.constantFrom<string | null>(null, "upstream_error", "rate_limited"),
  status: fc.constantFrom<number | null>(null, 429, 502),
  latency: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.double({ min: 0, max: 5_000, noNaN: true })),
  prompt: fc.integer({ min: 0, max: 1_000 }),
  completion: fc.integer({ min: 0, max: 1_000 }),
  cost: fc.integer({ min: 0, max: 500 }).map((cents) => cents / 100),
});

/** No filter most of the time (a recount over many rows), else one of each kind. */
const filterArb: fc.Arbitrary<UsageFilter> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  fc.record({ model: fc.constantFrom("m-a", "m-b") }),
  fc.record({ surface: fc.constantFrom<UsageSurface>("CHAT", "EMBEDDINGS") }),
  fc.record({ byok: fc.boolean() }),
  fc.record({ models: fc.subarray(["m-a", "m-b", "M-c"]) }),
);

/** Buckets are hours or days (the platform's `bucketMs`); the hourly rollups cannot split an hour. */
const groupingArb = fc.constantFrom<UsageGrouping>(
  { by: "all" },
  { by: "model" },
  { by: "bucket", sizeMs: HOUR },
  { by: "bucket", sizeMs: DAY },
);

/** Ranges from a part of an hour to the whole data, edges anywhere (whole hours and days in between). */
const rangeArb = fc
  .tuple(fc.integer({ min: -HOUR, max: 2 * DAY }), fc.integer({ min: 1, max: 3 * DAY + 2 * HOUR }))
  .map(([from, length]) => ({ from: T0 + from, to: T0 + from + length }));

export function describeAnalyticsContract(label: string, open: OpenArea): void {
  describe(`analytics contract (${label})`, () => {
    it("answers usage sums, latency bins, ranks and error groups equal to a recount of the rows", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(callArb, { minLength: 1, maxLength: 60 }),
          rangeArb,
          filterArb,
          groupingArb,
          async (calls, range, filter, grouping) => {
            await withArea(open, T0, async (area, clock) => {
              const org = await area.organization();
              const other = await area.organization();
              for (const call of calls) {
                clock.time = call.at;
                await area.usage.record(
                  usageEvent(org, {
                    model: call.model,
                    surface: call.surface,
                    byok: call.byok,
                    outcome: call.error ? "error" : "ok",
                    errorCode: call.error ? call.code : null,
                    status: call.error ? call.status : null,
                    latencyMs: call.latency,
                    promptTokens: call.prompt,
                    completionTokens: call.completion,
                    costEur: call.cost,
                  }),
                );
              }
              await area.usage.record(usageEvent(other, { model: "m-a" })); // another organization's call
              const inRange = calls.filter(
                (c) => c.at >= range.from && c.at < range.to && matches(c, filter),
              );

              const totals = new Map<
                string,
                { requests: number; errors: number; prompt: number; completion: number; cost: number }
              >();
              for (const call of inRange) {
                const key = keyOf(call, grouping);
                const group = totals.get(key) ?? {
                  requests: 0,
                  errors: 0,
                  prompt: 0,
                  completion: 0,
                  cost: 0,
                };
                group.requests += 1;
                group.errors += call.error ? 1 : 0;
                group.prompt += call.prompt;
                group.completion += call.completion;
                group.cost += call.cost;
                totals.set(key, group);
              }
              const answered = byKey(await area.analytics.usageTotals(org, range, filter, grouping));
              expect(
                answered.map((row) => [
                  row.key,
                  row.requests,
                  row.errors,
                  row.promptTokens,
                  row.completionTokens,
                ]),
              ).toEqual(
                byKey([...totals].map(([key, g]) => ({ key, g }))).map(({ key, g }) => [
                  key,
                  g.requests,
                  g.errors,
                  g.prompt,
                  g.completion,
                ]),
              );
              for (const row of answered) expect(row.costEur).toBeCloseTo(totals.get(row.key)?.cost ?? -1, 6);

              const bins = new Map<string, number>();
              for (const call of inRange) {
                const id = `${keyOf(call, grouping)}\u0000${binOf(call.latency)}`;
                bins.set(id, (bins.get(id) ?? 0) + 1);
              }
              const expectedBins = [...bins]
                .map(([id, count]) => {
                  const [key, bin] = id.split("\u0000");
                  return { key: key as string, bin: Number(bin), count };
                })
                .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.bin - b.bin));
              expect(await area.analytics.latencyBins(org, range, filter, grouping)).toEqual(expectedBins);

              const first = inRange[0];
              if (first !== undefined) {
                const bin = binOf(first.latency);
                const sorted = inRange
                  .filter((c) => binOf(c.latency) === bin)
                  .map((c) => c.latency)
                  .sort((a, b) => a - b);
                for (const offset of [0, sorted.length - 1, sorted.length]) {
                  expect(await area.analytics.latencyInBin(org, range, filter, bin, offset)).toBe(
                    sorted[offset] ?? null,
                  );
                }
              }

              const errors = new Map<
                string,
                { code: string | null; status: number | null; count: number; lastAt: number }
              >();
              for (const call of inRange.filter((c) => c.error)) {
                const id = `${call.code}|${call.status}`;
                const group = errors.get(id) ?? { code: call.code, status: call.status, count: 0, lastAt: 0 };
                group.count += 1;
                group.lastAt = Math.max(group.lastAt, call.at);
                errors.set(id, group);
              }
              const nullsFirst = (a: string | number | null, b: string | number | null) =>
                a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
              const expectedErrors = [...errors.values()].sort(
                (a, b) =>
                  b.count - a.count ||
                  b.lastAt - a.lastAt ||
                  nullsFirst(a.code, b.code) ||
                  nullsFirst(a.status, b.status),
              );
              expect(await area.analytics.errorGroups(org, range, filter)).toEqual(expectedErrors);
            });
          },
        ),
        { numRuns: 15 },
      );
    });

    it("computes extraction quality once and groups extraction statistics", async () => {
      await withArea(open, T0, async (area) => {
        const [org, other] = [await area.organization(), await area.organization()];
        const pending = await extraction(area, org, { schema: "sch_b", at: T0, result: { fields: {} } });
        const pendingFailed = await extraction(area, org, {
          schema: "sch_a",
          status: "FAILED",
          at: T0 + HOUR,
        });
        await extraction(area, org, { schema: "sch_a", model: "m2", at: T0 + 2 * HOUR, quality: true });
        await extraction(area, other, { schema: "sch_a", at: T0, result: "x" });
        const without = await area.analytics.extractionsWithoutQuality(org, 10);
        expect(without.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([
          { id: pending, result: { fields: {} } },
          { id: pendingFailed, result: null },
        ]);
        expect(await area.analytics.extractionsWithoutQuality(org, 1)).toHaveLength(1);
        await area.analytics.setExtractionQuality([
          {
            id: pending,
            quality: { confidence: 0.5, flagCount: 2, validationApplied: true, violationCount: 1 },
          },
          {
            id: pendingFailed,
            quality: { confidence: null, flagCount: null, validationApplied: false, violationCount: 0 },
          },
        ]);
        expect(await area.analytics.extractionsWithoutQuality(org, 10)).toEqual([]);
        const range = { from: T0, to: T0 + DAY };
        expect(await area.analytics.extractionStats(org, range, {}, { by: "schema" })).toEqual([
          {
            key: "sch_a",
            extractions: 2,
            completed: 1,
            failed: 1,
            withConfidence: 0,
            confidenceSum: 0,
            flagged: 0,
            validationApplied: 0,
            validationFailed: 0,
          },
          {
            key: "sch_b",
            extractions: 1,
            completed: 1,
            failed: 0,
            withConfidence: 1,
            confidenceSum: 0.5,
            flagged: 1,
            validationApplied: 1,
            validationFailed: 1,
          },
        ]);
        const byHour = await area.analytics.extractionStats(
          org,
          range,
          { schemaId: "sch_a" },
          { by: "bucket", sizeMs: HOUR },
        );
        expect(byHour.map((row) => [row.key, row.extractions])).toEqual([
          [String(T0 + HOUR), 1],
          [String(T0 + 2 * HOUR), 1],
        ]);
        expect(
          (await area.analytics.extractionStats(org, range, { model: "m2" }, { by: "all" })).map(
            (r) => r.extractions,
          ),
        ).toEqual([1]);
        expect(
          await area.analytics.extractionStats(
            org,
            { from: T0 + DAY, to: T0 + 2 * DAY },
            {},
            { by: "model" },
          ),
        ).toEqual([]);
      });
    });

    it("names an organization's schemas only", async () => {
      await withArea(open, T0, async (area) => {
        const [org, other] = [await area.organization(), await area.organization()];
        const [a, b, foreign] = [rowId("sch"), rowId("sch"), rowId("sch")];
        for (const [id, owner, name] of [
          [a, org, "Invoices"],
          [b, org, "Receipts"],
          [foreign, other, "Theirs"],
        ] as const) {
          await area.insertRow("schemas", { id, organization_id: owner, name, created_at: 1, updated_at: 1 });
        }
        const names = await area.analytics.schemaNames(org, [b, foreign, "sch_missing", a]);
        expect([...names]).toEqual([
          [b, "Receipts"],
          [a, "Invoices"],
        ]);
      });
    });

    it("sums human scores per group and name, means of numbers and booleans", async () => {
      await withArea(open, T0, async (area) => {
        const [org, other] = [await area.organization(), await area.organization()];
        const onSchema = await extraction(area, org, { schema: "sch_x", at: T0, quality: true });
        await score(area, org, {
          name: "accuracy",
          dataType: "NUMERIC",
          value: 4,
          at: T0,
          subject: onSchema,
        });
        await score(area, org, { name: "accuracy", dataType: "NUMERIC", value: 1.5, at: T0 + HOUR });
        await score(area, org, { name: "Useful", dataType: "BOOLEAN", value: true, at: T0 });
        await score(area, org, { name: "Useful", dataType: "BOOLEAN", value: false, at: T0 + 1 });
        await score(area, org, { name: "tone", dataType: "CATEGORICAL", value: "warm", at: T0 });
        await score(area, org, { name: "accuracy", dataType: "NUMERIC", value: 100, at: T0, source: "API" });
        await score(area, other, { name: "accuracy", dataType: "NUMERIC", value: 100, at: T0 });
        const range = { from: T0, to: T0 + DAY };
        expect(await area.analytics.humanScoreStats(org, range, {}, { by: "all" })).toEqual([
          { key: "", name: "Useful", dataType: "BOOLEAN", count: 2, mean: 0.5 },
          { key: "", name: "accuracy", dataType: "NUMERIC", count: 2, mean: 2.75 },
          { key: "", name: "tone", dataType: "CATEGORICAL", count: 1, mean: null },
        ]);
        expect(
          await area.analytics.humanScoreStats(
            org,
            range,
            { name: "accuracy" },
            { by: "bucket", sizeMs: HOUR },
          ),
        ).toEqual([
          { key: String(T0), name: "accuracy", dataType: "NUMERIC", count: 1, mean: 4 },
          { key: String(T0 + HOUR), name: "accuracy", dataType: "NUMERIC", count: 1, mean: 1.5 },
        ]);
        expect(
          await area.analytics.humanScoreStats(org, range, { schemaId: "sch_x" }, { by: "all" }),
        ).toEqual([{ key: "", name: "accuracy", dataType: "NUMERIC", count: 1, mean: 4 }]);
        const means = await area.analytics.humanScoreMeans(org, range, {}, { by: "bucket", sizeMs: HOUR });
        expect(byKey(means)).toEqual([
          { key: String(T0), mean: (4 + 1 + 0) / 3 },
          { key: String(T0 + HOUR), mean: 1.5 },
        ]);
        expect(await area.analytics.humanScoreMeans(org, range, { name: "tone" }, { by: "all" })).toEqual([]);
      });
    });
  });
}
