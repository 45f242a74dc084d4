/**
 * The gateway's bookkeeping: one usage event per call (tokens, cost, latency,
 * outcome). BYOK calls are recorded at no cost: the organization pays its own
 * provider. Whether usage is left is the allowance's question (plan-allowance.ts).
 */
import { type ChatRequest, estimateTokens, type UsageEvent, type UsageSurface } from "@groundwork/core";
import type { CallContext, GatewayOptions, UsageMeter } from "./ports.js";
import { costEur, type TokenPrice } from "./pricing.js";

export interface MeteredCall {
  model: string;
  surface: UsageSurface;
  byok: boolean;
  /** performance.now() at the start of the call. */
  started: number;
  outcome: UsageEvent["outcome"];
  endUser: string | undefined;
  price?: TokenPrice | undefined;
}

export interface Tokens {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number | null;
}

export class UsageMetering {
  private readonly usage: UsageMeter;
  private readonly chatPrices: Readonly<Record<string, TokenPrice>> | undefined;

  constructor(options: Pick<GatewayOptions, "usage" | "chatPrices">) {
    this.usage = options.usage;
    this.chatPrices = options.chatPrices;
  }

  /** Records the call; answers its cost (EUR) for the call's span. */
  async record(context: CallContext, call: MeteredCall, tokens: Tokens): Promise<number> {
    const price = call.price ?? this.chatPrices?.[call.model];
    const cost = call.byok ? 0 : costEur(price, tokens);
    await this.usage.record({
      organizationId: context.principal.organizationId,
      apiKeyId: context.principal.apiKeyId,
      model: call.model,
      surface: call.surface,
      byok: call.byok,
      ...tokens,
      costEur: cost,
      latencyMs: Math.round((performance.now() - call.started) * 100) / 100,
      outcome: call.outcome,
      endUser: call.endUser ?? null,
    });
    return cost;
  }
}

/** How a failed call is recorded: aborted when the caller gave up, an error otherwise. */
export function outcomeOf(context: CallContext): UsageEvent["outcome"] {
  return context.signal?.aborted === true ? "aborted" : "error";
}

/** Prompt tokens of a request by estimate, for calls whose upstream reported no usage. */
export function estimateRequestTokens(request: ChatRequest): number {
  let tokens = 0;
  for (const message of request.messages) {
    if (typeof message.content === "string") tokens += estimateTokens(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === "text") tokens += estimateTokens(part.text);
    }
  }
  return tokens;
}
