/** Connects the gateway engine to the store: provider accounts and usage records. */
import type { Allowance } from "@groundwork/core";
import {
  createPlanAllowance,
  Gateway,
  type GatewayOptions,
  isProviderType,
  type PlanAllowanceOptions,
  type ProviderAccount,
  type ProviderConfig,
} from "@groundwork/gateway";
import type { ProviderRecord, Store } from "@groundwork/store-sqlite";

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

/** The plans' allowance over the store's usage records (what the server enforces). */
export function storePlanAllowance(
  store: Store,
  options: Omit<PlanAllowanceOptions, "usage"> = {},
): Allowance {
  return createPlanAllowance({
    ...options,
    usage: { chargedSince: (organizationId, since) => store.usage.chargedSince(organizationId, since) },
  });
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
