/** Helpers for the knowledge-base HTTP tests. */
import type { Plan, Principal } from "@groundwork/core";
import { createGroundwork, createStoreGateway, type Groundwork } from "@groundwork/platform";
import { createApp } from "../src/app.js";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "./test-support.js";

export interface KbHarness {
  tenant: TestTenant;
  groundwork: Groundwork;
  app: ReturnType<typeof createApp>;
  drain(): Promise<number>;
  gateway: ReturnType<typeof createStoreGateway>;
  json(method: string, path: string, body?: unknown, role?: "viewer" | "member" | "admin"): Promise<Response>;
  upload(
    kbId: string,
    files: Array<{ name: string; content: string | Uint8Array; type?: string }>,
    metadata?: Record<string, unknown>,
  ): Promise<Response>;
  createKb(fields?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A provider account stored directly (no config validation: tests point https-only kinds at loopback). */
  addProvider(type: string, config: Record<string, unknown>, apiKey?: string | null): Promise<{ id: string }>;
}

export async function kbHarness(
  options: Parameters<typeof createStoreGateway>[1] = { builtin: null },
  plan: Plan = "enterprise",
): Promise<KbHarness> {
  const tenant = await createTestTenant(plan);
  const gateway = createStoreGateway(tenant.store, options);
  const groundwork = createGroundwork({ store: tenant.store, gateway, config: { builtin: options.builtin } });
  const app = createApp({ groundwork });
  const service = () => groundwork.knowledge;
  let slugs = 0;
  const harness: KbHarness = {
    tenant,
    groundwork,
    app,
    gateway,
    drain: () => service().drain(),
    json: (method, path, body, role = "admin") =>
      Promise.resolve(
        app.request(path, {
          method,
          headers: {
            ...bearer(tenant.keys[role]),
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      ),
    upload: (kbId, files, metadata) => {
      const form = new FormData();
      for (const file of files) {
        form.append("files", new File([file.content], file.name, { type: file.type ?? "text/plain" }));
      }
      if (metadata !== undefined) form.append("metadata", JSON.stringify(metadata));
      return Promise.resolve(
        app.request(`/v1/knowledge-bases/${kbId}/documents`, {
          method: "POST",
          headers: bearer(tenant.keys.member),
          body: form,
        }),
      );
    },
    addProvider: async (type, config, apiKey = "sk-test") =>
      await tenant.store.providers.create({
        organizationId: tenant.organizationId,
        name: type,
        type,
        config,
        apiKey,
      }),
    async createKb(fields = {}) {
      slugs++;
      const response = await harness.json("POST", "/v1/knowledge-bases", {
        name: `KB ${slugs}`,
        slug: `kb-${slugs}`,
        embeddingProviderId: "builtin",
        embeddingModel: "hash-embedding-1536",
        embeddingDim: 1536,
        ...fields,
      });
      const body = await bodyOf(response);
      if (response.status !== 201)
        throw new Error(`create failed: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
  };
  return harness;
}

/** A Viewer of the harness's organization, for calling the knowledge service directly. */
export function viewerPrincipal(h: KbHarness): Principal {
  return {
    organizationId: h.tenant.organizationId,
    organizationName: "acme",
    plan: "enterprise",
    role: "viewer",
    apiKeyId: "",
  };
}
