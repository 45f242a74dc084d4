/** Schemas and extractions (spec document 2) on the HTTP surface. */
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";
import { registerExtractionRoutes } from "./extraction-routes.js";
import { registerSchemaRoutes } from "./schema-routes.js";

export function registerExtractRoutes(app: Hono<AppEnv>): void {
  const service = (c: { var: AppEnv["Variables"] }) => c.var.groundwork.extraction;
  registerSchemaRoutes(app);
  registerExtractionRoutes(app, service);
}
