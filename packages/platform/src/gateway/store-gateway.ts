/** Connects the gateway engine to the store: provider accounts and usage records. */
import {
  Gateway,
  type GatewayOptions,
  isProviderType,
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

export function createStoreGateway(
  store: Store,
  options: Omit<GatewayOptions, "providers" | "usage"> = { builtin: null },
): Gateway {
  return new Gateway({
    ...options,
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
