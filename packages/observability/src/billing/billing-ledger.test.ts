/** The ledger over a meter: reports, checks and the allowance's refusals (PLATFORM.md §15). */
import type { GroundworkError, Plan, Principal, RequestCounter } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { BillingLedger, type BillingMeter, createBillingAllowance } from "./billing-ledger.js";

function meterOf(
  counts: Partial<Record<"eur" | "pages" | "bytes" | "keys", number>>,
  plan: Plan,
): BillingMeter {
  return {
    planOf: () => plan,
    chargedSince: () => counts.eur ?? 0,
    pagesSince: () => counts.pages ?? 0,
    storedBytes: () => counts.bytes ?? 0,
    activeKeys: () => counts.keys ?? 0,
  };
}

const NOW = Date.UTC(2025, 0, 31, 9, 15, 42, 500);
const clock = { now: () => NOW };
const principal = (plan: Plan): Principal => ({
  organizationId: "org_1",
  organizationName: "acme",
  plan,
  role: "viewer",
  apiKeyId: "key_1",
});

function thrown(run: () => void): GroundworkError {
  try {
    run();
  } catch (error) {
    return error as GroundworkError;
  }
  throw new Error("expected a refusal");
}

async function rejected(run: () => Promise<unknown>): Promise<GroundworkError> {
  try {
    await run();
  } catch (error) {
    return error as GroundworkError;
  }
  throw new Error("expected a refusal");
}

describe("BillingLedger", () => {
  it("reports every resource with unit, counter, remainder and reset", async () => {
    const ledger = new BillingLedger(meterOf({ eur: 1.25, pages: 10, bytes: 100, keys: 3 }, "free"), {
      clock,
    });
    const month = Date.UTC(2025, 1, 1);
    expect(await ledger.limits("org_1", "free")).toEqual([
      { resource: "usage_eur", unit: "eur", limit: 5, used: 1.25, remaining: 3.75, resetsAt: month },
      { resource: "pages", unit: "pages", limit: 1000, used: 10, remaining: 990, resetsAt: month },
      {
        resource: "storage_bytes",
        unit: "bytes",
        limit: 1024 ** 3,
        used: 100,
        remaining: 1024 ** 3 - 100,
        resetsAt: null,
      },
      {
        resource: "requests_per_minute",
        unit: "requests",
        limit: 600,
        used: 0,
        remaining: 600,
        resetsAt: Date.UTC(2025, 0, 31, 9, 16),
      },
      { resource: "seats", unit: "keys", limit: 5, used: 3, remaining: 2, resetsAt: null },
      { resource: "byok", unit: "feature", limit: false, used: null, remaining: 0, resetsAt: null },
    ]);
    expect(ledger.tier("team")).toMatchObject({
      plan: "team",
      name: "Team",
      periodStart: Date.UTC(2025, 0, 1),
      periodEnd: month,
    });
  });

  it("checks with the remainder before the amount and the resource's reason", async () => {
    const ledger = new BillingLedger(meterOf({ eur: 4.5, keys: 5 }, "free"), { clock });
    expect(await ledger.check("org_1", "free", "usage_eur", 1)).toEqual({
      allowed: false,
      reason: "usage_exhausted",
      remaining: 0.5,
      resetsAt: Date.UTC(2025, 1, 1),
    });
    expect((await ledger.check("org_1", "free", "usage_eur", 0.5)).allowed).toBe(true);
    expect(await ledger.check("org_1", "free", "seats", 1)).toMatchObject({
      allowed: false,
      reason: "seats_exhausted",
      remaining: 0,
    });
    expect(await ledger.check("org_1", "free", "byok", 1)).toMatchObject({
      allowed: false,
      reason: "plan_required",
    });
    expect(await ledger.check("org_1", "enterprise", "pages", 1e9)).toEqual({
      allowed: true,
      reason: null,
      remaining: null,
      resetsAt: Date.UTC(2025, 1, 1),
    });
    expect(await ledger.available("org_1", "free", "seats")).toBe(false);
    expect(await ledger.available("org_1", "free", "byok")).toBe(false);
    expect(await ledger.available("org_1", "team", "byok")).toBe(true);
    expect(await ledger.available("org_1", "free", "pages")).toBe(true);
  });

  it("refuses requests beyond the minute's rate with Retry-After to the next minute, and not the next minute", async () => {
    let now = NOW;
    const ledger = new BillingLedger(meterOf({}, "free"), {
      clock: { now: () => now },
      tiers: { free: { requests_per_minute: 2 } },
    });
    const allowance = createBillingAllowance(ledger);
    allowance.admitRequest(principal("free"));
    allowance.admitRequest(principal("free"));
    const refused = thrown(() => allowance.admitRequest(principal("free")));
    expect(refused).toMatchObject({ status: 429, code: "rate_limit_exceeded", retryAfter: 18 });
    expect(await ledger.status("org_1", "free", "requests_per_minute")).toMatchObject({
      used: 2,
      remaining: 0,
    });
    now = Date.UTC(2025, 0, 31, 9, 16);
    allowance.admitRequest(principal("free"));
    expect((await ledger.status("org_1", "free", "requests_per_minute")).used).toBe(1);
  });

  it("with a shared (asynchronous) counter awaits it for a limited plan and not for an unlimited one", async () => {
    const windows = new Map<string, number>();
    const admitted: Array<number | null> = [];
    const shared: RequestCounter = {
      // Answers later, as a database does.
      admit: async (organizationId, windowStart, limit) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const key = `${organizationId}@${windowStart}`;
        const count = windows.get(key) ?? 0;
        const answer = limit !== null && count >= limit ? null : count + 1;
        if (answer !== null) windows.set(key, answer);
        admitted.push(answer);
        return answer;
      },
      count: async (organizationId, windowStart) => windows.get(`${organizationId}@${windowStart}`) ?? 0,
    };
    const ledger = new BillingLedger(meterOf({}, "free"), {
      clock,
      requests: shared,
      tiers: { free: { requests_per_minute: 1 } },
    });
    await ledger.admitRequest("org_1", "free", true);
    const refused = await Promise.resolve(ledger.admitRequest("org_1", "free", true)).then(
      () => null,
      (error: GroundworkError) => error,
    );
    expect(refused).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
    expect((await ledger.status("org_1", "free", "requests_per_minute")).used).toBe(1);
    // Nothing to enforce: the request goes on at once, and is still counted for the reports.
    expect(ledger.admitRequest("org_2", "free", false)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(admitted).toEqual([1, null, 1]);
  });

  it("lets every model call of an unlimited plan start without reading its usage", () => {
    let reads = 0;
    const meter = { ...meterOf({ eur: 1e9 }, "enterprise"), chargedSince: () => ++reads };
    const allowance = createBillingAllowance(new BillingLedger(meter, { clock }));
    expect(allowance.checkUsage(principal("enterprise"))).toBeUndefined();
    expect(reads).toBe(0);
    // A plan with a limit still reads it.
    expect(allowance.checkUsage(principal("free"))).toBeInstanceOf(Promise);
    expect(reads).toBe(1);
  });

  it("enforces usage, storage and pages with 402 codes", async () => {
    const allowance = createBillingAllowance(
      new BillingLedger(meterOf({ eur: 5, bytes: 1024 ** 3 - 10, pages: 1000 }, "free"), { clock }),
    );
    expect(
      await rejected(async () => {
        await allowance.checkUsage(principal("free"));
      }),
    ).toMatchObject({
      status: 402,
      code: "usage_exhausted",
    });
    expect(await rejected(async () => await allowance.checkStorage("org_1", 11))).toMatchObject({
      status: 402,
      code: "storage_exhausted",
    });
    await allowance.checkStorage("org_1", 10);
    expect(await rejected(async () => await allowance.checkPages("org_1", 1))).toMatchObject({
      status: 402,
      code: "pages_exhausted",
    });
    expect(allowance.ownProvidersRefusal(principal("free"))).toMatch(/Team/);
    expect(allowance.ownProvidersRefusal(principal("team"))).toBeNull();
  });
});
