/**
 * Evaluators (PLATFORM.md §9): the type table and LLM-judge templates. Viewer reads, Member
 * creates and updates, Admin deletes (§1.3); the rules live in the platform's evaluator service.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import {
  evaluationBody,
  evaluatorTemplateCreateBody,
  evaluatorTemplateUpdateBody,
} from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderTemplate } from "./render.js";

export function registerEvaluatorRoutes(app: Hono<AppEnv>): void {
  const org = (c: Context<AppEnv>) => c.var.principal.organizationId;
  const templateId = (c: Context<AppEnv>) => c.req.param("templateId") ?? "";

  app.get("/v1/evaluators/types", requireRole("viewer"), (c) => c.json(c.var.groundwork.evaluators.types()));

  // Not in PLATFORM.md §9 (decision EV15): cases, or an app's outputs for dataset items, scored
  // with one evaluator; with a dataset the scores are recorded on the items (Member, as scores).
  app.post("/v1/evaluators/evaluate", requireRole("member"), async (c) => {
    const body = await readBody(c, evaluationBody);
    return c.json(
      await c.var.groundwork.evaluations.evaluate(c.var.principal, body, { signal: c.req.raw.signal }),
    );
  });

  app.get("/v1/evaluators/templates", requireRole("viewer"), async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.evaluators.listTemplates(org(c), page);
    return c.json(toPage(items.map(renderTemplate), page, total));
  });

  app.post("/v1/evaluators/templates", requireRole("member"), async (c) => {
    const body = await readBody(c, evaluatorTemplateCreateBody);
    return c.json(renderTemplate(await c.var.groundwork.evaluators.createTemplate(org(c), body)), 201);
  });

  app.get("/v1/evaluators/templates/:templateId", requireRole("viewer"), async (c) =>
    c.json(renderTemplate(await c.var.groundwork.evaluators.getTemplate(org(c), templateId(c)))),
  );

  app.patch("/v1/evaluators/templates/:templateId", requireRole("member"), async (c) => {
    // 404 before the body is read, so a stranger's id never reveals validation details.
    await c.var.groundwork.evaluators.getTemplate(org(c), templateId(c));
    const body = await readBody(c, evaluatorTemplateUpdateBody);
    return c.json(
      renderTemplate(await c.var.groundwork.evaluators.updateTemplate(org(c), templateId(c), body)),
    );
  });

  app.delete("/v1/evaluators/templates/:templateId", requireRole("admin"), async (c) => {
    await c.var.groundwork.evaluators.deleteTemplate(org(c), templateId(c));
    return c.body(null, 204);
  });
}
