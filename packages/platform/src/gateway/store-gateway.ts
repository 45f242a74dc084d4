/** Connects the gateway engine to the store: provider accounts and usage records. */
import type { Plan, RequestCounter } from "@groundwork/core";
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
import type { ProviderRecord } from "@groundwork/store-sqlite";
import { storeBillingMeter } from "../billing/billing-service.js";
import type { PlatformStore } from "../store-port.js";

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
  /** Where requests per minute are counted; by default in this process (see `BillingLedgerOptions.requests`). */
  requests?: RequestCounter;
}

/**
 * The plans' allowance over the store's counters (what the server enforces): BYOK,
 * included usage, pages, storage and requests per minute of PLATFORM.md §15. Its ledger
 * is what `createGroundwork` reports `/v1/billing/*` from when it is passed as `allowance`.
 */
export function storePlanAllowance(
  store: PlatformStore,
  options: StorePlanAllowanceOptions = {},
): BillingAllowance {
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
      ...(options.requests === undefined ? {} : { requests: options.requests }),
    }),
  );
}

/**
 * A gateway over the store's provider accounts and usage records. Unless told
 * otherwise it enforces the plans, as the server does.
 */
export function createStoreGateway(
  store: PlatformStore,
  options: StoreGatewayOptions = { builtin: null },
): Gateway {
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
      async find(organizationId, type) {
        const found = await store.providers.findWithCredentials(organizationId, type);
        return found === null ? null : toProviderAccount(found.record, found.apiKey);
      },
      async list(organizationId) {
        const accounts: ProviderAccount[] = [];
        for (const record of await store.providers.list(organizationId)) {
          const found = await store.providers.getWithCredentials(organizationId, record.id);
          if (found !== null) accounts.push(toProviderAccount(found.record, found.apiKey));
        }
        return accounts;
      },
    },
    // Straight through: a store that answers at once (SQLite) costs a model call no promise here.
    usage: {
      record: (event) => {
        const recorded = store.usage.record(event);
        return recorded instanceof Promise ? recorded.then(() => undefined) : undefined;
      },
      chargedSince: (organizationId, since) => store.usage.chargedSince(organizationId, since),
    },
  });
}
