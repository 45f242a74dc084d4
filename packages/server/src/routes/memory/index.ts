/**
 * Memory (PLATFORM.md §3): the caller's own tree under `/v1/me/memory…` for every
 * role, and the organization-wide usage listing and erasure for Admins. The rules
 * live in the platform's memory service; these routes parse and render.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import { memoryWriteCommand } from "@groundwork/platform";
import type { Hono } from "hono";
import { readBody, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { deleteQuery, listQuery, readQuery } from "./queries.js";
import { renderMemberUsage, renderMemoryFile, renderMemoryFileContent } from "./render.js";

export function registerMemoryRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/me/memory/files", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { prefix } = validate(listQuery, c.req.query());
    const { items, total } = await c.var.groundwork.memory.list(c.var.principal, { prefix, page });
    return c.json(toPage(items.map(renderMemoryFile), page, total));
  });

  app.get("/v1/me/memory/file", async (c) =>
    c.json(
      renderMemoryFileContent(
        await c.var.groundwork.memory.read(c.var.principal, validate(readQuery, c.req.query())),
      ),
    ),
  );

  app.post("/v1/me/memory/file", async (c) => {
    const result = await c.var.groundwork.memory.write(
      c.var.principal,
      await readBody(c, memoryWriteCommand),
    );
    if (result.kind === "directory") return c.json({ path: result.path, movedFiles: result.movedFiles }, 200);
    return c.json(renderMemoryFile(result.file), result.created ? 201 : 200);
  });

  app.delete("/v1/me/memory/file", async (c) => {
    await c.var.groundwork.memory.delete(c.var.principal, validate(deleteQuery, c.req.query()));
    return c.body(null, 204);
  });

  app.delete("/v1/me/memory", async (c) => c.json(await c.var.groundwork.memory.forget(c.var.principal)));

  app.get("/v1/memory/usage", requireRole("admin"), async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.memory.usage(c.var.principal.organizationId, page);
    return c.json(toPage(items.map(renderMemberUsage), page, total));
  });

  app.delete("/v1/memory/members/:memberId", requireRole("admin"), async (c) =>
    c.json(await c.var.groundwork.memory.erase(c.var.principal.organizationId, c.req.param("memberId"))),
  );
}
