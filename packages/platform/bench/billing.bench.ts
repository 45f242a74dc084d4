/**
 * What billing adds per request: counting a `/v1` request against the plan's rate
 * (`admitRequest`, in process) beside the API-key lookup every request already does
 * (the baseline, same run); and a full `/v1/billing/limits` report (six counters, three
 * SQL reads) beside one charged-usage query (what every built-in call already asks).
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";
import { storePlanAllowance } from "../src/gateway/store-gateway.js";

const store = openStore({ file: ":memory:" });
// A rate no benchmark reaches, so every call takes the enforced path without being refused.
const groundwork = createGroundwork({
  store,
  allowance: storePlanAllowance(store, {
    tiers: { business: { requests_per_minute: Number.MAX_SAFE_INTEGER } },
  }),
});
const organization = await store.organizations.create("acme", "business");
const { key } = await store.apiKeys.create({ organizationId: organization.id, role: "member" });
const principal = await store.apiKeys.authenticate(key);
if (principal === null) throw new Error("no principal");
for (let i = 0; i < 200; i++) {
  await store.files.create({
    organizationId: organization.id,
    filename: `f${i}.txt`,
    purpose: "user_data",
    mime: "text/plain",
    bytes: new Uint8Array(64),
  });
  await store.usage.record({
    organizationId: organization.id,
    apiKeyId: null,
    model: "gpt-4o-mini",
    surface: "CHAT",
    byok: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: null,
    costEur: 0.001,
    latencyMs: 1,
    outcome: "ok",
    endUser: null,
  });
}
await store.usage.flush();

describe("per request", () => {
  bench("baseline: API-key lookup (every /v1 request)", async () => {
    await store.apiKeys.authenticate(key);
  });
  bench("admitRequest (rate limit count + check)", () => {
    groundwork.billing.admitRequest(principal);
  });
});

describe("limits report", () => {
  bench("baseline: charged usage of the month (every built-in call)", async () => {
    await store.usage.chargedSince(organization.id, 0);
  });
  bench("billing.limits (six counters)", () => {
    groundwork.billing.limits(principal);
  });
});
