/**
 * `GET /v1/agents/{agentId}/tool-catalogs` (PLATFORM.md §4.5): the tools a run of a version
 * could see, by catalog, each offered or not (with why) and deferred or not. Viewer reads.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";

const toolCatalogsQuery = z.object({ version: z.string().min(1).max(255).optional() });

export function registerToolCatalogRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/agents/:agentId/tool-catalogs", requireRole("viewer"), async (c) => {
    const { version } = validate(toolCatalogsQuery, c.req.query());
    const result = await c.var.groundwork.toolCatalogs.catalogs(
      c.var.principal,
      c.req.param("agentId"),
      version,
    );
    return c.json(result);
  });
}
