import { type Gateway, parseResponsesBody } from "@groundwork/gateway";
import type { Hono } from "hono";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { sseResponse } from "./sse.js";

/**
 * `POST /v1/responses`: direct calls (`<prefix>/<model>` or a built-in name)
 * routed like chat. Streams are typed events (`event: <type>`) that end with
 * `response.completed` or `response.incomplete`; the protocol sends no `[DONE]`.
 */
export function registerResponses(app: Hono<AppEnv>, gateway: Gateway): void {
  app.post("/v1/responses", requireRole("member"), async (c) => {
    const body = parseResponsesBody(await readJson(c));
    const context = { principal: c.var.principal, signal: c.req.raw.signal };
    if (body.stream === true) {
      const events = await gateway.openResponsesStream(body, context);
      return sseResponse(events, {
        eventName: (event) => event.type,
        done: false,
        onError: (error) =>
          c.var.logger.warn("stream ended with an error", {
            requestId: c.var.requestId,
            error: String(error),
          }),
      });
    }
    return c.json(await gateway.responses(body, context));
  });
}
