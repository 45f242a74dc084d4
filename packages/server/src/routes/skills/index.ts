/**
 * Skills (PLATFORM.md §4.3) and an agent's skill bindings (§4.5). Viewers read and
 * resolve, Members import and manage labels, Admins delete skills, deactivate
 * versions and delete labels (§1.3). The rules live in the platform's skill
 * service; these routes parse and render.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import { skillImportFilesBody, skillLabelCreateBody, skillLabelMoveBody } from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { readBody, readMultipart, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderImportResult, renderSkill, renderSkillLabel, renderSkillVersion } from "./render.js";

const listQuery = z.object({ namespace: z.string().optional(), q: z.string().optional() });
const resolveQuery = z.object({
  name: z.string({ error: "name is required" }).min(1, "name is required"),
  ref: z.string().optional(),
});
const agentSkillsQuery = z.object({ version: z.string().min(1).optional() });

const skills = (c: Context<AppEnv>) => c.var.groundwork.skills;
const org = (c: Context<AppEnv>) => c.var.principal.organizationId;
const skillParam = (c: Context<AppEnv>) => c.req.param("skill") as string;
const versionParam = (c: Context<AppEnv>) => c.req.param("vid") as string;

export function registerSkillRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/skills", requireRole("viewer"), async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { namespace, q } = validate(listQuery, c.req.query());
    const { items, total } = await skills(c).list(org(c), { page, namespace, q });
    return c.json(toPage(items.map(renderSkill), page, total));
  });

  app.post("/v1/skills/import", requireRole("member"), async (c) => {
    const result = /^multipart\/form-data/i.test(c.req.header("content-type") ?? "")
      ? await skills(c).import(c.var.principal, await zipUpload(c))
      : await skills(c).import(c.var.principal, await readBody(c, skillImportFilesBody));
    return c.json(renderImportResult(result), result.result === "unchanged" ? 200 : 201);
  });

  app.get("/v1/skills/resolve", requireRole("viewer"), async (c) => {
    const { name, ref } = validate(resolveQuery, c.req.query());
    return c.json(await skills(c).resolve(org(c), name, ref));
  });

  app.get("/v1/skills/:skill", requireRole("viewer"), async (c) =>
    c.json(renderSkill(await skills(c).get(org(c), skillParam(c)))),
  );

  app.delete("/v1/skills/:skill", requireRole("admin"), async (c) => {
    await skills(c).delete(org(c), skillParam(c));
    return c.body(null, 204);
  });

  // ---- versions ----

  app.get("/v1/skills/:skill/versions", requireRole("viewer"), async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await skills(c).listVersions(org(c), skillParam(c), page);
    return c.json(
      toPage(
        items.map((v) => renderSkillVersion(v, { skillMd: false })),
        page,
        total,
      ),
    );
  });

  app.get("/v1/skills/:skill/versions/latest", requireRole("viewer"), async (c) =>
    c.json(renderSkillVersion(await skills(c).latestVersion(org(c), skillParam(c)))),
  );

  app.get("/v1/skills/:skill/versions/:vid", requireRole("viewer"), async (c) =>
    c.json(renderSkillVersion(await skills(c).getVersion(org(c), skillParam(c), versionParam(c)))),
  );

  app.get("/v1/skills/:skill/versions/:vid/files/:path{.+}", requireRole("viewer"), async (c) => {
    const file = await skills(c).readFile(
      org(c),
      skillParam(c),
      versionParam(c),
      c.req.param("path") as string,
    );
    return new Response(file.bytes, {
      status: 200,
      headers: { "Content-Type": file.contentType, "Content-Length": String(file.bytes.byteLength) },
    });
  });

  app.put("/v1/skills/:skill/versions/:vid/activate", requireRole("member"), async (c) =>
    c.json(renderSkillVersion(await skills(c).activateVersion(org(c), skillParam(c), versionParam(c)))),
  );

  app.delete("/v1/skills/:skill/versions/:vid", requireRole("admin"), async (c) => {
    await skills(c).deactivateVersion(org(c), skillParam(c), versionParam(c));
    return c.body(null, 204);
  });

  // ---- labels ----

  app.get("/v1/skills/:skill/labels", requireRole("viewer"), async (c) =>
    c.json((await skills(c).listLabels(org(c), skillParam(c))).map(renderSkillLabel)),
  );

  app.post("/v1/skills/:skill/labels", requireRole("member"), async (c) => {
    const body = await readBody(c, skillLabelCreateBody);
    const label = await skills(c).createLabel(org(c), skillParam(c), body.name, body.skillVersionId);
    return c.json(renderSkillLabel(label), 201);
  });

  app.put("/v1/skills/:skill/labels/:name", requireRole("member"), async (c) => {
    const body = await readBody(c, skillLabelMoveBody);
    const label = await skills(c).moveLabel(org(c), skillParam(c), c.req.param("name"), body.skillVersionId);
    return c.json(renderSkillLabel(label));
  });

  app.delete("/v1/skills/:skill/labels/:name", requireRole("admin"), async (c) => {
    await skills(c).deleteLabel(org(c), skillParam(c), c.req.param("name"));
    return c.body(null, 204);
  });

  // ---- an agent's skill bindings (§4.5) ----

  app.get("/v1/agents/:agentId/skills", requireRole("viewer"), async (c) => {
    const { version } = validate(agentSkillsQuery, c.req.query());
    const result = await skills(c).agentSkills(c.var.principal, c.req.param("agentId"), version);
    return c.json({
      agentId: result.agentId,
      agentVersionId: result.agentVersionId,
      versionNumber: result.versionNumber,
      skills: result.skills.map(({ binding, source, status, resolved }) => ({
        binding,
        source,
        status,
        resolved,
      })),
    });
  });
}

/** The multipart import: a `file` part (the zip) and an optional `changeDescription` field. */
async function zipUpload(c: Context<AppEnv>): Promise<{ zip: Uint8Array; changeDescription: string | null }> {
  const form = await readMultipart(c, "the skill zip as a `file` part", "file");
  const file = form.get("file");
  if (!(file instanceof File)) throw invalidRequest("file is required (a zip file part)", { param: "file" });
  const description = form.get("changeDescription");
  if (typeof description === "string" && description.length > 2000) {
    throw invalidRequest("changeDescription is at most 2000 characters", { param: "changeDescription" });
  }
  return {
    zip: new Uint8Array(await file.arrayBuffer()),
    changeDescription: typeof description === "string" && description !== "" ? description : null,
  };
}
