/**
 * An organization's billing account (PLATFORM.md §15): the tier table, the counters a
 * meter reads, and the decisions over them — what `/v1/billing/*` reports and what the
 * plan allowance enforces, so the two never disagree.
 */
import {
  type Allowance,
  billingRequired,
  type Clock,
  type GroundworkError,
  type MaybePromise,
  PLANS,
  type Plan,
  type Principal,
  type RequestCounter,
  rateLimited,
  systemClock,
} from "@groundwork/core";
import { decide } from "./billing-decision.js";
import { minuteWindow, monthWindow, secondsToNextMinute } from "./billing-period.js";
import {
  BILLING_RESOURCE_INFO,
  BILLING_RESOURCES,
  type BillingReason,
  type BillingResource,
  type BillingTier,
  type BillingUnit,
  resolveTiers,
  type TierOverrides,
} from "./billing-tiers.js";
import { RequestWindow } from "./request-window.js";

/** The counters of §15 "Usage counters", read from wherever usage is recorded. */
export interface BillingMeter {
  /** The organization's plan; null when it does not exist. */
  planOf(organizationId: string): MaybePromise<Plan | null>;
  /** EUR charged for built-in model calls since `since` (epoch ms). */
  chargedSince(organizationId: string, since: number): MaybePromise<number>;
  /** Pages converted since `since` (epoch ms). */
  pagesSince(organizationId: string, since: number): MaybePromise<number>;
  /** Bytes stored now: files, knowledge uploads, skills, plugins (not memory, which has its own quota). */
  storedBytes(organizationId: string): MaybePromise<number>;
  /** Unrevoked API keys. */
  activeKeys(organizationId: string): MaybePromise<number>;
}

export interface BillingLedgerOptions {
  /** Changes to the §15 table (field by field per plan). */
  tiers?: TierOverrides;
  clock?: Clock;
  /**
   * Where requests per minute are counted; by default in this process. Several processes on
   * one database pass a shared counter (`PostgresRequestCounter`), so the rate holds across them.
   */
  requests?: RequestCounter;
}

export interface TierView extends BillingTier {
  /** Epoch ms of the current UTC month's start. */
  periodStart: number;
  /** Epoch ms of the next month's start (exclusive). */
  periodEnd: number;
}

export interface LimitStatus {
  resource: BillingResource;
  unit: BillingUnit;
  limit: number | boolean | null;
  /** The counter; null for the `byok` feature. */
  used: number | null;
  remaining: number | null;
  /** Epoch ms when the counter starts again; null for levels (storage, seats) and features. */
  resetsAt: number | null;
}

export interface CheckResult {
  allowed: boolean;
  reason: BillingReason | null;
  remaining: number | null;
  resetsAt: number | null;
}

const MESSAGES: Readonly<Record<BillingReason, string>> = {
  usage_exhausted: "The organization's included usage for this month is used up",
  pages_exhausted: "The organization's converted pages for this month are used up",
  storage_exhausted: "The organization's stored bytes would exceed its plan",
  rate_limit_exceeded: "Too many requests for the organization in this minute",
  seats_exhausted: "The organization has as many active API keys as its plan allows",
  plan_required: "Models of the organization's own providers need the Team, Business or Enterprise plan",
};

export class BillingLedger {
  readonly tierTable: Readonly<Record<Plan, BillingTier>>;
  readonly clock: Clock;
  private readonly requests: RequestCounter;

  constructor(
    private readonly meter: BillingMeter,
    options: BillingLedgerOptions = {},
  ) {
    this.tierTable = resolveTiers(options.tiers);
    this.clock = options.clock ?? systemClock;
    this.requests = options.requests ?? new RequestWindow();
  }

  /** `GET /v1/billing/tier`: the plan's tier and the current period. */
  tier(plan: Plan): TierView {
    const month = monthWindow(this.clock.now());
    return { ...this.tierTable[plan], periodStart: month.start, periodEnd: month.end };
  }

  /** `GET /v1/billing/tiers`: every tier in plan order. */
  tiers(): BillingTier[] {
    return PLANS.map((plan) => this.tierTable[plan]);
  }

  /** One resource's limit, counter and reset for the organization. */
  async status(organizationId: string, plan: Plan, resource: BillingResource): Promise<LimitStatus> {
    const now = this.clock.now();
    const info = BILLING_RESOURCE_INFO[resource];
    const limit = this.tierTable[plan].limits[resource];
    const used = resource === "byok" ? null : await this.used(organizationId, resource, now);
    return {
      resource,
      unit: info.unit,
      limit,
      used,
      remaining: decide(limit, used ?? 0, 0).remaining,
      resetsAt:
        info.period === "month"
          ? monthWindow(now).end
          : info.period === "minute"
            ? minuteWindow(now).end
            : null,
    };
  }

  /** `GET /v1/billing/limits`: every resource in §15's order. */
  async limits(organizationId: string, plan: Plan): Promise<LimitStatus[]> {
    return await Promise.all(
      BILLING_RESOURCES.map((resource) => this.status(organizationId, plan, resource)),
    );
  }

  /** `GET /v1/billing/available`: something remains, or it is unlimited, or the feature is included. */
  async available(organizationId: string, plan: Plan, resource: BillingResource): Promise<boolean> {
    const { remaining } = await this.status(organizationId, plan, resource);
    const limit = this.tierTable[plan].limits[resource];
    return limit === false ? false : remaining === null || remaining > 0;
  }

  /** `POST /v1/billing/check`: whether `amount` more fits (`remaining` is before the amount). */
  async check(
    organizationId: string,
    plan: Plan,
    resource: BillingResource,
    amount: number,
  ): Promise<CheckResult> {
    const status = await this.status(organizationId, plan, resource);
    const decision = decide(status.limit, status.used ?? 0, amount);
    return {
      allowed: decision.allowed,
      reason: decision.allowed ? null : BILLING_RESOURCE_INFO[resource].reason,
      remaining: decision.remaining,
      resetsAt: status.resetsAt,
    };
  }

  /**
   * Counts one `/v1` request; `enforce` refuses it (429, not counted) when the minute's limit is
   * reached. Answers (and throws) at once when the counter does, as the in-process one does.
   */
  admitRequest(organizationId: string, plan: Plan, enforce: boolean): MaybePromise<void> {
    const now = this.clock.now();
    const limit = enforce ? this.tierTable[plan].limits.requests_per_minute : null;
    const refuseWhenFull = (count: number | null): void => {
      if (count === null) {
        throw rateLimited(
          `${MESSAGES.rate_limit_exceeded}: the ${plan} plan allows ${limit} requests per minute`,
          secondsToNextMinute(now),
        );
      }
    };
    const admitted = this.requests.admit(organizationId, minuteWindow(now).start, limit);
    if (!(admitted instanceof Promise)) return refuseWhenFull(admitted);
    // Without a limit nothing can be refused: a shared count (a database round trip) is for the
    // reports only and stays off the request's path; a count that fails is one request unreported.
    if (limit === null) {
      admitted.catch(() => {});
      return;
    }
    return admitted.then(refuseWhenFull);
  }

  /** A 402 when `amount` more of a metered resource does not fit the plan; null when it does. */
  async refusal(
    organizationId: string,
    plan: Plan,
    resource: BillingResource,
    amount: number,
  ): Promise<GroundworkError | null> {
    const result = await this.check(organizationId, plan, resource, amount);
    if (result.allowed) return null;
    const limit = this.tierTable[plan].limits[resource];
    return billingRequired(
      `${MESSAGES[result.reason ?? "plan_required"]} (${limit} ${BILLING_RESOURCE_INFO[resource].unit} on the ${plan} plan)`,
      {
        code: result.reason ?? "plan_required",
      },
    );
  }

  private used(
    organizationId: string,
    resource: Exclude<BillingResource, "byok">,
    now: number,
  ): MaybePromise<number> {
    switch (resource) {
      case "usage_eur":
        return this.meter.chargedSince(organizationId, monthWindow(now).start);
      case "pages":
        return this.meter.pagesSince(organizationId, monthWindow(now).start);
      case "storage_bytes":
        return this.meter.storedBytes(organizationId);
      case "requests_per_minute":
        return this.requests.count(organizationId, minuteWindow(now).start);
      case "seats":
        return this.meter.activeKeys(organizationId);
    }
  }

  planOf(organizationId: string): MaybePromise<Plan | null> {
    return this.meter.planOf(organizationId);
  }
}

/** The plan allowance over a ledger: what the platform's services ask before gated or billed work. */
export interface BillingAllowance extends Required<Allowance> {
  readonly ledger: BillingLedger;
}

/**
 * Enforces the tiers (PLATFORM.md §15): BYOK needs Team or higher (`402 plan_required`
 * message), built-in calls stop once the month's usage is used up (`usage_exhausted`: the
 * next call would start beyond it), conversions and storage refuse what does not fit
 * (`pages_exhausted`, `storage_exhausted`), requests beyond the minute's rate get a 429.
 */
export function createBillingAllowance(ledger: BillingLedger): BillingAllowance {
  const planOf = async (organizationId: string): Promise<Plan> =>
    (await ledger.planOf(organizationId)) ?? "free";
  const refuse = async (
    organizationId: string,
    plan: Plan,
    resource: BillingResource,
    amount: number,
  ): Promise<void> => {
    const error = await ledger.refusal(organizationId, plan, resource, amount);
    if (error !== null) throw error;
  };
  const checkUsageLeft = async (principal: Principal): Promise<void> => {
    // Any amount left lets the call start: its cost is known only afterwards.
    const status = await ledger.status(principal.organizationId, principal.plan, "usage_eur");
    if (status.remaining !== null && status.remaining <= 0) {
      throw billingRequired(
        `The organization's included usage for this month (${status.limit} EUR on the ${principal.plan} plan) is used up`,
        { code: "usage_exhausted" },
      );
    }
  };
  return {
    ledger,
    ownProvidersRefusal: (principal) =>
      ledger.tierTable[principal.plan].limits.byok
        ? null
        : `need the Team, Business or Enterprise plan; the organization is on ${principal.plan}`,
    checkUsage(principal: Principal) {
      // An unlimited plan has nothing to check: no counter read, no promise, on every model call.
      if (ledger.tierTable[principal.plan].limits.usage_eur === null) return;
      return checkUsageLeft(principal);
    },
    async checkStorage(organizationId, addedBytes) {
      await refuse(organizationId, await planOf(organizationId), "storage_bytes", addedBytes);
    },
    async checkPages(organizationId, pages) {
      await refuse(organizationId, await planOf(organizationId), "pages", pages);
    },
    admitRequest(principal) {
      return ledger.admitRequest(principal.organizationId, principal.plan, true);
    },
  };
}
