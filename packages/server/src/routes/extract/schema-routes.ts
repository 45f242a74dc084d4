/**
 * Schemas, versions, labels, resolve, validate and test (spec document 2, "Schemas, versions,
 * labels"). Viewer reads, Member creates and runs, Admin deletes and deactivates.
 */
import {
  conflict,
  invalidRequest,
  notFound,
  type Page,
  type Principal,
  parsePageRequest,
  toPage,
} from "@groundwork/core";
import { lintSchema, schemaDefinitionErrors } from "@groundwork/extract";
import { isProviderType, PROVIDER_KINDS, parseModelString } from "@groundwork/gateway";
import { type ExtractionService, failureMessage } from "@groundwork/platform";
import {
  LATEST_LABEL,
  type SchemaRecord,
  type SchemaVersionRecord,
  type Store,
} from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import {
  commitVersionBody,
  createLabelBody,
  createSchemaBody,
  testBody,
  updateLabelBody,
  updateSchemaBody,
  validateBody,
} from "./bodies.js";
import { labelView, schemaView, versionView } from "./views.js";

function pageOf<T, V>(
  result: { items: T[]; total: number },
  request: { page: number; size: number },
  view: (item: T) => V,
): Page<V> {
  return toPage(result.items.map(view), request, result.total);
}

function findSchema(c: Context<AppEnv>): SchemaRecord {
  const id = c.req.param("schemaId") ?? "";
  const schema = c.var.store.schemas.get(c.var.principal.organizationId, id);
  if (schema === null) throw notFound(`No schema ${id}`);
  return schema;
}

function findVersion(c: Context<AppEnv>, schema: SchemaRecord): SchemaVersionRecord {
  const id = c.req.param("versionId") ?? "";
  const version = c.var.store.schemas.getVersion(c.var.principal.organizationId, schema.id, id);
  if (version === null) throw notFound(`Schema ${schema.id} has no version ${id}`);
  return version;
}

/** A version of this schema a label may point at. */
function labelTarget(
  store: Store,
  principal: Principal,
  schema: SchemaRecord,
  versionId: string,
): SchemaVersionRecord {
  const version = store.schemas.getVersion(principal.organizationId, schema.id, versionId);
  if (version === null) {
    throw notFound(`Schema ${schema.id} has no version ${versionId}`, { param: "schemaVersionId" });
  }
  if (!version.active) throw conflict(`Version ${versionId} is deactivated`, { param: "schemaVersionId" });
  return version;
}

/** Provider prefixes the organization configured, for the provider-rewrite lint. */
export function configuredProviders(store: Store, organizationId: string): string[] {
  return store.providers
    .list(organizationId)
    .map((record) => record.type)
    .filter(isProviderType)
    .map((type) => PROVIDER_KINDS[type].prefix);
}

function latestNumber(store: Store, schemaId: string): number | null {
  return store.schemas.latestVersion(schemaId)?.versionNumber ?? null;
}

export function registerSchemaRoutes(
  app: Hono<AppEnv>,
  service: (c: Context<AppEnv>) => ExtractionService,
): void {
  // ---- schemas ----

  app.get("/v1/schemas", requireRole("viewer"), (c) => {
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const store = c.var.store;
    const result = store.schemas.list(c.var.principal.organizationId, request, c.req.query("search"));
    return c.json(pageOf(result, request, (schema) => schemaView(schema, latestNumber(store, schema.id))));
  });

  app.post("/v1/schemas", requireRole("member"), async (c) => {
    const body = await readBody(c, createSchemaBody);
    const schema = c.var.store.schemas.create(c.var.principal.organizationId, {
      name: body.name,
      description: body.description ?? null,
    });
    return c.json(schemaView(schema), 201);
  });

  app.get("/v1/schemas/:schemaId", requireRole("viewer"), (c) => {
    const schema = findSchema(c);
    return c.json(schemaView(schema, latestNumber(c.var.store, schema.id)));
  });

  app.put("/v1/schemas/:schemaId", requireRole("member"), async (c) => {
    const schema = findSchema(c);
    const body = await readBody(c, updateSchemaBody);
    const updated = c.var.store.schemas.update(c.var.principal.organizationId, schema.id, {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.description === undefined ? {} : { description: body.description }),
    });
    if (updated === null) throw notFound(`No schema ${schema.id}`);
    return c.json(schemaView(updated, latestNumber(c.var.store, schema.id)));
  });

  app.delete("/v1/schemas/:schemaId", requireRole("admin"), (c) => {
    const schema = findSchema(c);
    c.var.store.schemas.delete(c.var.principal.organizationId, schema.id);
    return c.body(null, 204);
  });

  // ---- versions ----

  app.post("/v1/schemas/:schemaId/versions", requireRole("member"), async (c) => {
    const schema = findSchema(c);
    const body = await readBody(c, commitVersionBody);
    const [error] = schemaDefinitionErrors(body.jsonSchema);
    if (error !== undefined)
      throw invalidRequest(error.message, { param: "jsonSchema", code: "invalid_schema" });
    const version = c.var.store.schemas.commitVersion(schema.id, {
      jsonSchema: body.jsonSchema as Record<string, unknown>,
      changeDescription: body.changeDescription ?? null,
    });
    return c.json(versionView(version), 201);
  });

  app.get("/v1/schemas/:schemaId/versions", requireRole("viewer"), (c) => {
    const schema = findSchema(c);
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    return c.json(pageOf(c.var.store.schemas.listVersions(schema.id, request), request, versionView));
  });

  // Registered before `:versionId` so "latest" is never read as an id.
  app.get("/v1/schemas/:schemaId/versions/latest", requireRole("viewer"), (c) => {
    const schema = findSchema(c);
    const version = c.var.store.schemas.latestVersion(schema.id);
    if (version === null) throw notFound(`Schema ${schema.id} has no active version yet`);
    c.header("Deprecation", "true");
    c.header("Link", `</v1/schemas/${schema.id}/resolve>; rel="successor-version"`);
    return c.json(versionView(version));
  });

  app.get("/v1/schemas/:schemaId/versions/:versionId", requireRole("viewer"), (c) => {
    const schema = findSchema(c);
    return c.json(versionView(findVersion(c, schema)));
  });

  app.put("/v1/schemas/:schemaId/versions/:versionId/activate", requireRole("member"), (c) => {
    const schema = findSchema(c);
    const source = findVersion(c, schema);
    const copy = c.var.store.schemas.commitVersion(schema.id, {
      jsonSchema: source.jsonSchema,
      changeDescription: `Re-activated copy of version ${source.versionNumber}`,
      extractionConfig: source.extractionConfig,
      copiedFromVersionId: source.id,
    });
    return c.json(versionView(copy));
  });

  app.delete("/v1/schemas/:schemaId/versions/:versionId", requireRole("admin"), (c) => {
    const schema = findSchema(c);
    const version = findVersion(c, schema);
    c.var.store.schemas.deactivateVersion(schema.id, version.id);
    return c.body(null, 204);
  });

  // ---- labels ----

  app.get("/v1/schemas/:schemaId/labels", requireRole("viewer"), (c) => {
    const schema = findSchema(c);
    return c.json(c.var.store.schemas.listLabels(schema.id).map(labelView));
  });

  app.post("/v1/schemas/:schemaId/labels", requireRole("member"), async (c) => {
    const schema = findSchema(c);
    const body = await readBody(c, createLabelBody);
    if (body.name === LATEST_LABEL) {
      throw conflict(`"${LATEST_LABEL}" is the system label; it moves to each new version by itself`, {
        param: "name",
      });
    }
    labelTarget(c.var.store, c.var.principal, schema, body.schemaVersionId);
    if (!c.var.store.schemas.createLabel(schema.id, body.name, body.schemaVersionId)) {
      throw conflict(`Schema ${schema.id} already has a label "${body.name}"; move it with PUT`, {
        param: "name",
      });
    }
    return c.json(labelView(c.var.store.schemas.getLabel(schema.id, body.name)!), 201);
  });

  app.put("/v1/schemas/:schemaId/labels/:labelName", requireRole("member"), async (c) => {
    const schema = findSchema(c);
    const name = c.req.param("labelName");
    const body = await readBody(c, updateLabelBody);
    if (name === LATEST_LABEL) {
      throw conflict(`"${LATEST_LABEL}" is the system label and cannot be moved by hand`);
    }
    if (c.var.store.schemas.getLabel(schema.id, name) === null)
      throw notFound(`Schema ${schema.id} has no label "${name}"`);
    labelTarget(c.var.store, c.var.principal, schema, body.schemaVersionId);
    c.var.store.schemas.updateLabel(schema.id, name, body.schemaVersionId);
    return c.json(labelView(c.var.store.schemas.getLabel(schema.id, name)!));
  });

  app.delete("/v1/schemas/:schemaId/labels/:labelName", requireRole("admin"), (c) => {
    const schema = findSchema(c);
    const name = c.req.param("labelName");
    if (name === LATEST_LABEL) throw conflict(`"${LATEST_LABEL}" is the system label and cannot be deleted`);
    if (!c.var.store.schemas.deleteLabel(schema.id, name))
      throw notFound(`Schema ${schema.id} has no label "${name}"`);
    return c.body(null, 204);
  });

  app.get("/v1/schemas/:schemaId/resolve", requireRole("viewer"), (c) => {
    const schema = findSchema(c);
    const labelName = c.req.query("label") || LATEST_LABEL;
    const label = c.var.store.schemas.getLabel(schema.id, labelName);
    if (label === null) throw notFound(`Schema ${schema.id} has no label "${labelName}"`, { param: "label" });
    const version =
      label.schemaVersionId === null ? null : c.var.store.schemas.versionById(label.schemaVersionId);
    if (version === null)
      throw notFound(`Label "${labelName}" of schema ${schema.id} points at no version yet`, {
        param: "label",
      });
    return c.json({
      schemaId: schema.id,
      schemaName: schema.name,
      versionId: version.id,
      versionNumber: version.versionNumber,
      jsonSchema: version.jsonSchema,
      label: labelName,
    });
  });

  // ---- validate and test ----

  app.post("/v1/schemas/:schemaId/validate", requireRole("viewer"), async (c) => {
    findSchema(c);
    const body = await readBody(c, validateBody);
    const providers = configuredProviders(c.var.store, c.var.principal.organizationId);
    return c.json(lintSchema(body.jsonSchema, { providers }));
  });

  app.post("/v1/schemas/:schemaId/test", requireRole("member"), async (c) => {
    const schema = findSchema(c);
    const body = await readBody(c, testBody);
    parseModelString(body.model);
    let jsonSchema: Record<string, unknown>;
    if (body.jsonSchema === undefined || body.jsonSchema === null) {
      const latest = c.var.store.schemas.latestVersion(schema.id);
      if (latest === null) {
        throw invalidRequest("jsonSchema is required: the schema has no active version to test", {
          param: "jsonSchema",
        });
      }
      jsonSchema = latest.jsonSchema;
    } else {
      const [error] = schemaDefinitionErrors(body.jsonSchema);
      if (error !== undefined)
        throw invalidRequest(error.message, { param: "jsonSchema", code: "invalid_schema" });
      jsonSchema = body.jsonSchema as Record<string, unknown>;
    }
    const engine = service(c).engineFor(c.var.principal);
    try {
      const run = await engine.extractOnce(
        { jsonSchema, schemaName: schema.name, inputText: body.sampleText, model: body.model },
        c.req.raw.signal,
      );
      return c.json({
        success: true,
        extractedData: run.output,
        inputTokens: run.inputTokens,
        outputTokens: run.outputTokens,
        processingDurationMs: run.durationMs,
        modelUsed: body.model,
      });
    } catch (error) {
      return c.json({
        success: false,
        extractedData: null,
        inputTokens: 0,
        outputTokens: 0,
        processingDurationMs: 0,
        modelUsed: body.model,
        errorMessage: failureMessage(error, c.req.raw.signal),
      });
    }
  });
}
