/**
 * Agent management (DESIGN.md "Agent management paths"): apply, CRUD, versions, labels,
 * catalog, policy explanation and pending approvals, each one call of the platform's
 * `agentManagement`. Viewer reads (and the catalog), Member applies, creates, updates and
 * labels, Admin deletes agents, versions and labels.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import { AGENT_DEFINITION_FIELDS, AGENT_LABEL_MAX_LENGTH, AGENT_LABEL_PATTERN } from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { readBody, readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { agentView, approvalView, catalogView, labelView, versionView } from "./views.js";

const labelName = z
  .string()
  .trim()
  .min(1)
  .max(AGENT_LABEL_MAX_LENGTH)
  .regex(AGENT_LABEL_PATTERN, "label names start with a letter and use letters, digits, . _ -");
const createLabelBody = z.object({ name: labelName, agentVersionId: z.string().min(1) }).strict();
const updateLabelBody = z.object({ agentVersionId: z.string().min(1) }).strict();

/** PATCH: record fields, plus definition fields that make a new version. */
const patchBody = z
  .object({
    published: z.boolean().optional(),
    description: z.string().max(4000).nullable().optional(),
    ...Object.fromEntries(AGENT_DEFINITION_FIELDS.map((field) => [field, z.unknown().optional()])),
  })
  .strict();

const page = (c: Context<AppEnv>) =>
  parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
const agentId = (c: Context<AppEnv>) => c.req.param("agentId") ?? "";
const versionId = (c: Context<AppEnv>) => c.req.param("versionId") ?? "";

export function registerAgentManagementRoutes(app: Hono<AppEnv>): void {
  const agents = (c: Context<AppEnv>) => c.var.groundwork.agentManagement;

  app.post("/v1/agents/apply", requireRole("member"), async (c) => {
    const applied = await agents(c).apply(c.var.principal, await readJson(c));
    return c.json(
      {
        result: applied.result,
        agent: agentView(applied.agent, applied.version),
        version: versionView(applied.version),
      },
      applied.result === "unchanged" ? 200 : 201,
    );
  });

  app.get("/v1/agents", requireRole("viewer"), async (c) => {
    const request = page(c);
    const result = await agents(c).list(c.var.principal, request);
    return c.json(
      toPage(
        result.items.map(({ agent, latest }) => agentView(agent, latest)),
        request,
        result.total,
      ),
    );
  });

  app.post("/v1/agents", requireRole("member"), async (c) => {
    const created = await agents(c).create(c.var.principal, await readJson(c));
    return c.json(
      { ...agentView(created.agent, created.version), version: versionView(created.version) },
      201,
    );
  });

  // Before `/:agentId`, so "catalog" is never read as an id.
  app.get("/v1/agents/catalog", requireRole("viewer"), async (c) => {
    const request = page(c);
    const result = await agents(c).catalog(c.var.principal, request);
    return c.json(toPage(result.items.map(catalogView), request, result.total));
  });

  app.get("/v1/agents/:agentId", requireRole("viewer"), async (c) => {
    const { agent, latest } = await agents(c).get(c.var.principal, agentId(c));
    return c.json(agentView(agent, latest));
  });

  app.patch("/v1/agents/:agentId", requireRole("member"), async (c) => {
    const body = await readBody(c, patchBody);
    const { agent, latest } = await agents(c).update(c.var.principal, agentId(c), body);
    return c.json(agentView(agent, latest));
  });

  app.delete("/v1/agents/:agentId", requireRole("admin"), async (c) => {
    await agents(c).delete(c.var.principal, agentId(c));
    return c.body(null, 204);
  });

  // ---- versions ----

  app.get("/v1/agents/:agentId/versions", requireRole("viewer"), async (c) => {
    const request = page(c);
    const result = await agents(c).listVersions(c.var.principal, agentId(c), request);
    return c.json(toPage(result.items.map(versionView), request, result.total));
  });

  app.post("/v1/agents/:agentId/versions", requireRole("member"), async (c) => {
    const version = await agents(c).createVersion(c.var.principal, agentId(c), await readJson(c));
    return c.json(versionView(version), 201);
  });

  app.get("/v1/agents/:agentId/versions/latest", requireRole("viewer"), async (c) => {
    return c.json(versionView(await agents(c).latestVersion(c.var.principal, agentId(c))));
  });

  app.get("/v1/agents/:agentId/versions/:versionId", requireRole("viewer"), async (c) => {
    return c.json(versionView(await agents(c).getVersion(c.var.principal, agentId(c), versionId(c))));
  });

  app.put("/v1/agents/:agentId/versions/:versionId/activate", requireRole("member"), async (c) => {
    return c.json(versionView(await agents(c).activateVersion(c.var.principal, agentId(c), versionId(c))));
  });

  app.delete("/v1/agents/:agentId/versions/:versionId", requireRole("admin"), async (c) => {
    await agents(c).deactivateVersion(c.var.principal, agentId(c), versionId(c));
    return c.body(null, 204);
  });

  app.get("/v1/agents/:agentId/versions/:versionId/policy", requireRole("viewer"), async (c) => {
    const explanation = await agents(c).explainPolicy(c.var.principal, agentId(c), versionId(c), {
      tool: c.req.query("tool"),
      mode: c.req.query("mode"),
      installationId: c.req.query("installationId"),
    });
    return c.json(explanation);
  });

  // ---- labels ----

  app.get("/v1/agents/:agentId/labels", requireRole("viewer"), async (c) => {
    const labels = await agents(c).listLabels(c.var.principal, agentId(c));
    return c.json(labels.map(({ label, version }) => labelView(label, version)));
  });

  app.post("/v1/agents/:agentId/labels", requireRole("member"), async (c) => {
    const body = await readBody(c, createLabelBody);
    const { label, version } = await agents(c).createLabel(
      c.var.principal,
      agentId(c),
      body.name,
      body.agentVersionId,
    );
    return c.json(labelView(label, version), 201);
  });

  app.put("/v1/agents/:agentId/labels/:labelName", requireRole("member"), async (c) => {
    const body = await readBody(c, updateLabelBody);
    const { label, version } = await agents(c).setLabel(
      c.var.principal,
      agentId(c),
      c.req.param("labelName"),
      body.agentVersionId,
    );
    return c.json(labelView(label, version));
  });

  app.delete("/v1/agents/:agentId/labels/:labelName", requireRole("admin"), async (c) => {
    await agents(c).deleteLabel(c.var.principal, agentId(c), c.req.param("labelName"));
    return c.body(null, 204);
  });

  // ---- approvals ----

  app.get("/v1/agents/:agentId/approvals", requireRole("viewer"), async (c) => {
    const request = page(c);
    const result = await agents(c).pendingApprovals(c.var.principal, agentId(c), request);
    return c.json(toPage(result.items.map(approvalView), request, result.total));
  });
}
