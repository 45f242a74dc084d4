/**
 * The billing tiers of PLATFORM.md §15: one row per plan (F9, G14), one limit per
 * resource. `null` is unlimited; `byok` is a feature (true when the plan includes it).
 */
import { PLANS, type Plan } from "@groundwork/core";

export const BILLING_RESOURCES = [
  "usage_eur",
  "pages",
  "storage_bytes",
  "requests_per_minute",
  "seats",
  "byok",
] as const;
export type BillingResource = (typeof BILLING_RESOURCES)[number];

export type BillingUnit = "eur" | "pages" | "bytes" | "requests" | "keys" | "feature";

/** When a resource's counter starts again: each UTC month, each UTC minute, or never (a level, not a flow). */
export type BillingPeriod = "month" | "minute" | null;

/** The refusal a resource answers when it is used up (the `reason` of a check). */
export type BillingReason =
  | "usage_exhausted"
  | "pages_exhausted"
  | "storage_exhausted"
  | "rate_limit_exceeded"
  | "seats_exhausted"
  | "plan_required";

export interface BillingResourceInfo {
  unit: BillingUnit;
  period: BillingPeriod;
  reason: BillingReason;
}

/** Unit, reset period and refusal of each resource (§15's table and its `/limits` answer). */
export const BILLING_RESOURCE_INFO: Readonly<Record<BillingResource, BillingResourceInfo>> = {
  usage_eur: { unit: "eur", period: "month", reason: "usage_exhausted" },
  pages: { unit: "pages", period: "month", reason: "pages_exhausted" },
  storage_bytes: { unit: "bytes", period: null, reason: "storage_exhausted" },
  requests_per_minute: { unit: "requests", period: "minute", reason: "rate_limit_exceeded" },
  seats: { unit: "keys", period: null, reason: "seats_exhausted" },
  byok: { unit: "feature", period: null, reason: "plan_required" },
};

/** A plan's limits: numbers (null = unlimited) and the `byok` feature flag. */
export interface TierLimits {
  usage_eur: number | null;
  pages: number | null;
  storage_bytes: number | null;
  requests_per_minute: number | null;
  seats: number | null;
  byok: boolean;
}

export interface BillingTier {
  plan: Plan;
  name: string;
  limits: TierLimits;
}

const GIB = 1024 ** 3;

/** PLATFORM.md §15, in plan order. */
export const BILLING_TIERS: Readonly<Record<Plan, BillingTier>> = {
  free: {
    plan: "free",
    name: "Free",
    limits: {
      usage_eur: 5,
      pages: 1_000,
      storage_bytes: GIB,
      requests_per_minute: 600,
      seats: 5,
      byok: false,
    },
  },
  team: {
    plan: "team",
    name: "Team",
    limits: {
      usage_eur: 100,
      pages: 20_000,
      storage_bytes: 100 * GIB,
      requests_per_minute: 6_000,
      seats: 50,
      byok: true,
    },
  },
  business: {
    plan: "business",
    name: "Business",
    limits: {
      usage_eur: 1_000,
      pages: 200_000,
      storage_bytes: 1024 * GIB,
      requests_per_minute: 30_000,
      seats: 500,
      byok: true,
    },
  },
  enterprise: {
    plan: "enterprise",
    name: "Enterprise",
    limits: {
      usage_eur: null,
      pages: null,
      storage_bytes: null,
      requests_per_minute: null,
      seats: null,
      byok: true,
    },
  },
};

/** Changes to the tier table (a deployment's own plans, or a test's small limit), field by field. */
export type TierOverrides = Partial<Record<Plan, Partial<TierLimits>>>;

/** The tier table with `overrides` applied; the §15 table when there are none. */
export function resolveTiers(overrides: TierOverrides = {}): Readonly<Record<Plan, BillingTier>> {
  const tiers = {} as Record<Plan, BillingTier>;
  for (const plan of PLANS) {
    const base = BILLING_TIERS[plan];
    tiers[plan] = { ...base, limits: { ...base.limits, ...overrides[plan] } };
  }
  return tiers;
}

export function isBillingResource(value: unknown): value is BillingResource {
  return typeof value === "string" && (BILLING_RESOURCES as readonly string[]).includes(value);
}

/** Included monthly usage per plan in EUR (the `usage_eur` column); null is unlimited. */
export function includedUsageEur(
  tiers: Readonly<Record<Plan, BillingTier>> = BILLING_TIERS,
): Record<Plan, number | null> {
  const included = {} as Record<Plan, number | null>;
  for (const plan of PLANS) included[plan] = tiers[plan].limits.usage_eur;
  return included;
}
