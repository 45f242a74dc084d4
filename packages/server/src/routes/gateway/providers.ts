/**
 * `/v1/providers`: the organization's provider accounts (spec document 1,
 * "Providers"). Keys are write-only: stored encrypted, never answered or logged.
 */
import { parsePageRequest, toPage } from "@groundwork/core";
import { PROVIDER_KINDS, type ProviderType } from "@groundwork/gateway";
import type { ProviderRecord } from "@groundwork/store-sqlite";
import type { Hono } from "hono";
import { z } from "zod";
import { readJson, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requirePlan, requireRole } from "../../http/guards.js";

const createBody = z.object({
  name: z.string().trim().min(1).max(255),
  provider: z.string(),
  apiKey: z.string().optional(),
  config: z.unknown(),
});

const patchBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  provider: z.string().optional(),
  apiKey: z.string().min(1).optional(),
  config: z.unknown().optional(),
});

const testBody = z.object({ provider: z.string(), apiKey: z.string().optional(), config: z.unknown() });

export function renderProvider(record: ProviderRecord) {
  return {
    id: record.id,
    name: record.name,
    provider: record.type,
    prefix: PROVIDER_KINDS[record.type as ProviderType]?.prefix ?? null,
    config: record.config,
    hasApiKey: record.hasApiKey,
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

export function registerProviders(app: Hono<AppEnv>): void {
  const byok = requirePlan("team", "Connecting your own providers (BYOK)");
  const org = (c: { var: AppEnv["Variables"] }) => c.var.principal.organizationId;

  app.post("/v1/providers/test", requireRole("member"), byok, async (c) => {
    const body = validate(testBody, await readJson(c));
    return c.json(await c.var.groundwork.providers.test(body, c.req.raw.signal));
  });

  app.get("/v1/providers/models", async (c) =>
    c.json({ data: await c.var.groundwork.providers.models(org(c)) }),
  );

  app.get("/v1/providers/:providerId/embedding-models", async (c) =>
    c.json(await c.var.groundwork.knowledge.embeddingModels(org(c), c.req.param("providerId"))),
  );

  app.post("/v1/providers", requireRole("member"), byok, async (c) => {
    const body = validate(createBody, await readJson(c));
    return c.json(renderProvider(await c.var.groundwork.providers.create(org(c), body)), 201);
  });

  app.get("/v1/providers", async (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const { items, total } = await c.var.groundwork.providers.list(org(c), page);
    return c.json(toPage(items.map(renderProvider), page, total));
  });

  app.get("/v1/providers/:id", async (c) =>
    c.json(renderProvider(await c.var.groundwork.providers.get(org(c), c.req.param("id")))),
  );

  app.patch("/v1/providers/:id", requireRole("member"), byok, async (c) => {
    const body = validate(patchBody, await readJson(c));
    return c.json(renderProvider(await c.var.groundwork.providers.update(org(c), c.req.param("id"), body)));
  });

  app.delete("/v1/providers/:id", requireRole("admin"), async (c) => {
    await c.var.groundwork.providers.delete(org(c), c.req.param("id"));
    return c.body(null, 204);
  });
}
