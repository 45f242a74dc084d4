/**
 * `/v1/files` (the tool server's Files group: list, upload, get, delete,
 * download). The spec shows no shapes; they follow the OpenAI Files API
 * (multipart `file` + `purpose`, `GET /v1/files/{id}/content` for the bytes)
 * with this API's conventions (page envelope, ISO timestamps) — docs/knowledge-bases.md.
 * The rules live in the platform's file service.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import type { FileRecord } from "@groundwork/store-sqlite";
import type { Hono } from "hono";
import { readMultipart } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";

export function renderFile(file: FileRecord) {
  return {
    id: file.id,
    object: "file" as const,
    filename: file.filename,
    purpose: file.purpose,
    mime: file.mime,
    bytes: file.byteSize,
    sha256: file.sha256,
    createdAt: new Date(file.createdAt).toISOString(),
  };
}

export function registerFileRoutes(app: Hono<AppEnv>): void {
  app.post("/v1/files", requireRole("member"), async (c) => {
    const form = await readMultipart(c, "a `file` part and a `purpose` field", "file");
    const file = form.get("file");
    if (!(file instanceof File)) throw invalidRequest("file is required (a file part)", { param: "file" });
    const purpose = form.get("purpose");
    const record = await c.var.groundwork.files.upload(c.var.principal, {
      filename: file.name,
      purpose: typeof purpose === "string" ? purpose : "",
      content: new Uint8Array(await file.arrayBuffer()),
      mimeType: file.type,
    });
    return c.json(renderFile(record), 201);
  });

  app.get("/v1/files", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const files = c.var.groundwork.files;
    const { items, total } = await files.list(c.var.principal.organizationId, page, c.req.query("purpose"));
    return c.json(toPage(items.map(renderFile), page, total));
  });

  app.get("/v1/files/:id", async (c) =>
    c.json(renderFile(await c.var.groundwork.files.get(c.var.principal.organizationId, c.req.param("id")))),
  );

  app.get("/v1/files/:id/content", async (c) => {
    const { file, bytes } = await c.var.groundwork.files.content(
      c.var.principal.organizationId,
      c.req.param("id"),
    );
    return new Response(bytes, {
      status: 200,
      headers: {
        "Content-Type": file.mime,
        "Content-Length": String(bytes.byteLength),
        "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      },
    });
  });

  app.delete("/v1/files/:id", requireRole("admin"), async (c) => {
    await c.var.groundwork.files.delete(c.var.principal, c.req.param("id"));
    return c.body(null, 204);
  });
}
