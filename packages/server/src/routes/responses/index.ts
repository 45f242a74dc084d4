/**
 * Stored responses (PLATFORM.md §2.6): `GET /v1/responses/{id}` (the object as answered),
 * `GET /v1/responses/{id}/input_items` and `DELETE /v1/responses/{id}`.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";

export function registerStoredResponseRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/responses/:responseId", async (c) =>
    c.json((await c.var.groundwork.responses.get(c.var.principal, c.req.param("responseId"))) as object),
  );

  app.get("/v1/responses/:responseId/input_items", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.responses.inputItems(
      c.var.principal,
      c.req.param("responseId"),
      c.req.query(),
      page,
    );
    return c.json(toPage(items, page, total));
  });

  app.delete("/v1/responses/:responseId", async (c) => {
    await c.var.groundwork.responses.delete(c.var.principal, c.req.param("responseId"));
    return c.body(null, 204);
  });
}
