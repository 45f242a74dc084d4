/**
 * The allowance of the hosted plans (spec document 1, "Plans"): models of an
 * organization's own providers need Team or higher, and built-in calls stop with
 * a 402 once the month's included usage (EUR, see pricing.ts) is used up. The
 * server passes this to the gateway; a library user passes none and is unlimited.
 */
import {
  type Allowance,
  billingRequired,
  type Clock,
  type Plan,
  planAllows,
  systemClock,
} from "@groundwork/core";
import type { UsageMeter } from "./ports.js";
import { DEFAULT_PLAN_ALLOWANCE_EUR, startOfMonthUtc } from "./pricing.js";

export interface PlanAllowanceOptions {
  /** How much an organization was charged since a time (the usage records). */
  usage: Pick<UsageMeter, "chargedSince">;
  clock?: Clock;
  /** Included monthly usage per plan in EUR; null is unlimited. */
  planAllowanceEur?: Readonly<Record<Plan, number | null>>;
}

export function createPlanAllowance(options: PlanAllowanceOptions): Allowance {
  const clock = options.clock ?? systemClock;
  const included = options.planAllowanceEur ?? DEFAULT_PLAN_ALLOWANCE_EUR;
  return {
    ownProvidersRefusal: (principal) =>
      planAllows(principal.plan, "team")
        ? null
        : `need the Team, Business or Enterprise plan; the organization is on ${principal.plan}`,
    async checkUsage(principal) {
      const allowance = included[principal.plan];
      if (allowance === null) return;
      const used = await options.usage.chargedSince(principal.organizationId, startOfMonthUtc(clock.now()));
      if (used >= allowance) {
        throw billingRequired(
          `The organization's included usage for this month (${allowance} EUR on the ${principal.plan} plan) is used up`,
          { code: "usage_exhausted" },
        );
      }
    },
  };
}
