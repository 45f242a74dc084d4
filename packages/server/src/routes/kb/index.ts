/**
 * `/v1/knowledge-bases` (spec document 3, "Knowledge bases"): CRUD with
 * configuration versions, uploads and attachments ingested on the job queue,
 * documents and revisions, retry, hybrid search and citations.
 */
import {
  conflict,
  gone,
  invalidRequest,
  notFound,
  type Principal,
  parsePageRequest,
  payloadTooLarge,
  toPage,
} from "@groundwork/core";
import { embeddingCatalogue, type ProviderType } from "@groundwork/gateway";
import {
  BUILTIN_PROVIDER_ID,
  CHUNKING_STRATEGIES,
  checkChunking,
  checkReranker,
  checkTextSearchLanguage,
  type KnowledgeBaseConfig,
  type KnowledgeBaseRecord,
  LIMITS,
  PROVISIONED_EMBEDDING_DIM,
  REVISION_STATUSES,
  type RevisionRecord,
  type RevisionStatus,
  resolveCitation,
  SLUG_PATTERN,
  type TextSearchLanguage,
} from "@groundwork/kb";
import type { KnowledgeService } from "@groundwork/platform";
import { detectUpload, isDocumentError } from "@groundwork/platform";
import type { Store } from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { readBody, readMultipart } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderAccepted, renderDocument, renderKnowledgeBase, renderRevision } from "./render.js";

export const MAX_UPLOAD_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_UPLOAD_REQUEST_BYTES = 104 * 1024 * 1024;

const UPLOAD_PATH = /^\/v1\/knowledge-bases\/[^/]+\/documents\/?$/;

/** Requests that set their own body limit (the app-wide 32 MiB limit must not cut them first). */
export function hasOwnBodyLimit(method: string, path: string): boolean {
  return method === "POST" && UPLOAD_PATH.test(path);
}

const fields = {
  name: z.string().trim().min(1).max(255),
  slug: z
    .string()
    .max(100)
    .regex(SLUG_PATTERN, "must be lowercase letters, digits and single hyphens (e.g. product-docs)"),
  description: z.string().max(LIMITS.description).nullable(),
  embeddingProviderId: z.string().min(1),
  embeddingModel: z.string().min(1),
  embeddingDim: z.number().int().positive(),
  chunkingStrategy: z.enum(CHUNKING_STRATEGIES),
  chunkSize: z.number().int().min(LIMITS.chunkSize.min).max(LIMITS.chunkSize.max),
  chunkOverlap: z.number().int().min(LIMITS.chunkOverlap.min).max(LIMITS.chunkOverlap.max),
  parentChunkSize: z.number().int().min(LIMITS.parentChunkSize.min).max(LIMITS.parentChunkSize.max),
  hybridSearchEnabled: z.boolean(),
  rerankerProviderId: z.string().nullable(),
  textSearchLanguage: z.string().min(1),
};

const createBody = z.object({
  name: fields.name,
  slug: fields.slug,
  description: fields.description.optional(),
  embeddingProviderId: fields.embeddingProviderId,
  embeddingModel: fields.embeddingModel,
  embeddingDim: fields.embeddingDim,
  chunkingStrategy: fields.chunkingStrategy.optional(),
  chunkSize: fields.chunkSize.optional(),
  chunkOverlap: fields.chunkOverlap.optional(),
  parentChunkSize: fields.parentChunkSize.optional(),
  hybridSearchEnabled: fields.hybridSearchEnabled.optional(),
  rerankerProviderId: fields.rerankerProviderId.optional(),
  textSearchLanguage: fields.textSearchLanguage.optional(),
});

const patchBody = createBody.partial();

const searchBody = z.object({
  query: z.string().min(1, "must not be empty"),
  topK: z.number().optional(),
  metadataFilter: z.record(z.string(), z.unknown()).optional(),
});

const attachBody = z.object({ fileId: z.string().min(1) });

/** Checks the model against the provider's catalogue at the provisioned width, without calling it. */
function checkEmbeddingModel(
  store: Store,
  organizationId: string,
  config: Pick<KnowledgeBaseConfig, "embeddingProviderId" | "embeddingModel" | "embeddingDim">,
  builtinConfigured: boolean,
): void {
  let kind: ProviderType | "builtin" = "builtin";
  if (config.embeddingProviderId !== BUILTIN_PROVIDER_ID) {
    const provider = store.providers.get(organizationId, config.embeddingProviderId);
    if (provider === null) {
      throw invalidRequest(`No provider ${config.embeddingProviderId} is configured for this organization`, {
        param: "embeddingProviderId",
      });
    }
    kind = provider.type as ProviderType;
  }
  const catalogue = embeddingCatalogue(kind, builtinConfigured);
  const widths = catalogue.models.filter((m) => m.id === config.embeddingModel).map((m) => m.dimensions);
  if (widths.length === 0) {
    const known = [...new Set(catalogue.models.map((m) => m.id))];
    throw invalidRequest(
      `The provider does not serve the embedding model "${config.embeddingModel}"${
        known.length === 0 ? " (it has no catalogued embedding model)" : `; it serves ${known.join(", ")}`
      }`,
      { param: "embeddingModel" },
    );
  }
  if (config.embeddingDim !== PROVISIONED_EMBEDDING_DIM) {
    throw invalidRequest(
      `embeddingDim ${config.embeddingDim} is not provisioned; knowledge bases store ${PROVISIONED_EMBEDDING_DIM}-wide vectors`,
      { param: "embeddingDim" },
    );
  }
  if (!widths.includes(config.embeddingDim)) {
    throw invalidRequest(
      `"${config.embeddingModel}" cannot serve ${config.embeddingDim} dimensions (it serves ${widths.join(", ")})`,
      { param: "embeddingDim" },
    );
  }
}

function knowledgeBaseOf(c: Context<AppEnv>, id: string): KnowledgeBaseRecord {
  const kb = c.var.store.knowledgeBases.get(c.var.principal.organizationId, id);
  if (kb === null) throw notFound(`No knowledge base ${id}`, { param: "knowledgeBaseId" });
  return kb;
}

function documentOf(c: Context<AppEnv>, kb: KnowledgeBaseRecord, documentId: string) {
  const document = c.var.store.knowledgeBases.documentIn(kb.id, documentId);
  if (document === null)
    throw notFound(`No document ${documentId} in knowledge base ${kb.id}`, { param: "documentId" });
  return document;
}

function revisionMap(store: Store, documentIds: readonly string[]): Map<string, RevisionRecord> {
  return new Map(store.knowledgeBases.revisionsOf(documentIds).map((revision) => [revision.id, revision]));
}

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

type UploadEntry =
  | { filename: string; upload: ReturnType<typeof renderAccepted> }
  | { filename: string; error: { code: string; message: string } };

async function accept(
  service: KnowledgeService,
  kb: KnowledgeBaseRecord,
  principal: Principal,
  file: { filename: string; bytes: Uint8Array; mime: string | undefined; metadata: Record<string, unknown> },
): Promise<UploadEntry> {
  if (file.bytes.byteLength === 0) {
    return { filename: file.filename, error: { code: "empty_file", message: "The file is empty" } };
  }
  let mime: string;
  try {
    mime = detectUpload(file.bytes, file.filename, file.mime).mime;
  } catch (error) {
    if (!isDocumentError(error)) throw error;
    return { filename: file.filename, error: { code: error.code, message: error.message } };
  }
  const accepted = service.store.knowledgeBases.acceptUpload({
    knowledgeBase: kb,
    filename: file.filename,
    mime,
    bytes: file.bytes,
    metadata: file.metadata,
    apiKeyId: principal.apiKeyId === "" ? null : principal.apiKeyId,
  });
  await service.enqueueIngest(accepted.revision);
  return { filename: file.filename, upload: renderAccepted(accepted.document, accepted.revision) };
}

export interface KnowledgeRouteOptions {
  builtinConfigured: boolean;
}

export function registerKnowledgeBaseRoutes(app: Hono<AppEnv>, options: KnowledgeRouteOptions): void {
  const service = (c: Context<AppEnv>) => c.var.groundwork.knowledge;

  app.post("/v1/knowledge-bases", requireRole("member"), async (c) => {
    const body = await readBody(c, createBody);
    const config: KnowledgeBaseConfig = {
      name: body.name,
      slug: body.slug,
      description: body.description ?? null,
      embeddingProviderId: body.embeddingProviderId,
      embeddingModel: body.embeddingModel,
      embeddingDim: body.embeddingDim,
      chunkingStrategy: body.chunkingStrategy ?? "HIERARCHICAL",
      chunkSize: body.chunkSize ?? LIMITS.chunkSize.default,
      chunkOverlap: body.chunkOverlap ?? LIMITS.chunkOverlap.default,
      parentChunkSize: body.parentChunkSize ?? LIMITS.parentChunkSize.default,
      hybridSearchEnabled: body.hybridSearchEnabled ?? true,
      rerankerProviderId: checkReranker(body.rerankerProviderId),
      textSearchLanguage: checkTextSearchLanguage(body.textSearchLanguage ?? "simple"),
    };
    checkChunking(config);
    checkEmbeddingModel(c.var.store, c.var.principal.organizationId, config, options.builtinConfigured);
    const kb = c.var.store.knowledgeBases.create(c.var.principal.organizationId, config);
    return c.json(renderKnowledgeBase(kb), 201);
  });

  app.get("/v1/knowledge-bases", (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = c.var.store.knowledgeBases.list(c.var.principal.organizationId, page);
    return c.json(toPage(items.map(renderKnowledgeBase), page, total));
  });

  app.get("/v1/knowledge-bases/:id", (c) =>
    c.json(renderKnowledgeBase(knowledgeBaseOf(c, c.req.param("id")))),
  );

  app.patch("/v1/knowledge-bases/:id", requireRole("member"), async (c) => {
    const current = knowledgeBaseOf(c, c.req.param("id"));
    const body = await readBody(c, patchBody);
    if (body.embeddingDim !== undefined && body.embeddingDim !== current.embeddingDim) {
      throw invalidRequest(`embeddingDim cannot change after creation (it is ${current.embeddingDim})`, {
        param: "embeddingDim",
      });
    }
    const config: KnowledgeBaseConfig = {
      name: body.name ?? current.name,
      slug: body.slug ?? current.slug,
      description: body.description === undefined ? current.description : body.description,
      embeddingProviderId: body.embeddingProviderId ?? current.embeddingProviderId,
      embeddingModel: body.embeddingModel ?? current.embeddingModel,
      embeddingDim: current.embeddingDim,
      chunkingStrategy: body.chunkingStrategy ?? current.chunkingStrategy,
      chunkSize: body.chunkSize ?? current.chunkSize,
      chunkOverlap: body.chunkOverlap ?? current.chunkOverlap,
      parentChunkSize: body.parentChunkSize ?? current.parentChunkSize,
      hybridSearchEnabled: body.hybridSearchEnabled ?? current.hybridSearchEnabled,
      rerankerProviderId:
        body.rerankerProviderId === undefined
          ? current.rerankerProviderId
          : checkReranker(body.rerankerProviderId),
      textSearchLanguage: current.textSearchLanguage,
    };
    checkChunking(config);
    if (body.embeddingProviderId !== undefined || body.embeddingModel !== undefined) {
      checkEmbeddingModel(c.var.store, c.var.principal.organizationId, config, options.builtinConfigured);
    }
    // Language: omitted leaves a running reindex alone; the active one cancels a pending change;
    // another one (re)starts the background reindex.
    let pending: TextSearchLanguage | null = current.pendingTextSearchLanguage;
    let reindex: TextSearchLanguage | null = null;
    if (body.textSearchLanguage !== undefined) {
      const wanted = checkTextSearchLanguage(body.textSearchLanguage);
      if (wanted === current.textSearchLanguage) pending = null;
      else if (wanted !== current.pendingTextSearchLanguage) {
        pending = wanted;
        reindex = wanted;
      }
    }
    const updated = c.var.store.knowledgeBases.update(current.organizationId, current.id, config, pending);
    if (updated === null) throw notFound(`No knowledge base ${current.id}`, { param: "knowledgeBaseId" });
    if (reindex !== null) await service(c).enqueueReindex(updated, reindex);
    return c.json(renderKnowledgeBase(updated));
  });

  app.delete("/v1/knowledge-bases/:id", requireRole("admin"), (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    c.var.store.knowledgeBases.softDelete(kb.organizationId, kb.id);
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
      const kb = knowledgeBaseOf(c, c.req.param("id"));
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
      const entries: UploadEntry[] = [];
      for (const [index, file] of files.entries()) {
        entries.push(
          await accept(service(c), kb, c.var.principal, {
            filename: file.name || `document-${index + 1}`,
            bytes: new Uint8Array(await file.arrayBuffer()),
            mime: file.type === "" || file.type === "application/octet-stream" ? undefined : file.type,
            metadata,
          }),
        );
      }
      return c.json(entries, 202);
    },
  );

  app.post("/v1/knowledge-bases/:id/documents/attach", requireRole("member"), async (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const body = await readBody(c, attachBody);
    const organizationId = c.var.principal.organizationId;
    const file = c.var.store.files.get(organizationId, body.fileId);
    if (file === null) throw notFound(`No file ${body.fileId}`, { param: "fileId" });
    if (file.deletedAt !== null) throw gone(`The file ${body.fileId} was deleted`, { param: "fileId" });
    if (file.purpose !== "knowledge") {
      throw invalidRequest(
        `The file's purpose is "${file.purpose}"; only files with purpose "knowledge" can be attached`,
        {
          param: "fileId",
        },
      );
    }
    const bytes = c.var.store.files.content(organizationId, file.id);
    if (bytes === null) throw gone(`The file ${body.fileId} was deleted`, { param: "fileId" });
    const entry = await accept(service(c), kb, c.var.principal, {
      filename: file.filename,
      bytes,
      mime: file.mime,
      metadata: { fileId: file.id },
    });
    if ("error" in entry)
      throw invalidRequest(`${file.filename}: ${entry.error.message}`, {
        param: "fileId",
        code: entry.error.code,
      });
    return c.json(entry.upload, 202);
  });

  app.get("/v1/knowledge-bases/:id/documents", (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const status = c.req.query("status");
    if (status !== undefined && !(REVISION_STATUSES as readonly string[]).includes(status)) {
      throw invalidRequest(`status must be one of ${REVISION_STATUSES.join(", ")}`, { param: "status" });
    }
    const { items, total } = c.var.store.knowledgeBases.listDocuments(
      kb.id,
      page,
      status as RevisionStatus | undefined,
    );
    const revisions = revisionMap(
      c.var.store,
      items.map((d) => d.id),
    );
    return c.json(
      toPage(
        items.map((d) => renderDocument(d, revisions)),
        page,
        total,
      ),
    );
  });

  app.get("/v1/knowledge-bases/:id/documents/:documentId", (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const document = documentOf(c, kb, c.req.param("documentId"));
    return c.json(renderDocument(document, revisionMap(c.var.store, [document.id])));
  });

  app.delete("/v1/knowledge-bases/:id/documents/:documentId", requireRole("admin"), (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const document = documentOf(c, kb, c.req.param("documentId"));
    c.var.store.knowledgeBases.deleteDocument(kb.id, document.id);
    return c.body(null, 204);
  });

  app.get("/v1/knowledge-bases/:id/documents/:documentId/versions/:versionId", async (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const document = documentOf(c, kb, c.req.param("documentId"));
    const revision = c.var.store.knowledgeBases.revisionOf(document.id, c.req.param("versionId"));
    if (revision === null)
      throw notFound(`No version ${c.req.param("versionId")} of document ${document.id}`, {
        param: "versionId",
      });
    return c.json(renderRevision(await service(c).reconcile(revision)));
  });

  app.post("/v1/knowledge-bases/:id/documents/:documentId/retry", requireRole("member"), async (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const document = documentOf(c, kb, c.req.param("documentId"));
    const store = c.var.store.knowledgeBases;
    const latest = await service(c).reconcile(store.getRevision(document.latestRevisionId) as RevisionRecord);
    if (latest.status !== "ERROR") {
      throw conflict(
        `Only a revision in ERROR can be retried; version ${latest.versionNo} is ${latest.status}`,
        {
          param: "documentId",
        },
      );
    }
    if (!store.hasSource(latest.id)) {
      throw conflict("The upload of this revision is no longer stored; upload the file again", {
        param: "documentId",
      });
    }
    store.resetForRetry(latest.id);
    const reset = store.getRevision(latest.id) as RevisionRecord;
    await service(c).enqueueIngest(reset);
    return c.json(renderRevision(reset), 202);
  });

  // ---- retrieval ----

  app.post("/v1/knowledge-bases/:id/search", async (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const body = await readBody(c, searchBody);
    const result = await service(c).search(c.var.principal, [kb], {
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

  app.get("/v1/knowledge-bases/:id/citations/:chunkId", async (c) => {
    const kb = knowledgeBaseOf(c, c.req.param("id"));
    const citation = await resolveCitation(c.var.store.knowledgeBases, kb.id, c.req.param("chunkId"));
    return c.json(citation);
  });
}
