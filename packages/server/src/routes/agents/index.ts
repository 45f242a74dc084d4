/**
 * Agents (spec document 3): management routes under `/v1/agents`. Agent runs arrive
 * through `POST /v1/responses` with an `agent/…` model (see gateway/responses.ts) and
 * run in the platform (`Groundwork.respondWithAgent`).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";
import { registerAgentManagementRoutes } from "./management-routes.js";
import { registerToolCatalogRoutes } from "./tool-catalog-routes.js";

export function registerAgentRoutes(app: Hono<AppEnv>): void {
  registerAgentManagementRoutes(app);
  registerToolCatalogRoutes(app);
}
