/**
 * Plugins (PLATFORM.md §5.2). Viewers list and read; Admins install, update, sync and
 * delete (§1.3). The rules live in the platform's plugin service; these routes parse
 * and render.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import { type PluginSourceInput, pluginSourceBody } from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { readBody, readMultipart, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderPlugin, renderPluginResult } from "./render.js";

const deleteQuery = z.object({
  force: z.enum(["true", "false"], { error: "force must be true or false" }).optional(),
});

const plugins = (c: Context<AppEnv>) => c.var.groundwork.plugins;
const org = (c: Context<AppEnv>) => c.var.principal.organizationId;
const pluginParam = (c: Context<AppEnv>) => c.req.param("pluginId") as string;

export function registerPluginRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/plugins", requireRole("viewer"), async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await plugins(c).list(org(c), page);
    return c.json(toPage(items.map(renderPlugin), page, total));
  });

  app.post("/v1/plugins", requireRole("admin"), async (c) => {
    const result = await plugins(c).install(c.var.principal, await sourceOf(c));
    return c.json(renderPluginResult(result), 201);
  });

  app.get("/v1/plugins/:pluginId", requireRole("viewer"), async (c) =>
    c.json(renderPlugin(await plugins(c).get(org(c), pluginParam(c)))),
  );

  app.put("/v1/plugins/:pluginId", requireRole("admin"), async (c) => {
    await plugins(c).get(org(c), pluginParam(c));
    const result = await plugins(c).update(c.var.principal, pluginParam(c), await sourceOf(c));
    return c.json(renderPluginResult(result));
  });

  app.post("/v1/plugins/:pluginId/sync", requireRole("admin"), async (c) =>
    c.json(renderPluginResult(await plugins(c).sync(c.var.principal, pluginParam(c)))),
  );

  app.delete("/v1/plugins/:pluginId", requireRole("admin"), async (c) => {
    const { force } = validate(deleteQuery, c.req.query());
    await plugins(c).delete(c.var.principal, pluginParam(c), { force: force === "true" });
    return c.body(null, 204);
  });
}

/** Multipart `file` (the zip) or JSON `{sourceUrl}`. */
async function sourceOf(c: Context<AppEnv>): Promise<PluginSourceInput> {
  if (!/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) {
    return { sourceUrl: (await readBody(c, pluginSourceBody)).sourceUrl };
  }
  const form = await readMultipart(c, "the plugin zip as a `file` part", "file");
  const file = form.get("file");
  if (!(file instanceof File)) throw invalidRequest("file is required (a zip file part)", { param: "file" });
  return { zip: new Uint8Array(await file.arrayBuffer()) };
}
