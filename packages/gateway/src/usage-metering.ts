/**
 * The gateway's bookkeeping: one usage event per call (tokens, cost, latency,
 * outcome). BYOK calls are recorded at no cost: the organization pays its own
 * provider. Whether usage is left is the allowance's question (plan-allowance.ts).
 */
import {
  type ChatRequest,
  estimateTokens,
  internalError,
  isGroundworkError,
  type UsageEvent,
  type UsageSurface,
} from "@groundwork/core";
import { cancellationOf } from "./call-options.js";
import type { CallContext, GatewayOptions, UsageMeter } from "./ports.js";
import { chatPriceOf, costEur, type TokenPrice } from "./pricing.js";

export interface MeteredCall {
  model: string;
  surface: UsageSurface;
  byok: boolean;
  /** performance.now() at the start of the call. */
  started: number;
  outcome: UsageEvent["outcome"];
  endUser: string | undefined;
  price?: TokenPrice | undefined;
  /** What a failed call threw, for the status and code the caller received. */
  failure?: unknown;
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

  /**
   * Records the call; answers its cost (EUR) for the call's span, at once when the meter records
   * at once (no promise per call; callers await only a Promise).
   */
  record(context: CallContext, call: MeteredCall, tokens: Tokens): number | Promise<number> {
    // Chat-shaped calls fall back to the table's `*` price; embeddings and audio only to their own entry.
    const price =
      call.price ??
      (call.surface === "EMBEDDINGS" || call.surface === "AUDIO"
        ? this.chatPrices?.[call.model]
        : chatPriceOf(this.chatPrices, call.model));
    const cost = call.byok ? 0 : costEur(price, tokens);
    // Fields named one by one (spreads made the event's shape differ from call to call).
    const failure = call.outcome === "error" ? failureOf(call.failure) : null;
    const recorded = this.usage.record({
      organizationId: context.principal.organizationId,
      apiKeyId: context.principal.apiKeyId,
      model: call.model,
      surface: call.surface,
      byok: call.byok,
      promptTokens: tokens.promptTokens,
      completionTokens: tokens.completionTokens,
      cachedTokens: tokens.cachedTokens,
      costEur: cost,
      latencyMs: Math.round((performance.now() - call.started) * 100) / 100,
      outcome: call.outcome,
      endUser: call.endUser ?? null,
      errorCode: failure?.errorCode ?? null,
      status: failure?.status ?? null,
    });
    return recorded instanceof Promise ? recorded.then(() => cost) : cost;
  }
}

/**
 * The code and status the caller receives for a failure: a Groundwork error as it is, anything
 * else as the server's generic 500 (server/src/http/errors.ts maps it the same way).
 */
export function failureOf(error: unknown): { errorCode: string; status: number } {
  const mapped = isGroundworkError(error) ? error : internalError();
  return { errorCode: mapped.code, status: mapped.status };
}

/** How a failed call is recorded: aborted when the caller gave up, an error otherwise. */
export function outcomeOf(context: CallContext): UsageEvent["outcome"] {
  return cancellationOf(context)?.aborted === true ? "aborted" : "error";
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
