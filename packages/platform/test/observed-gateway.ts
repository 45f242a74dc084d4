/**
 * The real gateway, observed: every chat and embeddings call records what its context held
 * (the active span, the gateway span attributes), so a test can tell that the gateway's own
 * spans would be children of the span that called it, and which of them are judge calls.
 */
import type { Gateway } from "@groundwork/gateway";
import { gatewaySpanAttributes } from "@groundwork/observability";
import { type Attributes, trace } from "@opentelemetry/api";

export interface GatewayCall {
  method: "chat" | "embeddings";
  /** The span active when the gateway was called, if any. */
  spanId: string | undefined;
  traceId: string | undefined;
  /** What `withGatewaySpanAttributes` set around the call. */
  extra: Attributes | undefined;
}

export function observeGateway(gateway: Gateway): { gateway: Gateway; calls: GatewayCall[] } {
  const calls: GatewayCall[] = [];
  const record = (method: GatewayCall["method"]) => {
    const span = trace.getActiveSpan()?.spanContext();
    calls.push({ method, spanId: span?.spanId, traceId: span?.traceId, extra: gatewaySpanAttributes() });
  };
  // Delegates to the gateway itself (its prototype): routing, metering and upstream calls stay real.
  const observed = Object.create(gateway, {
    chat: {
      value: (...args: Parameters<Gateway["chat"]>) => {
        record("chat");
        return gateway.chat(...args);
      },
    },
    embeddings: {
      value: (...args: Parameters<Gateway["embeddings"]>) => {
        record("embeddings");
        return gateway.embeddings(...args);
      },
    },
  }) as Gateway;
  return { gateway: observed, calls };
}
