/**
 * Datasets (PLATFORM.md §8): Viewer lists and reads, Member creates and updates datasets,
 * items and versions, Admin deletes a dataset. The routes parse and render; the rules live
 * in the platform's dataset service.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import {
  datasetCreateBody,
  datasetItemBody,
  datasetItemsBatchBody,
  datasetItemUpdateBody,
  datasetUpdateBody,
  datasetVersionBody,
} from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { readBody, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { readBodyText } from "../../http/node-request.js";
import { renderDataset, renderItem, renderVersion } from "./render.js";

const page = (c: Context<AppEnv>) =>
  parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
const datasetId = (c: Context<AppEnv>) => c.req.param("datasetId") ?? "";
const itemId = (c: Context<AppEnv>) => c.req.param("itemId") ?? "";

export function registerDatasetRoutes(app: Hono<AppEnv>): void {
  const datasets = (c: Context<AppEnv>) => c.var.groundwork.datasets;

  app.get("/v1/datasets", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await datasets(c).list(c.var.principal, c.req.query(), request);
    return c.json(toPage(items.map(renderDataset), request, total));
  });

  app.post("/v1/datasets", requireRole("member"), async (c) => {
    const body = await readBody(c, datasetCreateBody);
    return c.json(renderDataset(await datasets(c).create(c.var.principal, body)), 201);
  });

  app.get("/v1/datasets/:datasetId", requireRole("viewer"), async (c) =>
    c.json(renderDataset(await datasets(c).get(c.var.principal, datasetId(c)))),
  );

  app.patch("/v1/datasets/:datasetId", requireRole("member"), async (c) => {
    const body = await readBody(c, datasetUpdateBody);
    return c.json(renderDataset(await datasets(c).update(c.var.principal, datasetId(c), body)));
  });

  app.delete("/v1/datasets/:datasetId", requireRole("admin"), async (c) => {
    await datasets(c).delete(c.var.principal, datasetId(c));
    return c.body(null, 204);
  });

  // ---- versions ----

  app.get("/v1/datasets/:datasetId/versions", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await datasets(c).listVersions(c.var.principal, datasetId(c), request);
    return c.json(toPage(items.map(renderVersion), request, total));
  });

  app.post("/v1/datasets/:datasetId/versions", requireRole("member"), async (c) => {
    // The body is optional: an empty one freezes a version without a description.
    const text = await readBodyText(c);
    const body = validate(datasetVersionBody, text.trim() === "" ? {} : parseJson(text));
    return c.json(renderVersion(await datasets(c).createVersion(c.var.principal, datasetId(c), body)), 201);
  });

  app.get("/v1/datasets/:datasetId/versions/:versionId", requireRole("viewer"), async (c) =>
    c.json(
      renderVersion(await datasets(c).getVersion(c.var.principal, datasetId(c), c.req.param("versionId"))),
    ),
  );

  // ---- items ----

  app.post("/v1/datasets/:datasetId/items/batch", requireRole("member"), async (c) => {
    const body = await readBody(c, datasetItemsBatchBody);
    const added = await datasets(c).addItems(c.var.principal, datasetId(c), body);
    return c.json({ count: added.count, items: added.items.map(renderItem) }, 201);
  });

  app.post("/v1/datasets/:datasetId/items", requireRole("member"), async (c) => {
    const body = await readBody(c, datasetItemBody);
    return c.json(renderItem(await datasets(c).addItem(c.var.principal, datasetId(c), body)), 201);
  });

  app.get("/v1/datasets/:datasetId/items", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await datasets(c).listItems(
      c.var.principal,
      datasetId(c),
      c.req.query(),
      request,
    );
    return c.json(toPage(items.map(renderItem), request, total));
  });

  app.patch("/v1/datasets/:datasetId/items/:itemId", requireRole("member"), async (c) => {
    const body = await readBody(c, datasetItemUpdateBody);
    return c.json(renderItem(await datasets(c).updateItem(c.var.principal, datasetId(c), itemId(c), body)));
  });

  app.delete("/v1/datasets/:datasetId/items/:itemId", requireRole("member"), async (c) => {
    await datasets(c).deleteItem(c.var.principal, datasetId(c), itemId(c));
    return c.body(null, 204);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest("Request body is not valid JSON");
  }
}
