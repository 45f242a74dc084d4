/**
 * One span around one piece of work, the way PLATFORM.md §13 wants every Groundwork span:
 * the organization (and, on a root, the trace kind) at start so the sampler knows whose
 * trace it is, an error status with `error.type` when the work throws, ended exactly once.
 * Used by the run engine (`invoke_agent`, `execute_tool`) and the platform services
 * (`extract`, `convert`, `search`).
 */
import { isGroundworkError } from "@groundwork/core";
import {
  CONTENT_ATTRIBUTE_LIMIT,
  GEN_AI,
  GROUNDWORK,
  type TraceHooks,
  type TraceKind,
} from "@groundwork/observability";
import {
  type Attributes,
  context,
  isSpanContextValid,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { cutText } from "../judge.js";

export interface SpanStart {
  organizationId: string;
  /** Set only when the span is a trace's root (no active span): the kind is the trace's, not each span's. */
  kind: TraceKind;
}

/**
 * Runs `fn` inside a new active span (work started in it becomes its children). Only the
 * organization and kind are built up front; `fn` adds the rest after `span.isRecording()`,
 * so tracing that is off (no provider) costs one small object and a no-op span.
 */
export function tracedSpan<T>(
  hooks: TraceHooks,
  name: string,
  start: SpanStart,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = trace.getSpan(context.active());
  const attributes: Attributes =
    parent !== undefined && isSpanContextValid(parent.spanContext())
      ? { [GROUNDWORK.organizationId]: start.organizationId }
      : { [GROUNDWORK.organizationId]: start.organizationId, [GROUNDWORK.traceKind]: start.kind };
  return hooks.tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      markFailed(span, errorTypeOf(error), errorMessageOf(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Error status and `error.type` (a code, never a secret or document text). */
export function markFailed(span: Span, errorType: string, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute(GEN_AI.errorType, errorType);
}

/** The low-cardinality class of an error: a Groundwork error's code, else the OpenTelemetry fallback `_OTHER`. */
export function errorTypeOf(error: unknown): string {
  return isGroundworkError(error) ? error.code : "_OTHER";
}

/**
 * A status message that is safe to store: Groundwork errors carry messages meant for API
 * callers (no credentials, see the gateway's redaction); anything else may carry internals,
 * so only its class is named.
 */
export function errorMessageOf(error: unknown): string {
  if (isGroundworkError(error)) return error.message;
  return error instanceof Error ? `unexpected ${error.name}` : "unexpected error";
}

/**
 * Whether `gen_ai.input.messages` / `gen_ai.output.messages` may be set: the organization
 * captures content and the span is recorded (nothing is serialized for a dropped span).
 */
export function capturesContent(hooks: TraceHooks, span: Span, organizationId: string): boolean {
  return span.isRecording() && hooks.captureContent(organizationId);
}

/** A content attribute value: JSON cut to CONTENT_ATTRIBUTE_LIMIT (never splitting a surrogate pair). */
export function contentAttribute(value: unknown): string {
  return cutText(JSON.stringify(value), CONTENT_ATTRIBUTE_LIMIT);
}

/** One message in the GenAI conventions' shape: `{role, parts: [{type: "text", content}]}`. */
export function textMessage(role: string, text: string): GenAiMessage {
  // Cut first: the attribute is cut anyway, and a long document is never serialized whole.
  return { role, parts: [{ type: "text", content: cutText(text, CONTENT_ATTRIBUTE_LIMIT) }] };
}

export interface GenAiMessage {
  role: string;
  parts: Array<Record<string, unknown>>;
  finish_reason?: string;
}
