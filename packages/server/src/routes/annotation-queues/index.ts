/**
 * Annotation queues (PLATFORM.md §12): Viewer lists, reads and finds items by subject; Member
 * adds items, claims and updates them; Admin creates, updates and archives queues. The routes
 * parse and render; the rules (locks, score configs, completion) live in the platform's
 * annotation-queue service.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import {
  queueCreateBody,
  queueItemsAddBody,
  queueItemUpdateBody,
  queueUpdateBody,
} from "@groundwork/platform";
import type { Context, Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { renderQueue, renderQueueItem } from "./render.js";

const page = (c: Context<AppEnv>) =>
  parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
const queueId = (c: Context<AppEnv>) => c.req.param("queueId") ?? "";
const itemId = (c: Context<AppEnv>) => c.req.param("itemId") ?? "";

export function registerAnnotationQueueRoutes(app: Hono<AppEnv>): void {
  const queues = (c: Context<AppEnv>) => c.var.groundwork.annotationQueues;

  app.get("/v1/annotation-queues", requireRole("viewer"), async (c) => {
    const request = page(c);
    // The filter schema ignores page and size.
    const { items, total } = await queues(c).list(c.var.principal, c.req.query(), request);
    return c.json(toPage(items.map(renderQueue), request, total));
  });

  app.post("/v1/annotation-queues", requireRole("admin"), async (c) => {
    const body = await readBody(c, queueCreateBody);
    return c.json(renderQueue(await queues(c).create(c.var.principal, body)), 201);
  });

  app.get("/v1/annotation-queues/:queueId", requireRole("viewer"), async (c) =>
    c.json(renderQueue(await queues(c).get(c.var.principal, queueId(c)))),
  );

  app.patch("/v1/annotation-queues/:queueId", requireRole("admin"), async (c) => {
    const body = await readBody(c, queueUpdateBody);
    return c.json(renderQueue(await queues(c).update(c.var.principal, queueId(c), body)));
  });

  // No body: anything sent is ignored.
  app.post("/v1/annotation-queues/:queueId/archive", requireRole("admin"), async (c) =>
    c.json(renderQueue(await queues(c).archive(c.var.principal, queueId(c)))),
  );

  // ---- items ----

  app.get("/v1/annotation-queues/:queueId/items", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await queues(c).listItems(c.var.principal, queueId(c), c.req.query(), request);
    return c.json(toPage(items.map(renderQueueItem), request, total));
  });

  app.post("/v1/annotation-queues/:queueId/items", requireRole("member"), async (c) => {
    const body = await readBody(c, queueItemsAddBody);
    const { added, skipped } = await queues(c).addItems(c.var.principal, queueId(c), body);
    return c.json({ added: added.map(renderQueueItem), skipped }, 201);
  });

  // No body: anything sent is ignored. 204 when no item is claimable.
  app.post("/v1/annotation-queues/:queueId/items/claim", requireRole("member"), async (c) => {
    const item = await queues(c).claim(c.var.principal, queueId(c));
    return item === null ? c.body(null, 204) : c.json(renderQueueItem(item));
  });

  app.get("/v1/annotation-queues/:queueId/items/:itemId", requireRole("viewer"), async (c) =>
    c.json(renderQueueItem(await queues(c).getItem(c.var.principal, queueId(c), itemId(c)))),
  );

  app.patch("/v1/annotation-queues/:queueId/items/:itemId", requireRole("member"), async (c) => {
    const body = await readBody(c, queueItemUpdateBody);
    return c.json(renderQueueItem(await queues(c).updateItem(c.var.principal, queueId(c), itemId(c), body)));
  });

  app.get("/v1/annotation-queue-items", requireRole("viewer"), async (c) => {
    const request = page(c);
    const { items, total } = await queues(c).findItems(c.var.principal, c.req.query(), request);
    return c.json(toPage(items.map(renderQueueItem), request, total));
  });
}
