/**
 * `/v1/files` (the tool server's Files group: list, upload, get, delete,
 * download). The spec shows no shapes; they follow the OpenAI Files API
 * (multipart `file` + `purpose`, `GET /v1/files/{id}/content` for the bytes)
 * with this API's conventions (page envelope, ISO timestamps) — docs/knowledge-bases.md.
 */
import { gone, invalidRequest, notFound, parsePageRequest, payloadTooLarge, toPage } from "@groundwork/core";
import { detectUpload } from "@groundwork/platform";
import type { FileRecord } from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { readMultipart } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";

export const FILE_PURPOSES = ["knowledge", "user_data", "assistants"] as const;
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

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

function fileOf(c: Context<AppEnv>, id: string): FileRecord {
  const file = c.var.store.files.get(c.var.principal.organizationId, id);
  if (file === null) throw notFound(`No file ${id}`, { param: "fileId" });
  if (file.deletedAt !== null) throw gone(`The file ${id} was deleted`, { param: "fileId" });
  return file;
}

function mimeOf(bytes: Uint8Array, filename: string, declared: string): string {
  try {
    return detectUpload(bytes, filename, declared === "" ? undefined : declared).mime;
  } catch {
    return declared === "" ? "application/octet-stream" : declared;
  }
}

export function registerFileRoutes(app: Hono<AppEnv>): void {
  app.post("/v1/files", requireRole("member"), async (c) => {
    const form = await readMultipart(c, "a `file` part and a `purpose` field", "file");
    const file = form.get("file");
    if (!(file instanceof File)) throw invalidRequest("file is required (a file part)", { param: "file" });
    const purpose = form.get("purpose");
    if (typeof purpose !== "string" || !(FILE_PURPOSES as readonly string[]).includes(purpose)) {
      throw invalidRequest(`purpose must be one of ${FILE_PURPOSES.join(", ")}`, { param: "purpose" });
    }
    if (file.size > MAX_FILE_BYTES) {
      throw payloadTooLarge(`file is ${file.size} bytes; at most ${MAX_FILE_BYTES} (25 MB) are accepted`, {
        param: "file",
        code: "file_too_large",
      });
    }
    if (file.size === 0) throw invalidRequest("file is empty", { param: "file" });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const filename = file.name || "upload";
    const record = c.var.store.files.create({
      organizationId: c.var.principal.organizationId,
      filename,
      purpose,
      mime: mimeOf(bytes, filename, file.type),
      bytes,
    });
    return c.json(renderFile(record), 201);
  });

  app.get("/v1/files", (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const purpose = c.req.query("purpose");
    if (purpose !== undefined && !(FILE_PURPOSES as readonly string[]).includes(purpose)) {
      throw invalidRequest(`purpose must be one of ${FILE_PURPOSES.join(", ")}`, { param: "purpose" });
    }
    const { items, total } = c.var.store.files.list(c.var.principal.organizationId, page, purpose);
    return c.json(toPage(items.map(renderFile), page, total));
  });

  app.get("/v1/files/:id", (c) => c.json(renderFile(fileOf(c, c.req.param("id")))));

  app.get("/v1/files/:id/content", (c) => {
    const file = fileOf(c, c.req.param("id"));
    const bytes = c.var.store.files.content(file.organizationId, file.id);
    if (bytes === null) throw gone(`The file ${file.id} was deleted`, { param: "fileId" });
    return new Response(bytes, {
      status: 200,
      headers: {
        "Content-Type": file.mime,
        "Content-Length": String(bytes.byteLength),
        "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      },
    });
  });

  app.delete("/v1/files/:id", requireRole("admin"), (c) => {
    const file = fileOf(c, c.req.param("id"));
    c.var.store.files.delete(file.organizationId, file.id);
    return c.body(null, 204);
  });
}
