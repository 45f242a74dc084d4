/**
 * Scores (PLATFORM.md §10): `POST /v1/scores` (Member) records a `HUMAN` or `API` score on a
 * subject of the organization, `GET /v1/scores` (Viewer) lists them with filters. The rules
 * live in the platform's score service; these routes parse and render.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import { scoreRecordBody } from "@groundwork/platform";
import type { Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderScore } from "./render.js";

export function registerScoreRoutes(app: Hono<AppEnv>): void {
  app.post("/v1/scores", requireRole("member"), async (c) => {
    const body = await readBody(c, scoreRecordBody);
    return c.json(renderScore(await c.var.groundwork.scores.record(c.var.principal, body)), 201);
  });

  app.get("/v1/scores", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    // The filter schema ignores page and size.
    const { items, total } = await c.var.groundwork.scores.list(c.var.principal, c.req.query(), page);
    return c.json(toPage(items.map(renderScore), page, total));
  });
}
