/** Connects the gateway engine to the store: provider accounts and usage records. */
import type { Plan } from "@groundwork/core";
import {
  Gateway,
  type GatewayOptions,
  isProviderType,
  type PlanAllowanceOptions,
  type ProviderAccount,
  type ProviderConfig,
} from "@groundwork/gateway";
import {
  type BillingAllowance,
  BillingLedger,
  createBillingAllowance,
  type TierOverrides,
} from "@groundwork/observability";
import type { ProviderRecord, Store } from "@groundwork/store-sqlite";
import { storeBillingMeter } from "../billing/billing-service.js";

export function toProviderAccount(record: ProviderRecord, apiKey: string | null): ProviderAccount {
  if (!isProviderType(record.type))
    throw new Error(`Stored provider ${record.id} has unknown type ${record.type}`);
  return {
    id: record.id,
    name: record.name,
    type: record.type,
    config: record.config as ProviderConfig,
    apiKey,
  };
}

export type StoreGatewayOptions = Omit<GatewayOptions, "providers" | "usage"> & {
  /** Included monthly usage per plan (EUR) of the default, plan-based allowance. */
  planAllowanceEur?: PlanAllowanceOptions["planAllowanceEur"];
};

export interface StorePlanAllowanceOptions extends Omit<PlanAllowanceOptions, "usage"> {
  /** Changes to the tier table of PLATFORM.md §15 (a deployment's own plans, a test's small limit). */
  tiers?: TierOverrides;
}

/**
 * The plans' allowance over the store's counters (what the server enforces): BYOK,
 * included usage, pages, storage and requests per minute of PLATFORM.md §15. Its ledger
 * is what `createGroundwork` reports `/v1/billing/*` from when it is passed as `allowance`.
 */
export function storePlanAllowance(store: Store, options: StorePlanAllowanceOptions = {}): BillingAllowance {
  const tiers: TierOverrides = { ...options.tiers };
  if (options.planAllowanceEur !== undefined) {
    for (const [plan, eur] of Object.entries(options.planAllowanceEur) as Array<[Plan, number | null]>) {
      tiers[plan] = { ...tiers[plan], usage_eur: eur };
    }
  }
  return createBillingAllowance(
    new BillingLedger(storeBillingMeter(store), {
      tiers,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    }),
  );
}

/**
 * A gateway over the store's provider accounts and usage records. Unless told
 * otherwise it enforces the plans, as the server does.
 */
export function createStoreGateway(store: Store, options: StoreGatewayOptions = { builtin: null }): Gateway {
  const { planAllowanceEur, ...gatewayOptions } = options;
  return new Gateway({
    ...gatewayOptions,
    allowance:
      options.allowance ??
      storePlanAllowance(store, {
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        ...(planAllowanceEur === undefined ? {} : { planAllowanceEur }),
      }),
    providers: {
      find(organizationId, type) {
        const found = store.providers.findWithCredentials(organizationId, type);
        return found === null ? null : toProviderAccount(found.record, found.apiKey);
      },
      list(organizationId) {
        return store.providers.list(organizationId).flatMap((record) => {
          const found = store.providers.getWithCredentials(organizationId, record.id);
          return found === null ? [] : [toProviderAccount(found.record, found.apiKey)];
        });
      },
    },
    usage: {
      record: (event) => {
        store.usage.record(event);
      },
      chargedSince: (organizationId, since) => store.usage.chargedSince(organizationId, since),
    },
  });
}
