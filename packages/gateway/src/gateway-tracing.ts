/**
 * The gateway's spans (PLATFORM.md §13): `chat {model}` / `embeddings {model}` for every
 * call, streams included (the span ends when the stream does). A call outside any recording
 * span starts its own trace (`groundwork.trace.kind: gateway`); inside an agent's or an
 * extraction's span it is a child. Every attribute is built only when the span records, so
 * an unsampled or untraced call costs one no-op span. Content (`gen_ai.input.messages` /
 * `gen_ai.output.messages`) only when the organization captures it; never a key or header.
 */
import type { ChatCompletion, ChatRequest } from "@groundwork/core";
import {
  CONTENT_ATTRIBUTE_LIMIT,
  GEN_AI,
  GLOBAL_TRACE_HOOKS,
  GROUNDWORK,
  gatewaySpanAttributes,
  type TraceHooks,
} from "@groundwork/observability";
import { type Attributes, context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ModelRoute } from "./model-string.js";

export type GatewayOperation = "chat" | "embeddings";

/** What a finished call reports on its span. */
export interface CallOutcome {
  responseModel?: string | undefined;
  inputTokens: number;
  outputTokens: number;
  costEur: number;
  /** The completion's messages (only read when content is captured). */
  output?: (() => unknown) | undefined;
}

/** `gen_ai.provider.name`: the provider kind's prefix, `groundwork` for built-in models. */
export function providerName(route: ModelRoute): string {
  return route.kind === "builtin" ? "groundwork" : route.provider.prefix;
}

function cut(value: unknown): string {
  const json = JSON.stringify(value) ?? "";
  return json.length > CONTENT_ATTRIBUTE_LIMIT ? json.slice(0, CONTENT_ATTRIBUTE_LIMIT) : json;
}

export class GatewayTracing {
  constructor(private readonly hooks: TraceHooks = GLOBAL_TRACE_HOOKS) {}

  /**
   * Starts the call's span (not made active: the gateway starts nothing beneath it). A call that
   * starts its own trace puts `requestId` on it; inside another span the trace's root has one.
   */
  start(operation: GatewayOperation, model: string, organizationId: string, requestId?: string): Span {
    const parent = trace.getSpan(context.active());
    const attributes: Attributes = { [GROUNDWORK.organizationId]: organizationId };
    // The kind names a trace by its root: only a call outside any recording span is one.
    if (parent === undefined || !parent.isRecording()) {
      attributes[GROUNDWORK.traceKind] = "gateway";
      if (requestId !== undefined) attributes[GROUNDWORK.requestId] = requestId;
    }
    const span = this.hooks.tracer.startSpan(`${operation} ${model}`, { attributes });
    if (!span.isRecording()) return span;
    span.setAttribute(GEN_AI.operationName, operation);
    const extra = gatewaySpanAttributes();
    if (extra !== undefined) span.setAttributes(extra);
    return span;
  }

  /** The routed request: provider, model and (when captured) the input messages. */
  request(
    span: Span,
    route: ModelRoute,
    organizationId: string,
    input?: ChatRequest["messages"] | string[],
  ): void {
    if (!span.isRecording()) return;
    span.setAttribute(GEN_AI.providerName, providerName(route));
    span.setAttribute(GEN_AI.requestModel, route.model);
    if (input !== undefined && this.hooks.captureContent(organizationId)) {
      span.setAttribute(GEN_AI.inputMessages, cut(input));
    }
  }

  /** Ends a call that answered. */
  finish(span: Span, organizationId: string, outcome: CallOutcome): void {
    if (span.isRecording()) {
      if (outcome.responseModel !== undefined) span.setAttribute(GEN_AI.responseModel, outcome.responseModel);
      span.setAttribute(GEN_AI.inputTokens, outcome.inputTokens);
      span.setAttribute(GEN_AI.outputTokens, outcome.outputTokens);
      span.setAttribute(GROUNDWORK.costEur, outcome.costEur);
      if (outcome.output !== undefined && this.hooks.captureContent(organizationId)) {
        span.setAttribute(GEN_AI.outputMessages, cut(outcome.output()));
      }
    }
    span.end();
  }

  /** Ends a call that failed; usage, when the upstream was called, is still reported. */
  fail(span: Span, error: unknown, usage?: Omit<CallOutcome, "output">): void {
    if (span.isRecording()) {
      if (usage !== undefined) {
        span.setAttribute(GEN_AI.inputTokens, usage.inputTokens);
        span.setAttribute(GEN_AI.outputTokens, usage.outputTokens);
        span.setAttribute(GROUNDWORK.costEur, usage.costEur);
      }
      span.setAttribute(GEN_AI.errorType, errorType(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
    span.end();
  }
}

/** `error.type`: the error's code when it has one (`rate_limit_exceeded`, …), else its class name. */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code !== "") return code;
  return error instanceof Error ? error.name : "Error";
}

/** The completion's messages, as `gen_ai.output.messages` shows them. */
export function completionMessages(completion: ChatCompletion): unknown {
  return completion.choices.map((choice) => choice.message);
}
