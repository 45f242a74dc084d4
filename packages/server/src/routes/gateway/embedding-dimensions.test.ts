/**
 * Issue #17: which `dimensions` a model can serve is the provider's to say. The gateway checks
 * only that the value is a positive integer and forwards it; a width the provider refuses comes
 * back as the spec's "provider refused (bad dimensions)": 400 `upstream_error`.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let builtin: Upstream;
let byok: Upstream;
let tenant: TestTenant;
let app: App;

beforeAll(async () => {
  // Like text-embedding-3-large: vectors up to 3,072 wide, anything wider refused.
  builtin = await startOpenAIUpstream({ maxEmbeddingDimensions: 3072 });
  byok = await startOpenAIUpstream({ maxEmbeddingDimensions: 3072 });
});
afterAll(async () => {
  await Promise.all([builtin.close(), byok.close()]);
});

const post = (path: string, body: unknown, key = tenant.keys.member) =>
  app.request(path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { ...bearer(key), "content-type": "application/json" },
  });

beforeEach(async () => {
  builtin.reset();
  byok.reset();
  tenant = await createTestTenant("enterprise");
  const gateway = createStoreGateway(tenant.store, {
    builtin: { baseUrl: builtin.url, apiKey: "builtin-key" },
    fetch: createFastFetch(),
  });
  app = createApp({ store: tenant.store, gateway, builtinConfigured: true });
  const created = await post(
    "/v1/providers",
    { name: "mine", provider: "HOSTED_A", config: { baseUrl: byok.url }, apiKey: "sk-byok" },
    tenant.keys.admin,
  );
  expect(created.status).toBe(201);
});
afterEach(async () => await tenant.store.close());

describe.each([
  ["a BYOK model", "hosted-a/text-embedding-3-large", () => byok],
  ["a built-in model", "text-embedding-3-large", () => builtin],
])("POST /v1/embeddings on %s", (_name, model, upstream) => {
  it("answers a width the provider refuses with 400 upstream_error, whatever its size", async () => {
    for (const dimensions of [3073, 100_000]) {
      const response = await post("/v1/embeddings", { model, input: "x", dimensions });
      expect(response.status).toBe(400);
      const { error } = await bodyOf(response);
      expect(error).toMatchObject({ type: "upstream_error", code: "upstream_error" });
      expect(error.message).toContain(`got ${dimensions}`);
    }
    // The provider, not the gateway, refused: both requests reached it with the width as sent.
    expect(
      upstream().requests.map((request) => (request.body as { dimensions?: number }).dimensions),
    ).toEqual([3073, 100_000]);
  });

  it("serves a width the provider accepts", async () => {
    const response = await post("/v1/embeddings", { model, input: "x", dimensions: 3072 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Array<{ embedding: number[] }> };
    expect(body.data[0]?.embedding).toHaveLength(3072);
  });

  it("still refuses a width that is not a positive integer itself, without calling the provider", async () => {
    for (const dimensions of [0, -3, 1.5, "256"]) {
      const response = await post("/v1/embeddings", { model, input: "x", dimensions });
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).error).toMatchObject({
        type: "invalid_request_error",
        param: "dimensions",
      });
    }
    expect(upstream().requests).toHaveLength(0);
  });
});
