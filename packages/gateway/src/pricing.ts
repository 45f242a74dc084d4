/**
 * What built-in calls cost against the plan (EUR per million input tokens, spec
 * document 1 "Embeddings"). BYOK calls are never charged. Chat prices of the
 * built-in upstream are not in the spec: they are configured per deployment
 * (GatewayOptions.chatPrices; the platform defaults to DEFAULT_CHAT_PRICES below,
 * a gateway without a table charges nothing for chat) — tokens are always recorded.
 */
import type { Plan } from "@groundwork/core";
import { includedUsageEur } from "@groundwork/observability";

export interface TokenPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Cache-read price for `cached_tokens`; the input price when absent. */
  cachedInputPerMillion?: number;
}

export const BUILTIN_EMBEDDING_PRICES: Readonly<Record<string, TokenPrice>> = {
  "text-embedding-3-small": { inputPerMillion: 0.0825, outputPerMillion: 0 },
  "text-embedding-3-large": { inputPerMillion: 0.53625, outputPerMillion: 0 },
};

/**
 * The default price table of built-in chat models, EUR per million tokens (PLATFORM.md §15
 * `usage_eur`). The spec prices built-in embeddings at the vendor's USD list price × 4.125
 * (0.02 → 0.0825, 0.13 → 0.53625); the same factor is applied to the vendor's chat list prices.
 * `*` prices every other built-in chat model name. A deployment replaces the whole table
 * (`chatPrices`, `GROUNDWORK_CHAT_PRICES`); `{}` makes built-in chat free again.
 */
export const DEFAULT_CHAT_PRICES: Readonly<Record<string, TokenPrice>> = {
  "gpt-4o": { inputPerMillion: 10.3125, outputPerMillion: 41.25, cachedInputPerMillion: 5.15625 },
  "gpt-4o-mini": { inputPerMillion: 0.61875, outputPerMillion: 2.475, cachedInputPerMillion: 0.309375 },
  "gpt-4.1": { inputPerMillion: 8.25, outputPerMillion: 33, cachedInputPerMillion: 2.0625 },
  "gpt-4.1-mini": { inputPerMillion: 1.65, outputPerMillion: 6.6, cachedInputPerMillion: 0.4125 },
  "gpt-4.1-nano": { inputPerMillion: 0.4125, outputPerMillion: 1.65, cachedInputPerMillion: 0.103125 },
  "*": { inputPerMillion: 1.65, outputPerMillion: 6.6 },
};

/** A built-in chat model's price: its own entry, else the table's `*` entry, else none (free). */
export function chatPriceOf(
  prices: Readonly<Record<string, TokenPrice>> | undefined,
  model: string,
): TokenPrice | undefined {
  if (prices === undefined) return undefined;
  return Object.hasOwn(prices, model) ? prices[model] : prices["*"];
}

/** Included monthly usage per plan in EUR (the `usage_eur` column of PLATFORM.md §15); null is unlimited. */
export const DEFAULT_PLAN_ALLOWANCE_EUR: Readonly<Record<Plan, number | null>> = includedUsageEur();

export function costEur(
  price: TokenPrice | undefined,
  usage: { promptTokens: number; completionTokens: number; cachedTokens: number | null },
): number {
  if (price === undefined) return 0;
  const cached = usage.cachedTokens ?? 0;
  const uncached = usage.promptTokens - cached;
  return (
    (uncached * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      usage.completionTokens * price.outputPerMillion) /
    1_000_000
  );
}

/** Start of the current calendar month (UTC): plan usage resets monthly. */
export function startOfMonthUtc(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}
