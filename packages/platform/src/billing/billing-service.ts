/**
 * Billing (PLATFORM.md §15): the caller's tier, every tier, the limits with their counters,
 * availability and checks — over the same ledger the plan allowance enforces with, so a
 * report never disagrees with a refusal. Without a plan allowance (a library user) the
 * tiers are reported and requests counted, nothing is refused.
 */
import type { Allowance, MaybePromise, Principal } from "@groundwork/core";
import {
  BILLING_RESOURCES,
  type BillingLedger,
  type BillingResource,
  type BillingTier,
  type CheckResult,
  isBillingResource,
  type LimitStatus,
  monthWindow,
  type TierView,
} from "@groundwork/observability";
import { z } from "zod";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";

/** The store's counters as the ledger reads them. */
export function storeBillingMeter(store: PlatformStore) {
  return {
    planOf: async (organizationId: string) => (await store.organizations.get(organizationId))?.plan ?? null,
    chargedSince: async (organizationId: string, since: number) =>
      await store.usage.chargedSince(organizationId, since),
    pagesSince: async (organizationId: string, since: number) =>
      await store.billing.pagesSince(organizationId, since),
    storedBytes: async (organizationId: string) => await store.billing.storedBytes(organizationId),
    activeKeys: async (organizationId: string) => await store.billing.activeKeys(organizationId),
  };
}

const resourceError = `must be one of ${BILLING_RESOURCES.join(", ")}`;
const resource = z
  .string({ error: `resource is required and ${resourceError}` })
  .refine(isBillingResource, `resource ${resourceError}`)
  .transform((value) => value as BillingResource);

/** `POST /v1/billing/check`: `amount` ≥ 0 (default 1). */
export const billingCheckBody = z.object({
  resource,
  amount: z
    .number({ error: "amount must be a number ≥ 0" })
    .min(0, "amount must be ≥ 0")
    .refine(Number.isFinite, "amount must be finite")
    .default(1),
});

const availableQuery = z.object({ resource });

export class BillingService {
  /** Whether the allowance counts requests in this ledger itself (a plan allowance from `storePlanAllowance`). */
  private readonly countedByAllowance: boolean;

  constructor(
    private readonly store: PlatformStore,
    readonly ledger: BillingLedger,
    /** What is enforced: the plan allowance over `ledger`, or another (unlimited for a library user). */
    private readonly allowance: Allowance,
  ) {
    this.countedByAllowance = "ledger" in allowance && allowance.ledger === ledger;
  }

  tier(principal: Principal): TierView {
    return this.ledger.tier(principal.plan);
  }

  tiers(): BillingTier[] {
    return this.ledger.tiers();
  }

  async limits(principal: Principal): Promise<{ plan: Principal["plan"]; limits: LimitStatus[] }> {
    return {
      plan: principal.plan,
      limits: await this.ledger.limits(principal.organizationId, principal.plan),
    };
  }

  /** `GET /v1/billing/available?resource=`. */
  async available(
    principal: Principal,
    query: Record<string, string | undefined>,
  ): Promise<{ resource: BillingResource; available: boolean }> {
    const { resource } = validate(availableQuery, query);
    return {
      resource,
      available: await this.ledger.available(principal.organizationId, principal.plan, resource),
    };
  }

  /** `POST /v1/billing/check`. */
  async check(principal: Principal, raw: unknown): Promise<CheckResult> {
    const body = validate(billingCheckBody, raw);
    return await this.ledger.check(principal.organizationId, principal.plan, body.resource, body.amount);
  }

  /** Counts one `/v1` request of the caller's organization; a 429 when the plan's rate is used up and enforced. */
  admitRequest(principal: Principal): MaybePromise<void> {
    const enforced = this.allowance.admitRequest?.(principal);
    if (this.countedByAllowance) return enforced;
    // Counted for the report even when nothing is enforced.
    const count = () => this.ledger.admitRequest(principal.organizationId, principal.plan, false);
    return enforced instanceof Promise ? enforced.then(count) : count();
  }

  /** Adds converted pages to the organization's current month. */
  async recordPages(organizationId: string, pages: number): Promise<void> {
    await this.store.billing.recordPages(organizationId, monthWindow(this.ledger.clock.now()).start, pages);
  }
}
