/**
 * The request id of the HTTP request a trace belongs to. The server sets it around each
 * request (one context value, no span); the recorder copies it onto the root span of a
 * trace started inside as `groundwork.request_id`.
 */
import { type Context, context, createContextKey } from "@opentelemetry/api";

const REQUEST_ID = createContextKey("groundwork.request-id");

/** Runs `fn` so that traces started inside it carry `requestId`. */
export function withTraceRequestId<T>(requestId: string, fn: () => T): T {
  return context.with(context.active().setValue(REQUEST_ID, requestId), fn);
}

/** The request id {@link withTraceRequestId} set for `ctx`, if any. */
export function traceRequestId(ctx: Context): string | undefined {
  return ctx.getValue(REQUEST_ID) as string | undefined;
}
