/**
 * `/v1/knowledge-bases` (spec document 3, "Knowledge bases"): CRUD with
 * configuration versions, uploads and attachments ingested on the job queue,
 * documents and revisions, retry, hybrid search and citations — each route
 * parses, calls the platform's knowledge service and renders.
 */
import { invalidRequest, parsePageRequest, payloadTooLarge, toPage } from "@groundwork/core";
import { REVISION_STATUSES, type RevisionStatus } from "@groundwork/kb";
import {
  type DocumentUpload,
  knowledgeBaseChangesSchema,
  knowledgeBaseFieldsSchema,
} from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { readBody, readMultipart } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import {
  renderAccepted,
  renderDocument,
  renderKnowledgeBase,
  renderRevision,
  renderUploadOutcome,
} from "./render.js";

export const MAX_UPLOAD_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_UPLOAD_REQUEST_BYTES = 104 * 1024 * 1024;

const UPLOAD_PATH = /^\/v1\/knowledge-bases\/[^/]+\/documents\/?$/;

/** Requests that set their own body limit (the app-wide 32 MiB limit must not cut them first). */
export function hasOwnBodyLimit(method: string, path: string): boolean {
  return method === "POST" && UPLOAD_PATH.test(path);
}

const searchBody = z.object({
  query: z.string().min(1, "must not be empty"),
  topK: z.number().optional(),
  metadataFilter: z.record(z.string(), z.unknown()).optional(),
});

const attachBody = z.object({ fileId: z.string().min(1) });

function metadataField(value: File | string | null): Record<string, unknown> {
  if (value === null) return {};
  const text = typeof value === "string" ? value : null;
  if (text === null || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest("metadata: not valid JSON", { param: "metadata" });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalidRequest("metadata: must be a JSON object", { param: "metadata" });
  }
  return parsed as Record<string, unknown>;
}

/**
 * The files of an upload request, read lazily: the platform checks the knowledge base
 * before the multipart body is parsed, and each file's bytes are read when it is accepted.
 */
async function* uploadedFiles(c: Context<AppEnv>): AsyncGenerator<DocumentUpload> {
  const form = await readMultipart(c, "one or more `files` parts", "files");
  const files = [...form.getAll("files"), ...form.getAll("files[]")].filter(
    (item): item is File => item instanceof File,
  );
  if (files.length === 0)
    throw invalidRequest("files: at least one file part is required", { param: "files" });
  const tooLarge = files.find((file) => file.size > MAX_UPLOAD_FILE_BYTES);
  if (tooLarge !== undefined) {
    throw payloadTooLarge(
      `${tooLarge.name} is ${tooLarge.size} bytes; at most ${MAX_UPLOAD_FILE_BYTES} (25 MB) per file are accepted`,
      { param: "files", code: "file_too_large" },
    );
  }
  const metadata = metadataField(form.get("metadata"));
  for (const [index, file] of files.entries()) {
    yield {
      filename: file.name || `document-${index + 1}`,
      content: new Uint8Array(await file.arrayBuffer()),
      mimeType: file.type === "" || file.type === "application/octet-stream" ? undefined : file.type,
      metadata,
    };
  }
}

function revisionStatus(value: string | undefined): RevisionStatus | undefined {
  if (value !== undefined && !(REVISION_STATUSES as readonly string[]).includes(value)) {
    throw invalidRequest(`status must be one of ${REVISION_STATUSES.join(", ")}`, { param: "status" });
  }
  return value as RevisionStatus | undefined;
}

export function registerKnowledgeBaseRoutes(app: Hono<AppEnv>): void {
  const knowledge = (c: Context<AppEnv>) => c.var.groundwork.knowledge;
  const organizationOf = (c: Context<AppEnv>) => c.var.principal.organizationId;
  const pageOf = (c: Context<AppEnv>) =>
    parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });

  app.post("/v1/knowledge-bases", requireRole("member"), async (c) => {
    const body = await readBody(c, knowledgeBaseFieldsSchema);
    return c.json(renderKnowledgeBase(await knowledge(c).createKnowledgeBase(c.var.principal, body)), 201);
  });

  app.get("/v1/knowledge-bases", async (c) => {
    const page = pageOf(c);
    const { items, total } = await knowledge(c).listKnowledgeBases(organizationOf(c), page);
    return c.json(toPage(items.map(renderKnowledgeBase), page, total));
  });

  app.get("/v1/knowledge-bases/:id", async (c) =>
    c.json(renderKnowledgeBase(await knowledge(c).knowledgeBase(organizationOf(c), c.req.param("id")))),
  );

  app.patch("/v1/knowledge-bases/:id", requireRole("member"), async (c) => {
    const body = await readBody(c, knowledgeBaseChangesSchema);
    const updated = await knowledge(c).updateKnowledgeBase(c.var.principal, c.req.param("id"), body);
    return c.json(renderKnowledgeBase(updated));
  });

  app.delete("/v1/knowledge-bases/:id", requireRole("admin"), async (c) => {
    await knowledge(c).deleteKnowledgeBase(c.var.principal, c.req.param("id"));
    return c.body(null, 204);
  });

  // ---- documents ----

  app.post(
    "/v1/knowledge-bases/:id/documents",
    requireRole("member"),
    bodyLimit({
      maxSize: MAX_UPLOAD_REQUEST_BYTES,
      onError: () => {
        throw payloadTooLarge(
          `The upload is larger than ${MAX_UPLOAD_REQUEST_BYTES} bytes (104 MB per request)`,
        );
      },
    }),
    async (c) => {
      const outcomes = await knowledge(c).addDocuments(c.var.principal, c.req.param("id"), uploadedFiles(c));
      return c.json(outcomes.map(renderUploadOutcome), 202);
    },
  );

  app.post("/v1/knowledge-bases/:id/documents/attach", requireRole("member"), async (c) => {
    const body = await readBody(c, attachBody);
    const accepted = await knowledge(c).attachFile(c.var.principal, c.req.param("id"), body.fileId);
    return c.json(renderAccepted(accepted), 202);
  });

  app.get("/v1/knowledge-bases/:id/documents", async (c) => {
    const page = pageOf(c);
    const status = revisionStatus(c.req.query("status"));
    const { items, total } = await knowledge(c).listDocuments(
      organizationOf(c),
      c.req.param("id"),
      page,
      status,
    );
    return c.json(toPage(items.map(renderDocument), page, total));
  });

  app.get("/v1/knowledge-bases/:id/documents/:documentId", async (c) =>
    c.json(
      renderDocument(
        await knowledge(c).document(organizationOf(c), c.req.param("id"), c.req.param("documentId")),
      ),
    ),
  );

  app.delete("/v1/knowledge-bases/:id/documents/:documentId", requireRole("admin"), async (c) => {
    await knowledge(c).deleteDocument(c.var.principal, c.req.param("id"), c.req.param("documentId"));
    return c.body(null, 204);
  });

  app.get("/v1/knowledge-bases/:id/documents/:documentId/versions/:versionId", async (c) => {
    const { id, documentId, versionId } = c.req.param();
    return c.json(
      renderRevision(await knowledge(c).documentVersion(organizationOf(c), id, documentId, versionId)),
    );
  });

  app.post("/v1/knowledge-bases/:id/documents/:documentId/retry", requireRole("member"), async (c) => {
    const reset = await knowledge(c).retryDocument(
      c.var.principal,
      c.req.param("id"),
      c.req.param("documentId"),
    );
    return c.json(renderRevision(reset), 202);
  });

  // ---- retrieval ----

  app.post("/v1/knowledge-bases/:id/search", async (c) => {
    const body = await readBody(c, searchBody);
    const result = await knowledge(c).search(c.var.principal, [c.req.param("id")], {
      query: body.query,
      ...(body.topK === undefined ? {} : { topK: body.topK }),
      ...(body.metadataFilter === undefined ? {} : { metadataFilter: body.metadataFilter }),
      signal: c.req.raw.signal,
    });
    if (result.denseFailures.length > 0) {
      c.var.logger.warn("knowledge search degraded to keywords", {
        requestId: c.var.requestId,
        failures: result.denseFailures,
      });
    }
    return c.json({
      query: result.query,
      hits: result.hits,
      ...(result.degraded === undefined ? {} : { degraded: result.degraded }),
    });
  });

  app.get("/v1/knowledge-bases/:id/citations/:chunkId", async (c) =>
    c.json(await knowledge(c).citation(organizationOf(c), c.req.param("id"), c.req.param("chunkId"))),
  );
}
