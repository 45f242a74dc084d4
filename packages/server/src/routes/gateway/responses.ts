import { roleAllows } from "@groundwork/core";
import { type Gateway, isAgentModel, parseResponsesBody } from "@groundwork/gateway";
import { recordStreamedResponse } from "@groundwork/platform";
import type { Hono } from "hono";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { clientSignal } from "../../http/node-request.js";
import { sse } from "./sse.js";

/**
 * `POST /v1/responses`: direct calls (`<prefix>/<model>` or a built-in name)
 * routed like chat. Streams are typed events (`event: <type>`) that end with
 * `response.completed` or `response.incomplete`; the protocol sends no `[DONE]`.
 * Every answer is stored (PLATFORM.md §2.6): a stream's once it completes.
 */
export function registerResponses(app: Hono<AppEnv>, gateway: Gateway): void {
  // Viewer keys may run published agents (docs/agents.md); direct calls still need Member.
  app.post("/v1/responses", requireRole("viewer"), async (c) => {
    const raw = await readJson(c);
    const model = typeof raw === "object" && raw !== null ? (raw as { model?: unknown }).model : undefined;
    if (typeof model === "string" && isAgentModel(model)) {
      const answer = await c.var.groundwork.respondWithAgent(c.var.principal, raw, clientSignal(c));
      if ("json" in answer) return c.json(answer.json);
      return sse(c, answer.events, {
        eventName: (event) => event.type,
        done: false,
        onError: (error) =>
          c.var.logger.warn("agent stream ended with an error", {
            requestId: c.var.requestId,
            error: String(error),
          }),
      });
    }
    if (!roleAllows(c.var.principal.role, "member")) await requireRole("member")(c, async () => {});
    const body = parseResponsesBody(raw);
    const principal = c.var.principal;
    const context = { principal, signal: clientSignal(c) };
    const stored = c.var.groundwork.responses;
    if (body.stream === true) {
      const events = recordStreamedResponse(
        await gateway.openResponsesStream(body, context),
        "final",
        async (_id, response) => await stored.recordModel(principal, body.input, response),
      );
      return sse(c, events, {
        eventName: (event) => event.type,
        done: false,
        onError: (error) =>
          c.var.logger.warn("stream ended with an error", {
            requestId: c.var.requestId,
            error: String(error),
          }),
      });
    }
    const response = await gateway.responses(body, context);
    await stored.recordModel(principal, body.input, response);
    return c.json(response);
  });
}
