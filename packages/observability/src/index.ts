/**
 * @groundwork/observability: tracing (OpenTelemetry GenAI spans), analytics and billing
 * as pure engines over ports; the platform package composes them with the store.
 */

export { gatewaySpanAttributes, withGatewaySpanAttributes } from "./tracing/gateway-span-context.js";
export {
  CONTENT_ATTRIBUTE_LIMIT,
  GEN_AI,
  GROUNDWORK,
  type TraceKind,
} from "./tracing/gen-ai-attributes.js";
export { GLOBAL_TRACE_HOOKS, type TraceHooks } from "./tracing/trace-hooks.js";
