/**
 * `/v1/providers`: the organization's provider accounts (spec document 1,
 * "Providers"). Keys are write-only: stored encrypted, never answered or logged.
 */
import { invalidRequest, notFound, parsePageRequest, toPage } from "@groundwork/core";
import {
  type Gateway,
  PROVIDER_KINDS,
  type ProviderType,
  parseProviderType,
  validateProviderApiKey,
  validateProviderConfig,
} from "@groundwork/gateway";
import { toProviderAccount } from "@groundwork/platform";
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

export function registerProviders(app: Hono<AppEnv>, gateway: Gateway): void {
  const byok = requirePlan("team", "Connecting your own providers (BYOK)");

  app.post("/v1/providers/test", requireRole("member"), byok, async (c) => {
    const body = validate(testBody, await readJson(c));
    const type = parseProviderType(body.provider);
    const config = validateProviderConfig(type, body.config);
    const apiKey = validateProviderApiKey(type, body.apiKey);
    try {
      const models = await gateway
        .adapterFor({ id: "test", name: "test", type, config, apiKey })
        .listModels({ signal: AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(15_000)]) });
      return c.json({ success: true, message: `Connected; ${models.length} models found`, models });
    } catch (error) {
      return c.json({
        success: false,
        message: error instanceof Error ? error.message : String(error),
        models: [],
      });
    }
  });

  app.get("/v1/providers/models", async (c) => {
    const store = c.var.store;
    const organizationId = c.var.principal.organizationId;
    const data = await Promise.all(
      store.providers.list(organizationId).map(async (record) => {
        const found = store.providers.getWithCredentials(organizationId, record.id);
        if (found === null) return null;
        const account = toProviderAccount(found.record, found.apiKey);
        const prefix = PROVIDER_KINDS[account.type].prefix;
        try {
          const ids = await gateway.adapterFor(account).listModels({ signal: AbortSignal.timeout(15_000) });
          return {
            providerId: record.id,
            provider: record.type,
            models: ids.map((id) => `${prefix}/${id}`),
            error: null,
          };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return { providerId: record.id, provider: record.type, models: [], error: message };
        }
      }),
    );
    return c.json({ data: data.filter((entry) => entry !== null) });
  });

  app.get("/v1/providers/:providerId/embedding-models", (c) =>
    c.json(
      c.var.groundwork.knowledge.embeddingModels(c.var.principal.organizationId, c.req.param("providerId")),
    ),
  );

  app.post("/v1/providers", requireRole("member"), byok, async (c) => {
    const body = validate(createBody, await readJson(c));
    const type = parseProviderType(body.provider);
    const config = validateProviderConfig(type, body.config);
    const apiKey = validateProviderApiKey(type, body.apiKey);
    const record = c.var.store.providers.create({
      organizationId: c.var.principal.organizationId,
      name: body.name,
      type,
      config: { ...config },
      apiKey,
    });
    return c.json(renderProvider(record), 201);
  });

  app.get("/v1/providers", (c) => {
    const page = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const all = c.var.store.providers.list(c.var.principal.organizationId);
    const slice = all.slice(page.page * page.size, (page.page + 1) * page.size).map(renderProvider);
    return c.json(toPage(slice, page, all.length));
  });

  app.get("/v1/providers/:id", (c) => {
    const record = c.var.store.providers.get(c.var.principal.organizationId, c.req.param("id"));
    if (record === null) throw notFound(`No provider ${c.req.param("id")}`, { param: "id" });
    return c.json(renderProvider(record));
  });

  app.patch("/v1/providers/:id", requireRole("member"), byok, async (c) => {
    const body = validate(patchBody, await readJson(c));
    const organizationId = c.var.principal.organizationId;
    const current = c.var.store.providers.get(organizationId, c.req.param("id"));
    if (current === null) throw notFound(`No provider ${c.req.param("id")}`, { param: "id" });
    const type = parseProviderType(current.type);
    if (body.provider !== undefined && body.provider !== current.type) {
      throw invalidRequest(
        `The provider type cannot change (it is ${current.type}); create a new provider instead`,
        {
          param: "provider",
        },
      );
    }
    if (body.apiKey !== undefined) validateProviderApiKey(type, body.apiKey);
    const updated = c.var.store.providers.update(organizationId, current.id, {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.config === undefined ? {} : { config: { ...validateProviderConfig(type, body.config) } }),
      ...(body.apiKey === undefined ? {} : { apiKey: body.apiKey }),
    });
    if (updated === null) throw notFound(`No provider ${current.id}`, { param: "id" });
    return c.json(renderProvider(updated));
  });

  app.delete("/v1/providers/:id", requireRole("admin"), (c) => {
    if (!c.var.store.providers.delete(c.var.principal.organizationId, c.req.param("id"))) {
      throw notFound(`No provider ${c.req.param("id")}`, { param: "id" });
    }
    return c.body(null, 204);
  });
}
