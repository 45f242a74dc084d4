/**
 * Schemas, versions, labels, resolve, validate and test (spec document 2, "Schemas, versions,
 * labels"). Viewer reads, Member creates and runs, Admin deletes and deactivates. The rules
 * live in the platform's schema service.
 */
import { type Page, parsePageRequest, toPage } from "@groundwork/core";
import type { SchemaService } from "@groundwork/platform";
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

export function registerSchemaRoutes(app: Hono<AppEnv>): void {
  const schemas = (c: Context<AppEnv>): SchemaService => c.var.groundwork.schemas;
  const org = (c: Context<AppEnv>) => c.var.principal.organizationId;
  const schemaId = (c: Context<AppEnv>) => c.req.param("schemaId") ?? "";
  const versionId = (c: Context<AppEnv>) => c.req.param("versionId") ?? "";
  const page = (c: Context<AppEnv>) =>
    parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });

  // ---- schemas ----

  app.get("/v1/schemas", requireRole("viewer"), async (c) => {
    const request = page(c);
    const result = await schemas(c).list(org(c), request, c.req.query("search"));
    return c.json(pageOf(result, request, (entry) => schemaView(entry.schema, entry.latestVersionNumber)));
  });

  app.post("/v1/schemas", requireRole("member"), async (c) => {
    const body = await readBody(c, createSchemaBody);
    return c.json(schemaView(await schemas(c).create(org(c), body)), 201);
  });

  app.get("/v1/schemas/:schemaId", requireRole("viewer"), async (c) => {
    const entry = await schemas(c).withLatest(await schemas(c).get(org(c), schemaId(c)));
    return c.json(schemaView(entry.schema, entry.latestVersionNumber));
  });

  app.put("/v1/schemas/:schemaId", requireRole("member"), async (c) => {
    await schemas(c).get(org(c), schemaId(c));
    const body = await readBody(c, updateSchemaBody);
    const entry = await schemas(c).update(org(c), schemaId(c), body);
    return c.json(schemaView(entry.schema, entry.latestVersionNumber));
  });

  app.delete("/v1/schemas/:schemaId", requireRole("admin"), async (c) => {
    await schemas(c).delete(org(c), schemaId(c));
    return c.body(null, 204);
  });

  // ---- versions ----

  app.post("/v1/schemas/:schemaId/versions", requireRole("member"), async (c) => {
    await schemas(c).get(org(c), schemaId(c));
    const body = await readBody(c, commitVersionBody);
    return c.json(versionView(await schemas(c).commitVersion(org(c), schemaId(c), body)), 201);
  });

  app.get("/v1/schemas/:schemaId/versions", requireRole("viewer"), async (c) => {
    const request = page(c);
    return c.json(pageOf(await schemas(c).listVersions(org(c), schemaId(c), request), request, versionView));
  });

  // Registered before `:versionId` so "latest" is never read as an id.
  app.get("/v1/schemas/:schemaId/versions/latest", requireRole("viewer"), async (c) => {
    const version = await schemas(c).latestVersion(org(c), schemaId(c));
    c.header("Deprecation", "true");
    c.header("Link", `</v1/schemas/${version.schemaId}/resolve>; rel="successor-version"`);
    return c.json(versionView(version));
  });

  app.get("/v1/schemas/:schemaId/versions/:versionId", requireRole("viewer"), async (c) =>
    c.json(versionView(await schemas(c).getVersion(org(c), schemaId(c), versionId(c)))),
  );

  app.put("/v1/schemas/:schemaId/versions/:versionId/activate", requireRole("member"), async (c) =>
    c.json(versionView(await schemas(c).activateVersion(org(c), schemaId(c), versionId(c)))),
  );

  app.delete("/v1/schemas/:schemaId/versions/:versionId", requireRole("admin"), async (c) => {
    await schemas(c).deactivateVersion(org(c), schemaId(c), versionId(c));
    return c.body(null, 204);
  });

  // ---- labels ----

  app.get("/v1/schemas/:schemaId/labels", requireRole("viewer"), async (c) =>
    c.json((await schemas(c).listLabels(org(c), schemaId(c))).map(labelView)),
  );

  app.post("/v1/schemas/:schemaId/labels", requireRole("member"), async (c) => {
    await schemas(c).get(org(c), schemaId(c));
    const body = await readBody(c, createLabelBody);
    return c.json(
      labelView(await schemas(c).createLabel(org(c), schemaId(c), body.name, body.schemaVersionId)),
      201,
    );
  });

  app.put("/v1/schemas/:schemaId/labels/:labelName", requireRole("member"), async (c) => {
    await schemas(c).get(org(c), schemaId(c));
    const body = await readBody(c, updateLabelBody);
    const label = await schemas(c).moveLabel(
      org(c),
      schemaId(c),
      c.req.param("labelName"),
      body.schemaVersionId,
    );
    return c.json(labelView(label));
  });

  app.delete("/v1/schemas/:schemaId/labels/:labelName", requireRole("admin"), async (c) => {
    await schemas(c).deleteLabel(org(c), schemaId(c), c.req.param("labelName"));
    return c.body(null, 204);
  });

  app.get("/v1/schemas/:schemaId/resolve", requireRole("viewer"), async (c) =>
    c.json(await schemas(c).resolve(org(c), schemaId(c), c.req.query("label") || undefined)),
  );

  // ---- validate and test ----

  app.post("/v1/schemas/:schemaId/validate", requireRole("viewer"), async (c) => {
    await schemas(c).get(org(c), schemaId(c));
    const body = await readBody(c, validateBody);
    return c.json(await schemas(c).validate(org(c), schemaId(c), body.jsonSchema));
  });

  app.post("/v1/schemas/:schemaId/test", requireRole("member"), async (c) => {
    await schemas(c).get(org(c), schemaId(c));
    const body = await readBody(c, testBody);
    return c.json(await schemas(c).test(c.var.principal, schemaId(c), body, c.req.raw.signal));
  });
}
