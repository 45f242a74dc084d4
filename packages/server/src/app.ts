/**
 * The HTTP app: a `fetch(Request) => Response` handler (Hono). Tests call it with
 * `app.request()`; the Node listener in http-server.ts serves it on a socket.
 */
import { notFound, serviceUnavailable } from "@groundwork/core";
import type { Gateway } from "@groundwork/gateway";
import {
  createGroundwork,
  type Groundwork,
  type PlatformStore,
  storePlanAllowance,
} from "@groundwork/platform";
import { Hono } from "hono";
import { SERVER_SETTING_NAMES } from "./config.js";
import { registerConsole } from "./console/serve-console.js";
import { bearerAuth } from "./http/auth.js";
import type { AppEnv } from "./http/env.js";
import { errorResponse, onError } from "./http/errors.js";
import { MemoRouter } from "./http/memo-router.js";
import { requestBodyLimit } from "./http/node-request.js";
import { requestRateLimit } from "./http/rate-limit.js";
import { requestContext } from "./http/request-context.js";
import { type Logger, silentLogger } from "./logger.js";
import { registerAgentRoutes } from "./routes/agents/index.js";
import { registerAnalyticsRoutes } from "./routes/analytics/index.js";
import { registerAnnotationQueueRoutes } from "./routes/annotation-queues/index.js";
import { registerBillingRoutes } from "./routes/billing/index.js";
import { registerConnectorRoutes } from "./routes/connectors/index.js";
import { registerConversationRoutes } from "./routes/conversations/index.js";
import { registerConvertRoutes } from "./routes/convert/index.js";
import { registerDatasetRoutes } from "./routes/datasets/index.js";
import { registerEvaluatorRoutes } from "./routes/evaluators/index.js";
import { registerExperimentRoutes } from "./routes/experiments/index.js";
import { registerExtractRoutes } from "./routes/extract/index.js";
import { registerFileRoutes } from "./routes/files/index.js";
import { passesRequestId, registerGatewayRoutes } from "./routes/gateway/index.js";
import { hasOwnBodyLimit, registerKnowledgeBaseRoutes } from "./routes/kb/index.js";
import { registerMeRoutes } from "./routes/me/index.js";
import { registerMemoryRoutes } from "./routes/memory/index.js";
import { registerPluginRoutes } from "./routes/plugins/index.js";
import { registerPromptRoutes } from "./routes/prompts/index.js";
import { registerStoredResponseRoutes } from "./routes/responses/index.js";
import { registerScoreRoutes } from "./routes/scores/index.js";
import { registerSkillRoutes } from "./routes/skills/index.js";
import { registerTracingRoutes } from "./routes/tracing/index.js";

export type AppOptions = (
  | {
      /** The platform every route calls. */
      groundwork: Groundwork;
    }
  | {
      /** Without a platform: one over this store with the default config (and `gateway`, if given). */
      store: PlatformStore;
      /** The model gateway; by default one over the store without a built-in model service. */
      gateway?: Gateway;
      /** Whether `gateway` has a built-in model service (for the built-in embedding catalogue); by default not. */
      builtinConfigured?: boolean;
    }
) & {
  logger?: Logger;
  /** Largest request body accepted, in bytes (uploads have their own, larger limits). */
  maxBodyBytes?: number;
  /** Whether `/console/` serves the web console (PLATFORM.md §16; GROUNDWORK_CONSOLE=0 turns it off); default on. */
  console?: boolean;
  /** The built console's folder; by default `@groundwork/console`'s (tests serve a fresh build). */
  consoleDir?: string;
};

export type App = Hono<AppEnv>;

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export function createApp(options: AppOptions): App {
  // Hono's default router, its matches remembered per method and path (HP51).
  const app = new Hono<AppEnv>({ router: new MemoRouter() });
  const logger = options.logger ?? silentLogger;
  const groundwork =
    "groundwork" in options
      ? options.groundwork
      : createGroundwork({
          store: options.store,
          allowance: storePlanAllowance(options.store),
          config: { settingNames: SERVER_SETTING_NAMES },
          ...(options.gateway === undefined ? {} : { gateway: options.gateway }),
          ...(options.builtinConfigured === undefined
            ? {}
            : { builtinEmbeddings: options.builtinConfigured }),
        });
  const store = groundwork.store;

  app.use("*", (c, next) => {
    c.set("groundwork", groundwork);
    c.set("store", store);
    c.set("logger", logger);
    return next();
  });
  app.use("*", requestContext(passesRequestId));
  app.onError(onError);
  app.notFound((c) => errorResponse(c, notFound(`Unknown endpoint ${c.req.method} ${c.req.path}`)));

  app.get("/health", async (c) => {
    try {
      await store.ping();
    } catch {
      // A networked database that does not answer: a 503 a load balancer reads as "not ready".
      throw serviceUnavailable("The database does not answer");
    }
    return c.json({ status: "ok" });
  });

  app.use("/v1/*", bearerAuth());
  app.use("/v1/*", requestRateLimit());
  const appBodyLimit = requestBodyLimit(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  // Knowledge-base uploads set their own, larger limit (104 MB per request).
  app.use("/v1/*", (c, next) => (hasOwnBodyLimit(c.req.method, c.req.path) ? next() : appBodyLimit(c, next)));
  // One gateway for every area, so the BYOK concurrency limit is shared.
  const gateway = groundwork.gateway;
  registerGatewayRoutes(app, gateway);
  registerConvertRoutes(app);
  registerExtractRoutes(app);
  registerKnowledgeBaseRoutes(app);
  registerFileRoutes(app);
  registerAgentRoutes(app);
  registerMeRoutes(app);
  registerMemoryRoutes(app);
  registerConversationRoutes(app);
  registerStoredResponseRoutes(app);
  registerScoreRoutes(app);
  registerEvaluatorRoutes(app);
  registerDatasetRoutes(app);
  registerPromptRoutes(app);
  registerSkillRoutes(app);
  registerPluginRoutes(app);
  registerConnectorRoutes(app);
  registerAnalyticsRoutes(app);
  registerBillingRoutes(app);
  registerAnnotationQueueRoutes(app);
  registerExperimentRoutes(app);
  registerTracingRoutes(app);
  if (options.console !== false) registerConsole(app, options.consoleDir);
  return app;
}
