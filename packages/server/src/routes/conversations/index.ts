/**
 * Conversations (PLATFORM.md §2.3): the routes parse and render; the rules (ownership,
 * validation, cancel) live in the platform's conversation service.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import { conversationCancelBody, conversationCreateBody, conversationUpdateBody } from "@groundwork/platform";
import type { Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { renderConversation, renderItem, renderSummary } from "./render.js";

export function registerConversationRoutes(app: Hono<AppEnv>): void {
  app.post("/v1/conversations", async (c) => {
    const body = await readBody(c, conversationCreateBody);
    return c.json(
      renderConversation(await c.var.groundwork.conversations.create(c.var.principal, body)),
      201,
    );
  });

  app.get("/v1/conversations", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.conversations.list(c.var.principal, c.req.query(), page);
    return c.json(toPage(items.map(renderConversation), page, total));
  });

  app.get("/v1/conversations/:conversationId", async (c) =>
    c.json(
      renderConversation(
        await c.var.groundwork.conversations.get(c.var.principal, c.req.param("conversationId")),
      ),
    ),
  );

  app.patch("/v1/conversations/:conversationId", async (c) => {
    const body = await readBody(c, conversationUpdateBody);
    return c.json(
      renderConversation(
        await c.var.groundwork.conversations.update(c.var.principal, c.req.param("conversationId"), body),
      ),
    );
  });

  app.delete("/v1/conversations/:conversationId", async (c) => {
    await c.var.groundwork.conversations.delete(c.var.principal, c.req.param("conversationId"));
    return c.body(null, 204);
  });

  app.get("/v1/conversations/:conversationId/summary", async (c) =>
    c.json(
      renderSummary(
        await c.var.groundwork.conversations.summary(c.var.principal, c.req.param("conversationId")),
      ),
    ),
  );

  app.post("/v1/conversations/:conversationId/cancel", async (c) => {
    // The body is optional: an empty one cancels without a reason.
    const empty = (await c.req.raw.clone().text()).trim() === "";
    const body = empty ? {} : await readBody(c, conversationCancelBody);
    return c.json(
      await c.var.groundwork.conversations.cancel(c.var.principal, c.req.param("conversationId"), body),
    );
  });

  app.get("/v1/conversations/:conversationId/items", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.conversations.items(
      c.var.principal,
      c.req.param("conversationId"),
      c.req.query(),
      page,
    );
    return c.json(toPage(items.map(renderItem), page, total));
  });
}
