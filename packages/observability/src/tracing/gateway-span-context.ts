/**
 * Attributes that the next gateway span started in this context adds. The gateway
 * makes the `chat {model}` / `embeddings {model}` spans; a caller that knows more about
 * the call (the auto-mode judge: `groundwork.judge: true`) says so through the active
 * context instead of the gateway's request shape.
 */
import { type Attributes, context, createContextKey } from "@opentelemetry/api";

const GATEWAY_SPAN_ATTRIBUTES = createContextKey("groundwork.gateway-span-attributes");

/** Runs `fn` so that gateway spans started inside it carry `attributes` too. */
export function withGatewaySpanAttributes<T>(attributes: Attributes, fn: () => T): T {
  return context.with(context.active().setValue(GATEWAY_SPAN_ATTRIBUTES, attributes), fn);
}

/** The attributes {@link withGatewaySpanAttributes} set for the active context, if any. */
export function gatewaySpanAttributes(): Attributes | undefined {
  return context.active().getValue(GATEWAY_SPAN_ATTRIBUTES) as Attributes | undefined;
}
