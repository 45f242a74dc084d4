/**
 * Agent management (DESIGN.md "Agent management paths"): apply, CRUD, versions, labels,
 * catalog, policy explanation and pending approvals. Viewer reads (and the catalog),
 * Member applies, creates, updates and labels, Admin deletes agents, versions and labels.
 */
import { isDeepStrictEqual } from "node:util";
import {
  type AgentDefinition,
  evaluatePolicy,
  MODES,
  PAUSE_TIMEOUT_MS,
  PAUSED_STATUSES,
  parseDefinition,
  type RunState,
} from "@groundwork/agents";
import { conflict, invalidRequest, notFound, parsePageRequest, toPage } from "@groundwork/core";
import { definitionOf, resolveVersion, toolsOf } from "@groundwork/platform";
import type { AgentRecord, AgentVersionRecord } from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { readBody, readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { agentView, catalogView, labelView, versionView } from "./views.js";

const labelName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, "label names start with a letter and use letters, digits, . _ -");
const createLabelBody = z.object({ name: labelName, agentVersionId: z.string().min(1) }).strict();
const updateLabelBody = z.object({ agentVersionId: z.string().min(1) }).strict();

/** PATCH: record fields, plus definition fields that make a new version. */
const DEFINITION_FIELDS = [
  "model",
  "models",
  "instructions",
  "tools",
  "hitlPolicy",
  "options",
  "skills",
] as const;
const patchBody = z
  .object({
    published: z.boolean().optional(),
    description: z.string().max(4000).nullable().optional(),
    ...Object.fromEntries(DEFINITION_FIELDS.map((field) => [field, z.unknown().optional()])),
  })
  .strict();

function findAgent(c: Context<AppEnv>): AgentRecord {
  const id = c.req.param("agentId") ?? "";
  const agent = c.var.store.agents.get(c.var.principal.organizationId, id);
  if (agent === null) throw notFound(`No agent ${id}`);
  return agent;
}

function findVersion(c: Context<AppEnv>, agent: AgentRecord): AgentVersionRecord {
  return resolveVersion(c.var.store, agent, c.req.param("versionId") ?? "", {
    param: "versionId",
    requireActive: false,
  });
}

function labelTarget(c: Context<AppEnv>, agent: AgentRecord, versionId: string): AgentVersionRecord {
  const version = c.var.store.agents.getVersion(agent.id, versionId);
  if (version === null)
    throw notFound(`Agent ${agent.id} has no version ${versionId}`, { param: "agentVersionId" });
  if (!version.active) throw conflict(`Version ${versionId} is deactivated`, { param: "agentVersionId" });
  return version;
}

/** Stored definitions keep only what the file said, minus `$schema`. */
function storable(definition: AgentDefinition): Record<string, unknown> {
  const { $schema: _schema, ...rest } = definition;
  return rest as Record<string, unknown>;
}

export function registerAgentManagementRoutes(app: Hono<AppEnv>): void {
  const latest = (c: Context<AppEnv>, agent: AgentRecord) => c.var.store.agents.latestVersion(agent.id);

  app.post("/v1/agents/apply", requireRole("member"), async (c) => {
    const definition = parseDefinition(await readJson(c));
    const store = c.var.store.agents;
    const org = c.var.principal.organizationId;
    const existing = store.getByName(org, definition.name);
    if (existing === null) {
      const created = store.create(org, {
        name: definition.name,
        description: definition.description ?? null,
        definition: storable(definition),
      });
      if (created === null)
        throw conflict(`An agent named "${definition.name}" was created meanwhile; apply again`);
      return c.json(
        {
          result: "created",
          agent: agentView(created.agent, created.version),
          version: versionView(created.version),
        },
        201,
      );
    }
    const head = store.latestVersion(existing.id);
    if (head !== null && isDeepStrictEqual(head.definition, storable(definition))) {
      return c.json({ result: "unchanged", agent: agentView(existing, head), version: versionView(head) });
    }
    const version = store.commitVersion(existing.id, storable(definition), {
      description: definition.description ?? null,
    });
    const agent = store.get(org, existing.id) as AgentRecord;
    return c.json(
      { result: "versioned", agent: agentView(agent, version), version: versionView(version) },
      201,
    );
  });

  app.get("/v1/agents", requireRole("viewer"), (c) => {
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const result = c.var.store.agents.list(c.var.principal.organizationId, request);
    return c.json(
      toPage(
        result.items.map((agent) => agentView(agent, latest(c, agent))),
        request,
        result.total,
      ),
    );
  });

  app.post("/v1/agents", requireRole("member"), async (c) => {
    const definition = parseDefinition(await readJson(c));
    const created = c.var.store.agents.create(c.var.principal.organizationId, {
      name: definition.name,
      description: definition.description ?? null,
      definition: storable(definition),
    });
    if (created === null) {
      throw conflict(
        `An agent named "${definition.name}" exists; use POST /v1/agents/apply to add a version`,
        {
          param: "name",
        },
      );
    }
    return c.json(
      { ...agentView(created.agent, created.version), version: versionView(created.version) },
      201,
    );
  });

  // Before `/:agentId`, so "catalog" is never read as an id.
  app.get("/v1/agents/catalog", requireRole("viewer"), (c) => {
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const result = c.var.store.agents.list(c.var.principal.organizationId, request, { publishedOnly: true });
    return c.json(toPage(result.items.map(catalogView), request, result.total));
  });

  app.get("/v1/agents/:agentId", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    return c.json(agentView(agent, latest(c, agent)));
  });

  app.patch("/v1/agents/:agentId", requireRole("member"), async (c) => {
    const agent = findAgent(c);
    const body = (await readBody(c, patchBody)) as z.output<typeof patchBody> & Record<string, unknown>;
    const store = c.var.store.agents;
    const org = c.var.principal.organizationId;
    const changesDefinition = DEFINITION_FIELDS.some((field) => body[field] !== undefined);
    let version = store.latestVersion(agent.id);
    if (changesDefinition || body.description !== undefined) {
      if (version === null) throw conflict(`Agent ${agent.id} has no active version to update`);
      const merged: Record<string, unknown> = { ...version.definition };
      for (const field of DEFINITION_FIELDS) {
        if (body[field] !== undefined) merged[field] = body[field];
      }
      // A new `models` list without `model` drops the old shorthand (it must equal models[0]).
      if (body.models !== undefined && body.model === undefined) delete merged.model;
      if (body.model !== undefined && body.models === undefined) delete merged.models;
      if (body.description !== undefined) {
        if (body.description === null) delete merged.description;
        else merged.description = body.description;
      }
      const definition = parseDefinition(merged);
      if (!isDeepStrictEqual(version.definition, storable(definition))) {
        version = store.commitVersion(agent.id, storable(definition), {
          description: definition.description ?? null,
        });
      }
    }
    const updated = store.update(org, agent.id, {
      ...(body.published === undefined ? {} : { published: body.published }),
    }) as AgentRecord;
    return c.json(agentView(updated, version));
  });

  app.delete("/v1/agents/:agentId", requireRole("admin"), (c) => {
    const agent = findAgent(c);
    c.var.store.agents.delete(c.var.principal.organizationId, agent.id);
    return c.body(null, 204);
  });

  // ---- versions ----

  app.get("/v1/agents/:agentId/versions", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const result = c.var.store.agents.listVersions(agent.id, request);
    return c.json(toPage(result.items.map(versionView), request, result.total));
  });

  app.post("/v1/agents/:agentId/versions", requireRole("member"), async (c) => {
    const agent = findAgent(c);
    const raw = await readJson(c);
    const body =
      typeof raw === "object" && raw !== null && !Array.isArray(raw) && !("name" in raw)
        ? { ...raw, name: agent.name }
        : raw;
    const definition = parseDefinition(body);
    if (definition.name !== agent.name) {
      throw invalidRequest(
        `name must be the agent's name "${agent.name}" (or omitted); apply a file with another name to create another agent`,
        { param: "name" },
      );
    }
    const version = c.var.store.agents.commitVersion(agent.id, storable(definition), {
      description: definition.description ?? null,
    });
    return c.json(versionView(version), 201);
  });

  app.get("/v1/agents/:agentId/versions/latest", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    const version = latest(c, agent);
    if (version === null) throw notFound(`Agent ${agent.id} has no active version`);
    return c.json(versionView(version));
  });

  app.get("/v1/agents/:agentId/versions/:versionId", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    return c.json(versionView(findVersion(c, agent)));
  });

  app.put("/v1/agents/:agentId/versions/:versionId/activate", requireRole("member"), (c) => {
    const agent = findAgent(c);
    const source = findVersion(c, agent);
    const copy = c.var.store.agents.commitVersion(agent.id, source.definition, {
      copiedFromVersionId: source.id,
      description: (source.definition.description as string | undefined) ?? null,
    });
    return c.json(versionView(copy));
  });

  app.delete("/v1/agents/:agentId/versions/:versionId", requireRole("admin"), (c) => {
    const agent = findAgent(c);
    const version = findVersion(c, agent);
    c.var.store.agents.deactivateVersion(agent.id, version.id);
    return c.body(null, 204);
  });

  app.get("/v1/agents/:agentId/versions/:versionId/policy", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    const version = findVersion(c, agent);
    const modeParam = c.req.query("mode");
    if (modeParam !== undefined && !(MODES as readonly string[]).includes(modeParam)) {
      throw invalidRequest(`mode must be one of ${MODES.join(", ")}`, { param: "mode" });
    }
    const mode = (modeParam ?? "ask") as (typeof MODES)[number];
    const toolParam = c.req.query("tool");
    const policy = definitionOf(version).hitlPolicy;
    const tools = toolsOf(version);
    const names = toolParam === undefined ? tools.map((t) => t.name) : [toolParam];
    const explained = names.map((name) => {
      const tool = tools.find((t) => t.name === name);
      const decision = evaluatePolicy({ toolName: name, tool: tool?.gate, policy, mode });
      const baseline =
        mode === "ask" ? decision : evaluatePolicy({ toolName: name, tool: tool?.gate, policy, mode: "ask" });
      return {
        tool: name,
        type: tool?.definition.type ?? null,
        runs: tool?.gate.runs ?? null,
        verdict: decision.verdict,
        action: decision.action,
        class: decision.class,
        classSource: decision.classSource,
        source: decision.source,
        matched: decision.matched,
        hiddenFromModel: decision.hiddenFromModel,
        reason: decision.reason,
        modeChangedVerdict: baseline.verdict !== decision.verdict ? `conversation_mode.${mode}` : null,
      };
    });
    return c.json({
      agentId: agent.id,
      agentVersionId: version.id,
      mode,
      policy: policy ?? null,
      tools: explained,
    });
  });

  // ---- labels ----

  app.get("/v1/agents/:agentId/labels", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    const store = c.var.store.agents;
    return c.json(
      store.listLabels(agent.id).map((label) => labelView(label, store.versionById(label.agentVersionId))),
    );
  });

  app.post("/v1/agents/:agentId/labels", requireRole("member"), async (c) => {
    const agent = findAgent(c);
    const body = await readBody(c, createLabelBody);
    if (body.name === "latest") {
      throw conflict(`"latest" is implied (the newest active version) and cannot be set`, { param: "name" });
    }
    const version = labelTarget(c, agent, body.agentVersionId);
    const store = c.var.store.agents;
    if (!store.createLabel(agent.id, body.name, version.id)) {
      throw conflict(`Agent ${agent.id} already has a label "${body.name}"; move it with PUT`, {
        param: "name",
      });
    }
    return c.json(
      labelView(
        store.getLabel(agent.id, body.name) as NonNullable<ReturnType<typeof store.getLabel>>,
        version,
      ),
      201,
    );
  });

  app.put("/v1/agents/:agentId/labels/:labelName", requireRole("member"), async (c) => {
    const agent = findAgent(c);
    const name = c.req.param("labelName");
    const body = await readBody(c, updateLabelBody);
    const store = c.var.store.agents;
    const version = labelTarget(c, agent, body.agentVersionId);
    if (store.getLabel(agent.id, name) === null) {
      // PUT creates the label when it does not exist yet (idempotent "set").
      const parsed = labelName.safeParse(name);
      if (!parsed.success || name === "latest")
        throw invalidRequest(`"${name}" is not a valid label name`, { param: "name" });
      store.createLabel(agent.id, name, version.id);
    } else {
      store.updateLabel(agent.id, name, version.id);
    }
    return c.json(
      labelView(store.getLabel(agent.id, name) as NonNullable<ReturnType<typeof store.getLabel>>, version),
    );
  });

  app.delete("/v1/agents/:agentId/labels/:labelName", requireRole("admin"), (c) => {
    const agent = findAgent(c);
    const name = c.req.param("labelName");
    if (!c.var.store.agents.deleteLabel(agent.id, name))
      throw notFound(`Agent ${agent.id} has no label "${name}"`);
    return c.body(null, 204);
  });

  // ---- approvals ----

  app.get("/v1/agents/:agentId/approvals", requireRole("viewer"), (c) => {
    const agent = findAgent(c);
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const now = Date.now();
    const runs = c.var.store.agents.listRunsByStatus(
      c.var.principal.organizationId,
      agent.id,
      PAUSED_STATUSES,
    );
    const content = runs.flatMap((run) => {
      const state = run.state as RunState;
      const expired = state.pausedAt !== null && now - state.pausedAt > PAUSE_TIMEOUT_MS;
      return state.pendingApprovals.map((approval) => ({
        ...approval,
        responseId: state.id,
        conversationId: state.conversationId,
        agent: state.agentRef,
        pausedAt: state.pausedAt === null ? null : new Date(state.pausedAt).toISOString(),
        expired,
      }));
    });
    const offset = request.page * request.size;
    return c.json(toPage(content.slice(offset, offset + request.size), request, content.length));
  });
}
