/**
 * Experiments (PLATFORM.md §11): Viewer lists and reads experiments, runs, results, regression
 * and comparison; Member creates and updates experiments and variants, starts and cancels runs
 * and sets the baseline; Admin deletes experiments and variants. The routes parse and render;
 * the rules live in the platform's experiment service.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import {
  baselineBody,
  experimentCreateBody,
  experimentUpdateBody,
  runCreateBody,
  variantCreateBody,
  variantUpdateBody,
} from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { readBody, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { readBodyText } from "../../http/node-request.js";
import { renderExperiment, renderResult, renderRun, renderVariant } from "./render.js";

const page = (c: Context<AppEnv>) =>
  parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
const experimentId = (c: Context<AppEnv>) => c.req.param("experimentId") ?? "";
const variantId = (c: Context<AppEnv>) => c.req.param("variantId") ?? "";
const runId = (c: Context<AppEnv>) => c.req.param("runId") ?? "";

export function registerExperimentRoutes(app: Hono<AppEnv>): void {
  const experiments = (c: Context<AppEnv>) => c.var.groundwork.experiments;

  app.get("/v1/experiments", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await experiments(c).list(c.var.principal, c.req.query(), request);
    return c.json(toPage(items.map(renderExperiment), request, total));
  });

  app.post("/v1/experiments", requireRole("member"), async (c) => {
    const body = await readBody(c, experimentCreateBody);
    return c.json(renderExperiment(await experiments(c).create(c.var.principal, body)), 201);
  });

  app.get("/v1/experiments/:experimentId", requireRole("viewer"), async (c) =>
    c.json(renderExperiment(await experiments(c).view(c.var.principal, experimentId(c)))),
  );

  app.patch("/v1/experiments/:experimentId", requireRole("member"), async (c) => {
    const body = await readBody(c, experimentUpdateBody);
    return c.json(renderExperiment(await experiments(c).update(c.var.principal, experimentId(c), body)));
  });

  app.delete("/v1/experiments/:experimentId", requireRole("admin"), async (c) => {
    await experiments(c).delete(c.var.principal, experimentId(c));
    return c.body(null, 204);
  });

  // ---- variants ----

  app.post("/v1/experiments/:experimentId/variants", requireRole("member"), async (c) => {
    const body = await readBody(c, variantCreateBody);
    return c.json(
      renderVariant(await experiments(c).addVariant(c.var.principal, experimentId(c), body)),
      201,
    );
  });

  app.get("/v1/experiments/:experimentId/variants", requireRole("viewer"), async (c) =>
    c.json((await experiments(c).listVariants(c.var.principal, experimentId(c))).map(renderVariant)),
  );

  app.patch("/v1/experiments/:experimentId/variants/:variantId", requireRole("member"), async (c) => {
    const body = await readBody(c, variantUpdateBody);
    return c.json(
      renderVariant(await experiments(c).updateVariant(c.var.principal, experimentId(c), variantId(c), body)),
    );
  });

  app.delete("/v1/experiments/:experimentId/variants/:variantId", requireRole("admin"), async (c) => {
    await experiments(c).deleteVariant(c.var.principal, experimentId(c), variantId(c));
    return c.body(null, 204);
  });

  // ---- runs ----

  app.post("/v1/experiments/:experimentId/runs", requireRole("member"), async (c) => {
    // The body is optional: none runs every variant.
    const text = await readBodyText(c);
    const body = validate(runCreateBody, text.trim() === "" ? {} : parseJson(text));
    const runs = await experiments(c).startRuns(c.var.principal, experimentId(c), body);
    return c.json({ runs: runs.map(renderRun) }, 202);
  });

  app.get("/v1/experiments/:experimentId/runs", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await experiments(c).listRuns(
      c.var.principal,
      experimentId(c),
      c.req.query(),
      request,
    );
    return c.json(toPage(items.map(renderRun), request, total));
  });

  app.get("/v1/experiments/:experimentId/runs/:runId", requireRole("viewer"), async (c) =>
    c.json(renderRun(await experiments(c).getRun(c.var.principal, experimentId(c), runId(c)))),
  );

  app.post("/v1/experiments/:experimentId/runs/:runId/cancel", requireRole("member"), async (c) =>
    c.json(renderRun(await experiments(c).cancelRun(c.var.principal, experimentId(c), runId(c)))),
  );

  app.get("/v1/experiments/:experimentId/runs/:runId/results", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await experiments(c).listResults(
      c.var.principal,
      experimentId(c),
      runId(c),
      c.req.query(),
      request,
    );
    return c.json(toPage(items.map(renderResult), request, total));
  });

  app.get("/v1/experiments/:experimentId/runs/:runId/regression", requireRole("viewer"), async (c) => {
    const report = await experiments(c).regression(c.var.principal, experimentId(c), runId(c), c.req.query());
    const { total, byEvaluator } = report.summary;
    return c.json({
      runId: report.runId,
      baselineRunId: report.baselineRunId,
      threshold: report.threshold,
      items: report.items,
      summary: { ...total, byEvaluator },
    });
  });

  // ---- baseline and comparison ----

  app.put("/v1/experiments/:experimentId/baseline", requireRole("member"), async (c) => {
    const body = await readBody(c, baselineBody);
    return c.json(renderExperiment(await experiments(c).setBaseline(c.var.principal, experimentId(c), body)));
  });

  app.delete("/v1/experiments/:experimentId/baseline", requireRole("member"), async (c) => {
    await experiments(c).clearBaseline(c.var.principal, experimentId(c));
    return c.body(null, 204);
  });

  app.get("/v1/experiments/:experimentId/comparison", requireRole("viewer"), async (c) =>
    c.json(await experiments(c).comparison(c.var.principal, experimentId(c), c.req.query())),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest("Request body is not valid JSON");
  }
}
