/**
 * What built-in calls cost against the plan (EUR per million input tokens, spec
 * document 1 "Embeddings"). BYOK calls are never charged. Chat prices of the
 * built-in upstream are not in the spec: they are configured per deployment
 * (GatewayOptions.chatPrices) and default to zero — tokens are still recorded.
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
