/**
 * An organization's provider accounts (spec document 1, "Providers"): validated
 * against their kind's config table, keys stored encrypted by the store and never
 * handed back, connections tested and model lists read through the gateway's
 * adapters. Whether an organization may use providers at all is the allowance's
 * and the HTTP guards' business, not this service's.
 */
import { invalidRequest, notFound, type PageRequest } from "@groundwork/core";
import {
  type Gateway,
  PROVIDER_KINDS,
  parseProviderType,
  validateProviderApiKey,
  validateProviderConfig,
} from "@groundwork/gateway";
import type { ProviderRecord } from "@groundwork/store-sqlite";
import type { PlatformStore } from "../store-port.js";
import { toProviderAccount } from "./store-gateway.js";

/** How long a connection test or model listing may take per provider. */
const LIST_TIMEOUT_MS = 15_000;

export interface ProviderInput {
  name: string;
  /** The provider kind (`HOSTED_A`, `CLOUD_A`, …). */
  provider: string;
  apiKey?: string | undefined;
  config: unknown;
}

export interface ProviderChanges {
  name?: string | undefined;
  provider?: string | undefined;
  apiKey?: string | undefined;
  config?: unknown;
}

export interface ConnectionTest {
  success: boolean;
  message: string;
  models: string[];
}

export interface ProviderModels {
  providerId: string;
  provider: string;
  /** `<prefix>/<model>` strings, ready for the gateway. */
  models: string[];
  error: string | null;
}

export class ProviderService {
  constructor(
    private readonly store: PlatformStore,
    private readonly gateway: Gateway,
  ) {}

  async create(organizationId: string, input: ProviderInput): Promise<ProviderRecord> {
    const type = parseProviderType(input.provider);
    const config = validateProviderConfig(type, input.config);
    const apiKey = validateProviderApiKey(type, input.apiKey);
    return await this.store.providers.create({
      organizationId,
      name: input.name,
      type,
      config: { ...config },
      apiKey,
    });
  }

  async list(organizationId: string, page: PageRequest): Promise<{ items: ProviderRecord[]; total: number }> {
    const all = await this.store.providers.list(organizationId);
    return { items: all.slice(page.page * page.size, (page.page + 1) * page.size), total: all.length };
  }

  async get(organizationId: string, providerId: string): Promise<ProviderRecord> {
    const record = await this.store.providers.get(organizationId, providerId);
    if (record === null) throw notFound(`No provider ${providerId}`, { param: "id" });
    return record;
  }

  async update(
    organizationId: string,
    providerId: string,
    changes: ProviderChanges,
  ): Promise<ProviderRecord> {
    const current = await this.get(organizationId, providerId);
    const type = parseProviderType(current.type);
    if (changes.provider !== undefined && changes.provider !== current.type) {
      throw invalidRequest(
        `The provider type cannot change (it is ${current.type}); create a new provider instead`,
        { param: "provider" },
      );
    }
    if (changes.apiKey !== undefined) validateProviderApiKey(type, changes.apiKey);
    const updated = await this.store.providers.update(organizationId, current.id, {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.config === undefined
        ? {}
        : { config: { ...validateProviderConfig(type, changes.config) } }),
      ...(changes.apiKey === undefined ? {} : { apiKey: changes.apiKey }),
    });
    if (updated === null) throw notFound(`No provider ${current.id}`, { param: "id" });
    return updated;
  }

  async delete(organizationId: string, providerId: string): Promise<void> {
    if (!(await this.store.providers.delete(organizationId, providerId))) {
      throw notFound(`No provider ${providerId}`, { param: "id" });
    }
  }

  /** Connects with a configuration that is not stored; a refusal is an answer (`success: false`), not an error. */
  async test(input: Omit<ProviderInput, "name">, signal?: AbortSignal): Promise<ConnectionTest> {
    const type = parseProviderType(input.provider);
    const config = validateProviderConfig(type, input.config);
    const apiKey = validateProviderApiKey(type, input.apiKey);
    const limit = AbortSignal.timeout(LIST_TIMEOUT_MS);
    try {
      const models = await this.gateway
        .adapterFor({ id: "test", name: "test", type, config, apiKey })
        .listModels({ signal: signal === undefined ? limit : AbortSignal.any([signal, limit]) });
      return { success: true, message: `Connected; ${models.length} models found`, models };
    } catch (error) {
      return { success: false, message: error instanceof Error ? error.message : String(error), models: [] };
    }
  }

  /** Every provider's models; one that cannot be reached reports its error and hides no other. */
  async models(organizationId: string): Promise<ProviderModels[]> {
    const entries = await Promise.all(
      (await this.store.providers.list(organizationId)).map(
        async (record): Promise<ProviderModels | null> => {
          const found = await this.store.providers.getWithCredentials(organizationId, record.id);
          if (found === null) return null;
          const account = toProviderAccount(found.record, found.apiKey);
          const prefix = PROVIDER_KINDS[account.type].prefix;
          try {
            const ids = await this.gateway
              .adapterFor(account)
              .listModels({ signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
            return {
              providerId: record.id,
              provider: record.type,
              models: ids.map((id) => `${prefix}/${id}`),
              error: null,
            };
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            return { providerId: record.id, provider: record.type, models: [], error: message };
          }
        },
      ),
    );
    return entries.filter((entry) => entry !== null);
  }
}
