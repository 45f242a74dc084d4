import { chatRequestSchema, completionJson, type Gateway, parseChatRequestFast } from "@groundwork/gateway";
import type { Hono } from "hono";
import { readJson, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { answerJson } from "../../http/node-answer.js";
import { callContext } from "./call-context.js";
import { sse } from "./sse.js";

export function registerChatCompletions(app: Hono<AppEnv>, gateway: Gateway): void {
  app.post("/v1/chat/completions", requireRole("member"), async (c) => {
    const json = await readJson(c);
    // zod runs only on a body the fast check does not take, so its errors and params are unchanged.
    const body = parseChatRequestFast(json) ?? validate(chatRequestSchema, json);
    const context = callContext(c);
    if (body.stream === true) {
      const chunks = await gateway.openChatStream(body, context);
      return sse(c, chunks, {
        // Each event as the upstream wrote it when the gateway changed nothing in it.
        render: completionJson,
        done: true,
        onError: (error) =>
          c.get("logger").warn("stream ended with an error", {
            requestId: c.get("requestId"),
            error: String(error),
          }),
      });
    }
    // The upstream's own bytes when the gateway changed nothing in them (c.json would serialise
    // again), written straight to the Node response (HP50).
    return answerJson(c, await gateway.chatJson(body, context));
  });
}
