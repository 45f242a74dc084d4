/**
 * What the gateway is given: the provider directory and usage meter it calls
 * out to (implemented over the store by the server), its options and the
 * context of one call. Kept apart from gateway.ts so that the adapter factory
 * can name a provider account without importing the gateway that uses it.
 */
import type {
  Allowance,
  Cancellation,
  Clock,
  ConcurrencySlots,
  Principal,
  UsageEvent,
} from "@groundwork/core";
import type { TraceHooks } from "@groundwork/observability";
import type { ProviderAdapter } from "./adapter.js";
import type { TokenPrice } from "./pricing.js";
import type { ProviderConfig } from "./provider-config.js";
import type { ProviderType } from "./provider-kinds.js";

/** A provider account with its decrypted key, as the directory hands it out for a call. */
export interface ProviderAccount {
  id: string;
  name: string;
  type: ProviderType;
  config: ProviderConfig;
  apiKey: string | null;
}

/** Where the gateway finds an organization's provider accounts (implemented over the store). */
export interface ProviderDirectory {
  find(organizationId: string, type: ProviderType): ProviderAccount | null | Promise<ProviderAccount | null>;
  list(organizationId: string): ProviderAccount[] | Promise<ProviderAccount[]>;
}

/** Records calls and answers how much an organization was charged (implemented over the store). */
export interface UsageMeter {
  record(event: UsageEvent): void | Promise<void>;
  chargedSince(organizationId: string, since: number): number | Promise<number>;
}

export interface GatewayOptions {
  providers: ProviderDirectory;
  usage: UsageMeter;
  /** The OpenAI-compatible upstream behind built-in model names; null when none is configured. */
  builtin: { baseUrl: string; apiKey: string } | null;
  clock?: Clock;
  /** Used by every SDK client (the hot path's transport). */
  fetch?: typeof fetch;
  /** Concurrent BYOK calls per organization. */
  byokConcurrency?: number;
  /**
   * Where BYOK slots are counted; by default in this process. Several processes on one
   * database pass shared slots (`PostgresConcurrencySlots`), so the limit holds across them.
   */
  concurrencySlots?: ConcurrencySlots;
  /** What each organization may use (plans, included usage); by default everything. */
  allowance?: Allowance;
  /** How the "no built-in model service" error names what to configure. */
  builtinSetting?: string;
  /**
   * Built-in chat prices by model name (`*`: every unlisted chat model); without a table or a
   * matching entry a call costs nothing (tokens are still recorded). See DEFAULT_CHAT_PRICES.
   */
  chatPrices?: Readonly<Record<string, TokenPrice>>;
  /** Builds adapters; tests and embedders may replace it. */
  adapterFor?: (account: ProviderAccount, fetchImpl: typeof globalThis.fetch | undefined) => ProviderAdapter;
  timeoutMs?: number;
  /** Where the `chat {model}` / `embeddings {model}` spans go; by default the global OpenTelemetry provider. */
  traceHooks?: TraceHooks;
}

export interface CallContext {
  principal: Principal;
  signal?: AbortSignal;
  /**
   * The same cancellation as `signal`, cheaper to make: the gateway hands it to its own transport
   * and reads `signal` (made on first read) only for the SDK adapters (HP59).
   */
  cancel?: Cancellation;
  /**
   * The HTTP request's id, for a trace the call starts (`groundwork.request_id`). A caller that
   * opened the ambient request-id context (`withTraceRequestId`) need not pass it; the server's
   * direct model calls pass it here instead, so they run without an AsyncLocalStorage (HP55).
   */
  requestId?: string;
}
