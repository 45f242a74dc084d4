/**
 * Connectors (PLATFORM.md §5.3): registration for Admins; every role manages its own
 * connection and allowances and answers its runs' questions. The rules live in the
 * platform's connector service; these routes parse and render.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import type { Hono } from "hono";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { readBodyText } from "../../http/node-request.js";
import { renderConnection, renderConnector, renderInputRequest } from "./render.js";

export function registerConnectorRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/connectors", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.connectors.list(c.var.principal.organizationId, page);
    return c.json(toPage(items.map(renderConnector), page, total));
  });

  app.post("/v1/connectors", requireRole("admin"), async (c) => {
    const connector = await c.var.groundwork.connectors.create(
      c.var.principal.organizationId,
      await readJson(c),
    );
    return c.json(renderConnector(connector), 201);
  });

  app.get("/v1/connectors/:connectorId", async (c) =>
    c.json(
      renderConnector(
        await c.var.groundwork.connectors.get(c.var.principal.organizationId, c.req.param("connectorId")),
      ),
    ),
  );

  app.patch("/v1/connectors/:connectorId", requireRole("admin"), async (c) => {
    const connector = await c.var.groundwork.connectors.update(
      c.var.principal.organizationId,
      c.req.param("connectorId"),
      await readJson(c),
    );
    return c.json(renderConnector(connector));
  });

  app.delete("/v1/connectors/:connectorId", requireRole("admin"), async (c) => {
    await c.var.groundwork.connectors.delete(c.var.principal.organizationId, c.req.param("connectorId"));
    return c.body(null, 204);
  });

  app.get("/v1/connectors/:connectorId/connection", async (c) =>
    c.json(
      renderConnection(
        await c.var.groundwork.connectors.connection(c.var.principal, c.req.param("connectorId")),
      ),
    ),
  );

  app.put("/v1/connectors/:connectorId/connection", async (c) => {
    const view = await c.var.groundwork.connectors.connect(
      c.var.principal,
      c.req.param("connectorId"),
      await readJson(c),
    );
    return c.json(renderConnection(view));
  });

  app.delete("/v1/connectors/:connectorId/connection", async (c) => {
    await c.var.groundwork.connectors.disconnect(c.var.principal, c.req.param("connectorId"));
    return c.body(null, 204);
  });

  app.put("/v1/connectors/:connectorId/allowances/:agentId", async (c) => {
    // The body is optional: `{destinations?}`.
    const text = (await readBodyText(c)).trim();
    let body: unknown = {};
    if (text !== "") {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = Symbol.for("invalid");
      }
    }
    const view = await c.var.groundwork.connectors.allow(
      c.var.principal,
      c.req.param("connectorId"),
      c.req.param("agentId"),
      typeof body === "symbol" ? "not json" : body,
    );
    return c.json(renderConnection(view));
  });

  app.delete("/v1/connectors/:connectorId/allowances/:agentId", async (c) => {
    await c.var.groundwork.connectors.disallow(
      c.var.principal,
      c.req.param("connectorId"),
      c.req.param("agentId"),
    );
    return c.body(null, 204);
  });

  app.get("/v1/connector-inputs/:inputRequestId", async (c) =>
    c.json(
      renderInputRequest(
        await c.var.groundwork.connectors.input(c.var.principal, c.req.param("inputRequestId")),
      ),
    ),
  );

  app.post("/v1/connector-inputs/:inputRequestId/answer", async (c) => {
    const input = await c.var.groundwork.connectors.answer(
      c.var.principal,
      c.req.param("inputRequestId"),
      await readJson(c),
    );
    return c.json(renderInputRequest(input));
  });
}
