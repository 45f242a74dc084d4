/**
 * Analytics (PLATFORM.md §14): seven `GET` endpoints, every role (Viewer reads). The platform's
 * analytics service validates the query (400 naming the parameter) and computes; these routes
 * render instants as ISO strings.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";
import { renderErrors, renderRange, renderSeries } from "./render.js";

export function registerAnalyticsRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/analytics/summary", async (c) =>
    c.json(renderRange(await c.var.groundwork.analytics.summary(c.var.principal, c.req.query()))),
  );
  app.get("/v1/analytics/timeseries", async (c) =>
    c.json(renderSeries(await c.var.groundwork.analytics.timeseries(c.var.principal, c.req.query()))),
  );
  app.get("/v1/analytics/providers", async (c) =>
    c.json(renderRange(await c.var.groundwork.analytics.providers(c.var.principal, c.req.query()))),
  );
  app.get("/v1/analytics/errors", async (c) =>
    c.json(renderErrors(await c.var.groundwork.analytics.errors(c.var.principal, c.req.query()))),
  );
  app.get("/v1/analytics/schemas", async (c) =>
    c.json(renderRange(await c.var.groundwork.analytics.schemas(c.var.principal, c.req.query()))),
  );
  app.get("/v1/analytics/quality", async (c) =>
    c.json(renderRange(await c.var.groundwork.analytics.quality(c.var.principal, c.req.query()))),
  );
  app.get("/v1/analytics/quality/trend", async (c) =>
    c.json(renderSeries(await c.var.groundwork.analytics.qualityTrend(c.var.principal, c.req.query()))),
  );
}
