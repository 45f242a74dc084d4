/**
 * Routing a parsed model string to the adapter that serves it. A built-in name
 * goes to the built-in upstream once the allowance has usage left; a
 * `<prefix>/<model>` goes to the organization's own provider account once the
 * allowance, the account and the kind's capabilities are checked, holding one BYOK
 * concurrency slot for the whole call. (The in-process hash embedding needs no
 * adapter: the gateway serves it before routing.)
 */
import {
  type Allowance,
  billingRequired,
  invalidRequest,
  type MaybePromise,
  notFound,
  type Principal,
  serviceUnavailable,
  UNLIMITED_ALLOWANCE,
} from "@groundwork/core";
import type { ProviderAdapter } from "./adapter.js";
import { createProviderAdapter } from "./adapters/create-provider-adapter.js";
import { createOpenAICompatibleAdapter } from "./adapters/openai-compatible-adapter.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";
import type { ModelRoute } from "./model-string.js";
import type { GatewayOptions, ProviderAccount } from "./ports.js";
import type { ProviderKind } from "./provider-kinds.js";

export const DEFAULT_BYOK_CONCURRENCY = 16;

/** Provider-account adapters kept for reuse (one per organization and provider kind in practice). */
const ACCOUNT_ADAPTER_LIMIT = 256;

/** The adapter a call goes to, and what it holds while it runs. */
export interface Target {
  adapter: ProviderAdapter;
  byok: boolean;
  kind: ProviderKind | null;
  /** Frees the BYOK concurrency slot (a no-op for built-in calls). */
  release: () => void;
}

export class TargetResolver {
  /** The adapter of the built-in upstream; null when none is configured. */
  readonly builtin: ProviderAdapter | null;
  private readonly limiter: ConcurrencyLimiter;
  /**
   * Adapters of provider accounts, reused across calls: building an SDK client per
   * call was wasted work. Keyed by everything the adapter is built from, so a
   * changed config or key builds a new one; the oldest entry goes past the bound.
   */
  private readonly accountAdapters = new Map<string, ProviderAdapter>();

  readonly allowance: Allowance;

  constructor(private readonly options: GatewayOptions) {
    this.allowance = options.allowance ?? UNLIMITED_ALLOWANCE;
    this.limiter = new ConcurrencyLimiter(
      options.byokConcurrency ?? DEFAULT_BYOK_CONCURRENCY,
      ...(options.concurrencySlots === undefined ? [] : [options.concurrencySlots]),
    );
    this.builtin =
      options.builtin === null
        ? null
        : createOpenAICompatibleAdapter({
            provider: "the built-in model service",
            baseUrl: options.builtin.baseUrl,
            apiKey: options.builtin.apiKey,
            embeddings: true,
            ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
            ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          });
  }

  /** Current BYOK calls in flight for an organization. */
  inFlight(organizationId: string): MaybePromise<number> {
    return this.limiter.inUse(organizationId);
  }

  /** Builds the adapter of one account afresh. */
  adapterFor(account: ProviderAccount): ProviderAdapter {
    return (this.options.adapterFor ?? ((a, f) => createProviderAdapter(a, f, this.options.timeoutMs)))(
      account,
      this.options.fetch,
    );
  }

  /** The target of a call; a BYOK target holds a concurrency slot until `release` is called. */
  async resolve(route: ModelRoute, principal: Principal, use: "chat" | "embeddings"): Promise<Target> {
    if (route.kind === "builtin") {
      if (this.builtin === null) {
        throw serviceUnavailable(
          `Built-in model "${route.model}" is unavailable: no built-in model service is configured (set ${this.options.builtinSetting ?? "one up"}, or use <prefix>/<model> with your own provider)`,
        );
      }
      const checked = this.allowance.checkUsage(principal);
      if (checked !== undefined) await checked;
      return { adapter: this.builtin, byok: false, kind: null, release: () => {} };
    }
    const kind = route.provider;
    if (!kind.configurable) {
      throw invalidRequest(`${kind.prefix} is recognised but no call routed to it can succeed`, {
        param: "model",
        code: "provider_not_supported",
      });
    }
    const refusal = this.allowance.ownProvidersRefusal(principal);
    if (refusal !== null) throw billingRequired(`Models of your own providers (${kind.prefix}/…) ${refusal}`);
    const account = await this.options.providers.find(principal.organizationId, kind.type);
    if (account === null) {
      throw notFound(
        `No ${kind.type} provider is configured for this organization; add one to use ${kind.prefix}/… models`,
        { param: "model" },
      );
    }
    if (use === "embeddings" && !kind.embeddings) {
      throw invalidRequest(`${kind.prefix} serves no embeddings`, {
        param: "model",
        code: "model_not_supported",
      });
    }
    const release = await this.limiter.acquire(principal.organizationId);
    try {
      return { adapter: this.reusableAdapterFor(account), byok: true, kind, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  private reusableAdapterFor(account: ProviderAccount): ProviderAdapter {
    const key = [account.id, account.type, JSON.stringify(account.config), account.apiKey ?? ""].join(
      "\u0000",
    );
    let adapter = this.accountAdapters.get(key);
    if (adapter === undefined) {
      adapter = this.adapterFor(account);
      if (this.accountAdapters.size >= ACCOUNT_ADAPTER_LIMIT) {
        const oldest = this.accountAdapters.keys().next().value;
        if (oldest !== undefined) this.accountAdapters.delete(oldest);
      }
      this.accountAdapters.set(key, adapter);
    }
    return adapter;
  }
}
