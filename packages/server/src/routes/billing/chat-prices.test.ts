/**
 * Built-in chat is charged against the plan from the price table (PLATFORM.md §15 `usage_eur`):
 * the default table (named models, `*` for the others), a replaced table, and the 402 once
 * the month's included usage is used up — seen through /v1/billing/limits.
 */
import { createFastFetch, DEFAULT_CHAT_PRICES, type TokenPrice } from "@groundwork/gateway";
import { createGroundwork, storePlanAllowance } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1", "gpt-4o-mini"] });
});
afterAll(async () => {
  await upstream.close();
});

function appFor(tenant: TestTenant, chatPrices?: Record<string, TokenPrice>): App {
  return createApp({
    groundwork: createGroundwork({
      store: tenant.store,
      config: {
        builtin: { baseUrl: upstream.url, apiKey: "k" },
        ...(chatPrices === undefined ? {} : { chatPrices }),
      },
      allowance: storePlanAllowance(tenant.store),
      fetch: createFastFetch(),
    }),
  });
}

const chat = (app: App, key: string, model: string) =>
  app.request("/v1/chat/completions", {
    method: "POST",
    headers: { ...bearer(key), "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });

const usedEur = async (app: App, key: string) =>
  (
    (await bodyOf(await app.request("/v1/billing/limits", { headers: bearer(key) }))).limits as Array<{
      resource: string;
      used: number;
    }>
  ).find((entry) => entry.resource === "usage_eur")?.used ?? Number.NaN;

const cost = (price: TokenPrice | undefined, input: number, output: number) =>
  ((price?.inputPerMillion ?? Number.NaN) * input + (price?.outputPerMillion ?? Number.NaN) * output) / 1e6;

describe("built-in chat prices", () => {
  it("charges named models at their price and other names at `*`, then refuses with 402 usage_exhausted", async () => {
    const tenant = await createTestTenant("free");
    const app = appFor(tenant);
    const key = tenant.keys.member;
    upstream.enqueue({ text: "a", usage: { inputTokens: 1000, outputTokens: 500 } });
    expect((await chat(app, key, "gpt-4o-mini")).status).toBe(200);
    upstream.enqueue({ text: "b", usage: { inputTokens: 2000, outputTokens: 100 } });
    expect((await chat(app, key, "gw-chat-1")).status).toBe(200);
    const records = await tenant.store.usage.list(tenant.organizationId);
    const named = cost(DEFAULT_CHAT_PRICES["gpt-4o-mini"], 1000, 500);
    const other = cost(DEFAULT_CHAT_PRICES["*"], 2000, 100);
    expect(records.find((r) => r.model === "gpt-4o-mini")?.costEur).toBeCloseTo(named, 12);
    expect(records.find((r) => r.model === "gw-chat-1")?.costEur).toBeCloseTo(other, 12);
    expect(named).toBeGreaterThan(0);
    expect(await usedEur(app, key)).toBeCloseTo(named + other, 12);

    // The rest of the free plan's 5 EUR is used by a large call: the next one is refused.
    upstream.enqueue({ text: "c", usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 } });
    expect((await chat(app, key, "gw-chat-1")).status).toBe(200);
    const refused = await chat(app, key, "gw-chat-1");
    expect(refused.status).toBe(402);
    expect((await bodyOf(refused)).error).toMatchObject({ type: "billing_error", code: "usage_exhausted" });
    const checked = await app.request("/v1/billing/check", {
      method: "POST",
      headers: { ...bearer(key), "Content-Type": "application/json" },
      body: JSON.stringify({ resource: "usage_eur", amount: 0 }),
    });
    expect(await bodyOf(checked)).toMatchObject({ allowed: true, remaining: 0 });
    expect(
      (await bodyOf(await app.request("/v1/billing/available?resource=usage_eur", { headers: bearer(key) })))
        .available,
    ).toBe(false);
  });

  it("uses a replaced table as it is: `{}` leaves built-in chat free", async () => {
    const tenant = await createTestTenant("free");
    const app = appFor(tenant, {});
    upstream.enqueue({ text: "a", usage: { inputTokens: 1000, outputTokens: 500 } });
    expect((await chat(app, tenant.keys.member, "gpt-4o-mini")).status).toBe(200);
    expect((await tenant.store.usage.list(tenant.organizationId))[0]?.costEur).toBe(0);

    const custom = await createTestTenant("team");
    const priced = appFor(custom, { "gw-chat-1": { inputPerMillion: 2, outputPerMillion: 4 } });
    upstream.enqueue({ text: "b", usage: { inputTokens: 500_000, outputTokens: 250_000 } });
    expect((await chat(priced, custom.keys.member, "gw-chat-1")).status).toBe(200);
    expect(await usedEur(priced, custom.keys.member)).toBeCloseTo(2, 12);
  });
});
