/** Billing answers on the wire (PLATFORM.md §15): instants as ISO strings with milliseconds. */
import type { CheckResult, LimitStatus, TierView } from "@groundwork/observability";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function renderTier(tier: TierView) {
  return {
    plan: tier.plan,
    name: tier.name,
    limits: tier.limits,
    periodStart: iso(tier.periodStart),
    periodEnd: iso(tier.periodEnd),
  };
}

export function renderLimit(status: LimitStatus) {
  return { ...status, resetsAt: iso(status.resetsAt) };
}

export function renderCheck(result: CheckResult) {
  return {
    allowed: result.allowed,
    reason: result.reason,
    remaining: result.remaining,
    resetsAt: iso(result.resetsAt),
  };
}
