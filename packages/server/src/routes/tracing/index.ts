/**
 * Tracing (PLATFORM.md §13): settings (Viewer reads, Admin updates), traces with their span
 * trees, and sessions. The rules live in the platform's tracing service; these routes parse
 * and render.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import { tracingSettingsBody } from "@groundwork/platform";
import type { Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderTrace, renderTraceDetail, renderTraceSession, renderTracingSettings } from "./render.js";

export function registerTracingRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/tracing/settings", async (c) =>
    c.json(renderTracingSettings(await c.var.groundwork.tracing.getSettings(c.var.principal))),
  );

  app.put("/v1/tracing/settings", requireRole("admin"), async (c) => {
    const body = await readBody(c, tracingSettingsBody);
    return c.json(
      renderTracingSettings(await c.var.groundwork.tracing.updateSettings(c.var.principal, body)),
    );
  });

  app.get("/v1/traces", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.tracing.listTraces(c.var.principal, c.req.query(), page);
    return c.json(toPage(items.map(renderTrace), page, total));
  });

  app.get("/v1/traces/:traceId", async (c) =>
    c.json(
      renderTraceDetail(await c.var.groundwork.tracing.getTrace(c.var.principal, c.req.param("traceId"))),
    ),
  );

  app.get("/v1/trace-sessions", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.tracing.listSessions(
      c.var.principal,
      c.req.query(),
      page,
    );
    return c.json(toPage(items.map(renderTraceSession), page, total));
  });

  app.get("/v1/trace-sessions/:sessionId", async (c) => {
    const session = await c.var.groundwork.tracing.getSession(c.var.principal, c.req.param("sessionId"));
    return c.json({ ...renderTraceSession(session), traces: session.traces.map(renderTrace) });
  });
}
