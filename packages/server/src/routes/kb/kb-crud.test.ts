/** Knowledge bases CRUD, validation rows, configuration versions, soft delete, embedding-model catalogue. */
import { beforeAll, describe, expect, it } from "vitest";
import { type KbHarness, kbHarness } from "../../../test/kb-test-support.js";
import { bearer, bodyOf } from "../../../test/test-support.js";

const base = {
  name: "Docs",
  slug: "docs",
  embeddingProviderId: "builtin",
  embeddingModel: "hash-embedding-1536",
  embeddingDim: 1536,
};

describe("POST /v1/knowledge-bases", () => {
  let h: KbHarness;
  beforeAll(async () => {
    h = await kbHarness();
  });

  it("creates with the spec's defaults (201) and snapshots configuration version 1", async () => {
    const response = await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "defaults" }, "member");
    expect(response.status).toBe(201);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      name: "Docs",
      slug: "defaults",
      description: null,
      chunkingStrategy: "HIERARCHICAL",
      chunkSize: 400,
      chunkOverlap: 50,
      parentChunkSize: 1500,
      hybridSearchEnabled: true,
      rerankerProviderId: null,
      textSearchLanguage: "simple",
      pendingTextSearchLanguage: null,
      configVersion: 1,
    });
    expect(body.id).toMatch(/^kb_/);
    expect(body.createdAt).toMatch(/Z$/);
    expect(await h.tenant.store.knowledgeBases.configVersions(body.id as string)).toHaveLength(1);
  });

  it.each([
    ["name missing", { name: undefined }, "name"],
    ["slug with capitals", { slug: "Docs" }, "slug"],
    ["slug with underscore", { slug: "my_docs" }, "slug"],
    ["description over 4000 chars", { description: "x".repeat(4001) }, "description"],
    ["embeddingProviderId missing", { embeddingProviderId: undefined }, "embeddingProviderId"],
    ["embeddingDim not an integer", { embeddingDim: 15.5 }, "embeddingDim"],
    ["embeddingDim not provisioned", { embeddingDim: 1024 }, "embeddingDim"],
    ["model not served by builtin", { embeddingModel: "text-embedding-3-small" }, "embeddingModel"],
    ["unknown provider", { embeddingProviderId: "prv_missing" }, "embeddingProviderId"],
    ["unknown chunking strategy", { chunkingStrategy: "SEMANTIC" }, "chunkingStrategy"],
    ["chunkSize 49", { chunkSize: 49 }, "chunkSize"],
    ["chunkSize 4001", { chunkSize: 4001 }, "chunkSize"],
    ["chunkOverlap -1", { chunkOverlap: -1 }, "chunkOverlap"],
    ["chunkOverlap 2001", { chunkOverlap: 2001 }, "chunkOverlap"],
    ["chunkOverlap not below chunkSize", { chunkSize: 100, chunkOverlap: 100 }, "chunkOverlap"],
    ["parentChunkSize 99", { parentChunkSize: 99 }, "parentChunkSize"],
    ["parentChunkSize 8001", { parentChunkSize: 8001 }, "parentChunkSize"],
    ["parentChunkSize below chunkSize", { chunkSize: 800, parentChunkSize: 500 }, "parentChunkSize"],
    ["builtin reranker", { rerankerProviderId: "builtin" }, "rerankerProviderId"],
    ["unknown text-search language", { textSearchLanguage: "klingon" }, "textSearchLanguage"],
    ["hybridSearchEnabled not boolean", { hybridSearchEnabled: "yes" }, "hybridSearchEnabled"],
  ])("400 for %s", async (_, change, param) => {
    const response = await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "invalid", ...change });
    expect(response.status).toBe(400);
    const body = await bodyOf(response);
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.param).toBe(param);
  });

  it("accepts FIXED chunking with parentChunkSize below chunkSize (parents are hierarchical only)", async () => {
    const response = await h.json("POST", "/v1/knowledge-bases", {
      ...base,
      slug: "fixed",
      chunkingStrategy: "FIXED",
      chunkSize: 800,
      parentChunkSize: 500,
    });
    expect(response.status).toBe(201);
  });

  it("409 for a slug in use", async () => {
    await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "taken" });
    const response = await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "taken" });
    expect(response.status).toBe(409);
    expect((await bodyOf(response)).error.param).toBe("slug");
  });

  it("the same slug is free in another organization", async () => {
    await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "shared" });
    const other = await h.tenant.keyFor("member", "team");
    const response = await h.app.request("/v1/knowledge-bases", {
      method: "POST",
      headers: { ...bearer(other), "Content-Type": "application/json" },
      body: JSON.stringify({ ...base, slug: "shared" }),
    });
    expect(response.status).toBe(201);
  });

  it("403 for a Viewer", async () => {
    const response = await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "viewer" }, "viewer");
    expect(response.status).toBe(403);
  });

  it("checks a provider's model against its catalogue without calling it", async () => {
    const provider = await h.tenant.store.providers.create({
      organizationId: h.tenant.organizationId,
      name: "openai",
      type: "HOSTED_A",
      config: { baseUrl: "http://127.0.0.1:9/v1" },
      apiKey: "sk-test",
    });
    const ok = await h.json("POST", "/v1/knowledge-bases", {
      ...base,
      slug: "byok",
      embeddingProviderId: provider.id,
      embeddingModel: "text-embedding-3-large",
    });
    expect(ok.status).toBe(201);
    const wrongWidth = await h.json("POST", "/v1/knowledge-bases", {
      ...base,
      slug: "byok-2",
      embeddingProviderId: provider.id,
      embeddingModel: "text-embedding-3-small",
      embeddingDim: 512,
    });
    expect(wrongWidth.status).toBe(400);
    const unknown = await h.json("POST", "/v1/knowledge-bases", {
      ...base,
      slug: "byok-3",
      embeddingProviderId: provider.id,
      embeddingModel: "hash-embedding-1536",
    });
    expect(unknown.status).toBe(400);
    expect((await bodyOf(unknown)).error.param).toBe("embeddingModel");
  });
});

describe("built-in catalogue with a built-in model service", () => {
  it("accepts text-embedding-3-small and -large at 1536", async () => {
    const h = await kbHarness({ builtin: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "k" } });
    for (const model of ["text-embedding-3-small", "text-embedding-3-large"]) {
      const response = await h.json("POST", "/v1/knowledge-bases", {
        ...base,
        slug: model,
        embeddingModel: model,
      });
      expect(response.status).toBe(201);
    }
    const catalogue = await bodyOf(
      await h.json("GET", "/v1/providers/builtin/embedding-models", undefined, "viewer"),
    );
    expect(catalogue.models).toEqual(
      expect.arrayContaining([
        { id: "hash-embedding-1536", dimensions: 1536 },
        { id: "text-embedding-3-small", dimensions: 1536 },
        { id: "text-embedding-3-large", dimensions: 1536 },
      ]),
    );
    expect(catalogue.supportedDimensions).toContain(1536);
  });
});

describe("GET /v1/providers/{id}/embedding-models", () => {
  it("lists the in-process model for builtin, nothing for providers without a catalogue, 404 for unknown ids", async () => {
    const h = await kbHarness();
    const builtin = await bodyOf(
      await h.json("GET", "/v1/providers/builtin/embedding-models", undefined, "viewer"),
    );
    expect(builtin).toEqual({
      models: [{ id: "hash-embedding-1536", dimensions: 1536 }],
      supportedDimensions: [1536],
    });
    const selfHosted = await h.tenant.store.providers.create({
      organizationId: h.tenant.organizationId,
      name: "local",
      type: "SELF_HOSTED",
      config: { baseUrl: "http://127.0.0.1:9/v1" },
      apiKey: null,
    });
    const empty = await h.json("GET", `/v1/providers/${selfHosted.id}/embedding-models`, undefined, "viewer");
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ models: [], supportedDimensions: [] });
    expect((await h.json("GET", "/v1/providers/prv_nope/embedding-models")).status).toBe(404);
  });
});

describe("list, get, patch, delete", () => {
  it("lists newest first with the page envelope", async () => {
    const h = await kbHarness();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await h.createKb()).id as string);
    const first = await bodyOf(await h.json("GET", "/v1/knowledge-bases?size=2", undefined, "viewer"));
    expect(first).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect((first.content as Array<{ id: string }>).map((kb) => kb.id)).toEqual([ids[2], ids[1]]);
    const second = await bodyOf(
      await h.json("GET", "/v1/knowledge-bases?size=2&page=1", undefined, "viewer"),
    );
    expect((second.content as Array<{ id: string }>).map((kb) => kb.id)).toEqual([ids[0]]);
    expect((await h.json("GET", "/v1/knowledge-bases?size=101")).status).toBe(400);
  });

  it("GET answers 404 for unknown ids and knowledge bases of other organizations", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    expect((await h.json("GET", `/v1/knowledge-bases/${kb.id}`, undefined, "viewer")).status).toBe(200);
    expect((await h.json("GET", "/v1/knowledge-bases/kb_unknown")).status).toBe(404);
    const other = await h.app.request(`/v1/knowledge-bases/${kb.id}`, {
      headers: bearer(await h.tenant.keyFor("admin", "team")),
    });
    expect(other.status).toBe(404);
  });

  it("PATCH replaces mutable fields and snapshots the next configuration version", async () => {
    const h = await kbHarness();
    const kb = await h.createKb({ description: "first" });
    const response = await h.json(
      "PATCH",
      `/v1/knowledge-bases/${kb.id}`,
      {
        name: "Renamed",
        chunkingStrategy: "FIXED",
        chunkSize: 200,
        hybridSearchEnabled: false,
        embeddingDim: 1536,
      },
      "member",
    );
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      name: "Renamed",
      description: "first",
      chunkingStrategy: "FIXED",
      chunkSize: 200,
      hybridSearchEnabled: false,
      configVersion: 2,
    });
    const versions = await h.tenant.store.knowledgeBases.configVersions(kb.id as string);
    expect(versions.map((v) => [v.versionNo, v.config.name, v.config.chunkSize])).toEqual([
      [1, kb.name, 400],
      [2, "Renamed", 200],
    ]);
  });

  it("PATCH: embeddingDim is immutable, ranges apply, slug conflicts are 409, Viewer is 403", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const other = await h.createKb();
    const dim = await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { embeddingDim: 3072 });
    expect(dim.status).toBe(400);
    expect((await bodyOf(dim)).error.param).toBe("embeddingDim");
    expect((await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { chunkSize: 10 })).status).toBe(400);
    expect(
      (await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { rerankerProviderId: "builtin" })).status,
    ).toBe(400);
    expect((await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { slug: other.slug })).status).toBe(409);
    expect((await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { name: "x" }, "viewer")).status).toBe(403);
    expect((await h.json("PATCH", "/v1/knowledge-bases/kb_unknown", { name: "x" })).status).toBe(404);
    // Failed PATCHes leave no configuration version behind.
    expect(await h.tenant.store.knowledgeBases.configVersions(kb.id as string)).toHaveLength(1);
  });

  it("DELETE is Admin only, soft: 404 afterwards, slug released, versions kept", async () => {
    const h = await kbHarness();
    const kb = await h.createKb({ slug: "reused" });
    expect((await h.json("DELETE", `/v1/knowledge-bases/${kb.id}`, undefined, "member")).status).toBe(403);
    expect((await h.json("DELETE", `/v1/knowledge-bases/${kb.id}`)).status).toBe(204);
    expect((await h.json("GET", `/v1/knowledge-bases/${kb.id}`)).status).toBe(404);
    expect((await h.json("DELETE", `/v1/knowledge-bases/${kb.id}`)).status).toBe(404);
    const again = await h.json("POST", "/v1/knowledge-bases", { ...base, slug: "reused" });
    expect(again.status).toBe(201);
    expect(await h.tenant.store.knowledgeBases.configVersions(kb.id as string)).toHaveLength(1);
    const list = await bodyOf(await h.json("GET", "/v1/knowledge-bases"));
    expect((list.content as Array<{ id: string }>).map((k) => k.id)).not.toContain(kb.id);
  });
});
