import { chatPriceOf, costEur, parseModelString, type TokenPrice } from "@groundwork/gateway";

/**
 * What the gateway charges for a call (the price its usage records carry): built-in models
 * at the configured price, BYOK never — so summaries and extraction agree with billing.
 */
export function builtinCostEur(
  prices: Readonly<Record<string, TokenPrice>> | undefined,
  model: string,
  usage: { promptTokens: number; completionTokens: number; cachedTokens: number | null },
): number {
  if (parseModelString(model).kind !== "builtin") return 0;
  return costEur(chatPriceOf(prices, model), usage);
}
