/**
 * Analytics over 1,000,000 usage records of one organization spread over 30 days (PLATFORM.md §14,
 * target p50 < 150 ms), each beside its floor on the same connection and rows:
 * - the summary of the 30 days (sums + exact p50/p95 latency) vs a plain
 *   `SELECT count(*), sum(…)` over the same rows (no percentiles at all);
 * - the 30-day daily time series (30 points, each with exact p50/p95) vs the same plain aggregate
 *   grouped by day.
 * The rows are written through the store's batched writer, so the insert-time rollups (migration
 * 022) are built the way production builds them. The range is deliberately not hour-aligned.
 * Run: pnpm bench (or npx vitest bench --run --project platform bench/analytics.bench.ts).
 */
import type { Principal, UsageSurface } from "@groundwork/core";
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { AnalyticsService } from "../src/analytics/analytics-service.js";

const ROWS = 1_000_000;
const DAY = 86_400_000;
const T0 = Date.parse("2025-03-01T00:00:00.000Z");
const SPAN = 30 * DAY;

let now = T0;
const clock = { now: () => now };
const store = openStore({ file: ":memory:", clock });
const org = await store.organizations.create("bench", "enterprise");
const principal: Principal = {
  organizationId: org.id,
  organizationName: org.name,
  plan: "enterprise",
  role: "viewer",
  apiKeyId: "",
};
const analytics = new AnalyticsService(store, clock);

// A deterministic, long-tailed latency (log-normal around 400 ms) and a mix of models and surfaces.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const MODELS = ["hosted-a/gpt-x", "hosted-a/gpt-y", "cloud-b/claude-x", "gpt-4o-mini"];
const seeded = performance.now();
for (let i = 0; i < ROWS; i++) {
  now = T0 + Math.floor((i / ROWS) * SPAN);
  const normal = Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  const error = random() < 0.02;
  await store.usage.record({
    organizationId: org.id,
    apiKeyId: null,
    model: MODELS[i % MODELS.length] as string,
    surface: (i % 10 === 0 ? "EMBEDDINGS" : "CHAT") as UsageSurface,
    byok: i % 4 === 2,
    promptTokens: 200 + (i % 300),
    completionTokens: i % 10 === 0 ? 0 : 50 + (i % 120),
    cachedTokens: null,
    costEur: 0.0001 + (i % 7) * 0.00001,
    latencyMs: Math.round(Math.exp(6 + 0.8 * normal) * 100) / 100,
    outcome: error ? "error" : "ok",
    endUser: null,
    ...(error ? { errorCode: "upstream_error", status: 502 } : {}),
  });
}
await store.usage.flush();
console.log(`seeded ${ROWS} usage rows in ${Math.round(performance.now() - seeded)} ms`);

now = T0 + SPAN + 60_000;
// 30 days, not hour-aligned: whole hours from the rollups, the edges from the rows.
const query = {
  from: new Date(T0 + 17 * 60_000).toISOString(),
  to: new Date(T0 + SPAN + 17 * 60_000).toISOString(),
  bucket: "day",
};
const from = Date.parse(query.from);
const to = Date.parse(query.to);
const plainTotals = store.db.prepare(
  `SELECT count(*) AS requests, sum(outcome = 'error') AS errors, sum(prompt_tokens) AS prompt,
       sum(completion_tokens) AS completion, sum(cost_eur) AS cost
     FROM usage_records WHERE organization_id = ? AND created_at >= ? AND created_at < ?`,
);
const plainDaily = store.db.prepare(
  `SELECT created_at - created_at % ${DAY} AS day, count(*) AS requests, sum(outcome = 'error') AS errors,
       sum(prompt_tokens + completion_tokens) AS tokens, sum(cost_eur) AS cost
     FROM usage_records WHERE organization_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1`,
);

describe("summary of 30 days over 1M usage rows", () => {
  bench("analytics.summary (sums + exact p50/p95)", async () => {
    await analytics.summary(principal, query);
  });
  bench("baseline: plain SELECT count(*), sum(…) over the same rows", () => {
    plainTotals.get(org.id, from, to);
  });
});

describe("30-day daily time series over 1M usage rows", () => {
  bench("analytics.timeseries (30 points, exact p50/p95 each)", async () => {
    await analytics.timeseries(principal, query);
  });
  bench("baseline: plain SELECT … GROUP BY day over the same rows", () => {
    plainDaily.all(org.id, from, to);
  });
});
