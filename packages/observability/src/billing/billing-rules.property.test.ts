/** Invariants of the billing rules (PLATFORM.md §15): decisions, periods and the request window. */
import { PLANS } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide } from "./billing-decision.js";
import { minuteWindow, monthWindow, secondsToNextMinute } from "./billing-period.js";
import { BILLING_RESOURCES, BILLING_TIERS, resolveTiers } from "./billing-tiers.js";
import { RequestWindow } from "./request-window.js";

const limit = fc.oneof(fc.constant(null), fc.boolean(), fc.double({ min: 0, max: 1e12, noNaN: true }));
const used = fc.double({ min: 0, max: 2e12, noNaN: true });
const amount = fc.double({ min: 0, max: 2e12, noNaN: true });
/** Instants from 1970 to 2200. */
const instant = fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) });

describe("decide", () => {
  it("never leaves a negative remainder", () => {
    fc.assert(
      fc.property(limit, used, amount, (l, u, a) => {
        const { remaining } = decide(l, u, a);
        expect(remaining === null || remaining >= 0).toBe(true);
      }),
    );
  });

  it("allows exactly when unlimited (or an included feature) or the remainder covers the amount", () => {
    fc.assert(
      fc.property(limit, used, amount, (l, u, a) => {
        const { allowed, remaining } = decide(l, u, a);
        // A feature the plan lacks is refused whatever the amount (0 included).
        expect(allowed).toBe(l !== false && (remaining === null || remaining >= a));
        if (l === null || l === true) expect(remaining).toBeNull();
        if (l === false) expect(allowed).toBe(false);
        if (typeof l === "number") expect(remaining).toBe(Math.max(0, l - u));
      }),
    );
  });

  it("allows amount 0 whenever the limit is a number or unlimited", () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(null), used), used, (l, u) => {
        expect(decide(l, u, 0).allowed).toBe(true);
      }),
    );
  });
});

describe("periods", () => {
  it("the month's end is the next month's start, after every instant of the month", () => {
    fc.assert(
      fc.property(instant, (now) => {
        const { start, end } = monthWindow(now);
        const date = new Date(now);
        expect(start).toBe(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
        expect(end).toBe(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
        expect(start).toBeLessThanOrEqual(now);
        expect(end).toBeGreaterThan(now);
        // The last millisecond of the month is still in it; the end starts the next one.
        expect(monthWindow(end - 1)).toEqual({ start, end });
        expect(monthWindow(end).start).toBe(end);
        expect(new Date(end).getUTCDate()).toBe(1);
        expect(new Date(end).getUTCHours()).toBe(0);
      }),
    );
  });

  it("minutes hold their instants and Retry-After reaches the next minute (1–60 s)", () => {
    fc.assert(
      fc.property(instant, (now) => {
        const { start, end } = minuteWindow(now);
        expect(start % 60_000).toBe(0);
        expect(end - start).toBe(60_000);
        expect(start <= now && now < end).toBe(true);
        const seconds = secondsToNextMinute(now);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
        expect(now + seconds * 1000).toBeGreaterThanOrEqual(end);
        expect(now + (seconds - 1) * 1000).toBeLessThan(end);
      }),
    );
  });
});

describe("request window", () => {
  it("counts per organization and minute; a new minute starts from zero", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("org_a", "org_b"), fc.integer({ min: 0, max: 3 * 60_000 })), {
          maxLength: 60,
        }),
        (events) => {
          const window = new RequestWindow();
          const sorted = [...events].sort((x, y) => x[1] - y[1]);
          for (const [org, at] of sorted) window.admit(org, minuteWindow(at).start, null);
          const last = sorted.at(-1);
          if (last === undefined) return;
          const minute = minuteWindow(last[1]).start;
          for (const org of ["org_a", "org_b"]) {
            const expected = sorted.filter(
              ([o, at]) => o === org && minuteWindow(at).start === minute,
            ).length;
            // Only the latest minute of each organization is kept; earlier ones read as zero.
            const latestOfOrg = sorted.filter(([o]) => o === org).at(-1);
            if (latestOfOrg !== undefined && minuteWindow(latestOfOrg[1]).start === minute)
              expect(window.count(org, minute)).toBe(expected);
            else expect(window.count(org, minute)).toBe(0);
          }
        },
      ),
    );
  });
});

describe("tiers", () => {
  it("follow PLATFORM.md §15 in plan order, with null for unlimited", () => {
    expect(PLANS.map((plan) => BILLING_TIERS[plan].name)).toEqual(["Free", "Team", "Business", "Enterprise"]);
    expect(BILLING_TIERS.free.limits).toEqual({
      usage_eur: 5,
      pages: 1000,
      storage_bytes: 1073741824,
      requests_per_minute: 600,
      seats: 5,
      byok: false,
    });
    expect(BILLING_TIERS.team.limits).toEqual({
      usage_eur: 100,
      pages: 20000,
      storage_bytes: 107374182400,
      requests_per_minute: 6000,
      seats: 50,
      byok: true,
    });
    expect(BILLING_TIERS.business.limits).toEqual({
      usage_eur: 1000,
      pages: 200000,
      storage_bytes: 1099511627776,
      requests_per_minute: 30000,
      seats: 500,
      byok: true,
    });
    expect(BILLING_TIERS.enterprise.limits).toEqual({
      usage_eur: null,
      pages: null,
      storage_bytes: null,
      requests_per_minute: null,
      seats: null,
      byok: true,
    });
    for (const plan of PLANS) expect(Object.keys(BILLING_TIERS[plan].limits)).toEqual([...BILLING_RESOURCES]);
  });

  it("overrides change only the fields they name", () => {
    const tiers = resolveTiers({ free: { pages: 2 } });
    expect(tiers.free.limits).toEqual({ ...BILLING_TIERS.free.limits, pages: 2 });
    expect(tiers.team).toEqual(BILLING_TIERS.team);
    expect(BILLING_TIERS.free.limits.pages).toBe(1000);
  });
});
