// Reads usage analytics: two chat calls (one the provider refuses) and an in-process embedding call, then
// the summary, providers, errors and an hourly series of the organization.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/analytics/index.ts
// (OPENAI_BASE_URL points it at another OpenAI-compatible server; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
});
const me = await groundwork.principal("acme");
await groundwork.providers.create(me.organizationId, {
  name: "openai",
  provider: "HOSTED_A",
  config: { baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1" },
  apiKey: process.env.OPENAI_API_KEY ?? "",
});
const messages = [{ role: "user" as const, content: "Say hello in French." }];
await groundwork.gateway.chat({ model: "hosted-a/gpt-4o-mini", messages }, { principal: me });
// A model the provider refuses: the caller gets an error, and analytics records the status and code it got.
await groundwork.gateway
  .chat({ model: "hosted-a/no-such-model", messages }, { principal: me })
  .catch((error: { status: number; code: string }) => console.log("refused", error.status, error.code));
// The in-process embedding model is metered like any other.
await groundwork.gateway.embeddings(
  { model: "hash-embedding-1536", input: ["invoice", "receipt"], encodingFormat: "float" },
  { principal: me },
);

const summary = await groundwork.analytics.summary(me, {}); // the last 7 days
console.log(summary.requests, summary.errors, summary.errorRate?.toFixed(2), summary.latencyP95Ms !== null);
console.log(
  (await groundwork.analytics.providers(me, {})).providers.map((p) => `${p.provider}:${p.requests}`),
);
console.log(
  (await groundwork.analytics.errors(me, {})).errors.map((e) => `${e.status} ${e.code} x${e.count}`),
);
const from = new Date(Date.now() - 6 * 3_600_000).toISOString();
const hourly = await groundwork.analytics.timeseries(me, { from }); // ≤ 48 hours: hourly buckets, empty ones too
console.log(
  hourly.bucket,
  hourly.points.reduce((sum, point) => sum + point.requests, 0),
);
// #endregion readme
