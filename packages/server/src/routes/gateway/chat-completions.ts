import { chatRequestSchema, type Gateway } from "@groundwork/gateway";
import type { Hono } from "hono";
import { readJson, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { clientSignal } from "../../http/node-request.js";
import { sse } from "./sse.js";

export function registerChatCompletions(app: Hono<AppEnv>, gateway: Gateway): void {
  app.post("/v1/chat/completions", requireRole("member"), async (c) => {
    const body = validate(chatRequestSchema, await readJson(c));
    const context = { principal: c.var.principal, signal: clientSignal(c) };
    if (body.stream === true) {
      const chunks = await gateway.openChatStream(body, context);
      return sse(c, chunks, {
        done: true,
        onError: (error) =>
          c.var.logger.warn("stream ended with an error", {
            requestId: c.var.requestId,
            error: String(error),
          }),
      });
    }
    return c.json(await gateway.chat(body, context));
  });
}
