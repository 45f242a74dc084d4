/**
 * Prompts (PLATFORM.md §7): prompts, versions, labels, resolve, compile and test. Viewer
 * lists, reads, resolves and compiles; Member creates, updates, versions, labels, activates
 * and tests; Admin deletes prompts and labels and deactivates versions (§1.3). The routes
 * parse and render; the rules live in the platform's prompt service.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import {
  type PromptService,
  promptCompileBody,
  promptCreateBody,
  promptLabelCreateBody,
  promptLabelUpdateBody,
  promptTestBody,
  promptUpdateBody,
  promptVersionBody,
} from "@groundwork/platform";
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { readBody, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { clientSignal, readBodyText } from "../../http/node-request.js";
import { renderPrompt, renderPromptLabel, renderPromptVersion } from "./render.js";

/** A body whose fields are all optional: an empty one stands for `{}`. */
async function optionalBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const text = await readBodyText(c);
  if (text.trim() === "") return validate(schema, {});
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest("Request body is not valid JSON");
  }
  return validate(schema, parsed);
}

export function registerPromptRoutes(app: Hono<AppEnv>): void {
  const prompts = (c: Context<AppEnv>): PromptService => c.var.groundwork.prompts;
  const org = (c: Context<AppEnv>) => c.var.principal.organizationId;
  const ref = (c: Context<AppEnv>) => c.req.param("prompt") ?? "";
  const vid = (c: Context<AppEnv>) => c.req.param("vid") ?? "";
  const page = (c: Context<AppEnv>) =>
    parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });

  // ---- prompts ----

  app.get("/v1/prompts", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await prompts(c).list(org(c), c.req.query(), request);
    return c.json(toPage(items.map(renderPrompt), request, total));
  });

  app.post("/v1/prompts", requireRole("member"), async (c) => {
    const body = await readBody(c, promptCreateBody);
    return c.json(renderPrompt(await prompts(c).create(org(c), body)), 201);
  });

  app.get("/v1/prompts/:prompt", requireRole("viewer"), async (c) =>
    c.json(renderPrompt(await prompts(c).get(org(c), ref(c)))),
  );

  app.patch("/v1/prompts/:prompt", requireRole("member"), async (c) => {
    await prompts(c).get(org(c), ref(c));
    const body = await readBody(c, promptUpdateBody);
    return c.json(renderPrompt(await prompts(c).update(org(c), ref(c), body)));
  });

  app.delete("/v1/prompts/:prompt", requireRole("admin"), async (c) => {
    await prompts(c).delete(org(c), ref(c));
    return c.body(null, 204);
  });

  // ---- resolve, compile, test ----

  app.get("/v1/prompts/:prompt/resolve", requireRole("viewer"), async (c) =>
    c.json(await prompts(c).resolve(org(c), ref(c), c.req.query())),
  );

  app.post("/v1/prompts/:prompt/compile", requireRole("viewer"), async (c) => {
    await prompts(c).get(org(c), ref(c));
    const body = await optionalBody(c, promptCompileBody);
    return c.json(await prompts(c).compile(org(c), ref(c), body));
  });

  app.post("/v1/prompts/:prompt/test", requireRole("member"), async (c) => {
    await prompts(c).get(org(c), ref(c));
    const body = await optionalBody(c, promptTestBody);
    return c.json(await prompts(c).test(c.var.principal, ref(c), body, clientSignal(c)));
  });

  // ---- versions ----

  app.get("/v1/prompts/:prompt/versions", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await prompts(c).listVersions(org(c), ref(c), request);
    return c.json(toPage(items.map(renderPromptVersion), request, total));
  });

  app.post("/v1/prompts/:prompt/versions", requireRole("member"), async (c) => {
    await prompts(c).get(org(c), ref(c));
    const body = await readBody(c, promptVersionBody);
    return c.json(renderPromptVersion(await prompts(c).createVersion(org(c), ref(c), body)), 201);
  });

  // Registered before `:vid` so "latest" is never read as a version.
  app.get("/v1/prompts/:prompt/versions/latest", requireRole("viewer"), async (c) =>
    c.json(renderPromptVersion(await prompts(c).latestVersion(org(c), ref(c)))),
  );

  app.get("/v1/prompts/:prompt/versions/:vid", requireRole("viewer"), async (c) =>
    c.json(renderPromptVersion(await prompts(c).getVersion(org(c), ref(c), vid(c)))),
  );

  app.put("/v1/prompts/:prompt/versions/:vid/activate", requireRole("member"), async (c) =>
    c.json(renderPromptVersion(await prompts(c).activateVersion(org(c), ref(c), vid(c)))),
  );

  app.delete("/v1/prompts/:prompt/versions/:vid", requireRole("admin"), async (c) => {
    await prompts(c).deactivateVersion(org(c), ref(c), vid(c));
    return c.body(null, 204);
  });

  // ---- labels ----

  app.get("/v1/prompts/:prompt/labels", requireRole("viewer"), async (c) =>
    c.json((await prompts(c).listLabels(org(c), ref(c))).map(renderPromptLabel)),
  );

  app.post("/v1/prompts/:prompt/labels", requireRole("member"), async (c) => {
    await prompts(c).get(org(c), ref(c));
    const body = await readBody(c, promptLabelCreateBody);
    return c.json(renderPromptLabel(await prompts(c).createLabel(org(c), ref(c), body)), 201);
  });

  app.put("/v1/prompts/:prompt/labels/:name", requireRole("member"), async (c) => {
    await prompts(c).get(org(c), ref(c));
    const body = await readBody(c, promptLabelUpdateBody);
    return c.json(renderPromptLabel(await prompts(c).moveLabel(org(c), ref(c), c.req.param("name"), body)));
  });

  app.delete("/v1/prompts/:prompt/labels/:name", requireRole("admin"), async (c) => {
    await prompts(c).deleteLabel(org(c), ref(c), c.req.param("name"));
    return c.body(null, 204);
  });
}
