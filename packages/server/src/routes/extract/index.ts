/** Schemas and extractions (spec document 2) on the HTTP surface. */
import type { Gateway } from "@groundwork/gateway";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";
import { registerExtractionRoutes } from "./extraction-routes.js";
import { extractionServiceFor } from "./extraction-service.js";
import { registerSchemaRoutes } from "./schema-routes.js";

export {
  EXTRACTION_JOB_KIND,
  ExtractionService,
  type ExtractionServiceOptions,
  extractionServiceFor,
  startExtractionWorker,
} from "./extraction-service.js";
export { gatewayChatModel } from "./gateway-chat-model.js";

export function registerExtractRoutes(app: Hono<AppEnv>, gateway: Gateway): void {
  const service = (c: { var: AppEnv["Variables"] }) => extractionServiceFor(c.var.store, gateway);
  registerSchemaRoutes(app, service);
  registerExtractionRoutes(app, service);
}
