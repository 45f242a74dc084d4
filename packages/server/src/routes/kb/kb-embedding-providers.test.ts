/**
 * Knowledge bases on every provider kind that serves embeddings (spec document 1:
 * hosted-a and cloud-a): the catalogue lists what each serves, and a cloud-a
 * deployment embeds ingestion and queries.
 */
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kbHarness } from "../../../test/kb-test-support.js";
import { bodyOf } from "../../../test/test-support.js";

const DEPLOYMENT = "text-embedding-3-small";

let deployment: Upstream;
beforeAll(async () => {
  // A cloud-a deployment answers under `/openai/deployments/{deployment}`.
  deployment = await startOpenAIUpstream({ basePath: `/openai/deployments/${DEPLOYMENT}` });
});
afterAll(async () => {
  await deployment.close();
});

describe("embedding providers", () => {
  it("lists the catalogued embedding models of each kind that serves embeddings", async () => {
    const h = await kbHarness();
    for (const [type, config] of [
      ["HOSTED_A", { baseUrl: "http://127.0.0.1:9/v1" }],
      ["CLOUD_A", { endpoint: "https://res.example.com" }],
    ] as const) {
      const provider = await h.addProvider(type, config, "key");
      const response = await h.json(
        "GET",
        `/v1/providers/${provider.id}/embedding-models`,
        undefined,
        "viewer",
      );
      expect(response.status).toBe(200);
      const catalogue = await bodyOf(response);
      expect(catalogue.models).toEqual(
        expect.arrayContaining([
          { id: "text-embedding-3-small", dimensions: 1536 },
          { id: "text-embedding-3-large", dimensions: 1536 },
        ]),
      );
      expect(catalogue.supportedDimensions).toContain(1536);
    }
  });

  it("creates a knowledge base on a cloud-a deployment, ingests through it and searches", async () => {
    const h = await kbHarness();
    // Saved through the API the endpoint must be https; the stored record points at the loopback upstream.
    const provider = await h.addProvider("CLOUD_A", { endpoint: deployment.origin }, "az-key");
    const kb = await h.createKb({ embeddingProviderId: provider.id, embeddingModel: DEPLOYMENT });
    const uploaded = await h.upload(kb.id as string, [
      { name: "turbines.txt", content: "Turbine blades are inspected with drones every spring." },
    ]);
    expect(uploaded.status).toBe(202);
    await h.drain();
    const documents = await bodyOf(
      await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents`, undefined, "viewer"),
    );
    expect(
      (documents.content as Array<{ currentVersion: { status: string } }>)[0]?.currentVersion.status,
    ).toBe("READY");
    const search = await h.json(
      "POST",
      `/v1/knowledge-bases/${kb.id}/search`,
      { query: "turbine blades" },
      "viewer",
    );
    expect(search.status).toBe(200);
    const body = await bodyOf(search);
    expect(body).not.toHaveProperty("degraded");
    expect((body.hits as Array<{ content: string }>)[0]?.content).toContain("Turbine blades");
    const embeddingCalls = deployment.requests.filter((request) => request.path.endsWith("/embeddings"));
    // One call embeds the upload, one the query; both reach the deployment with its key.
    expect(embeddingCalls.length).toBe(2);
    expect(embeddingCalls[0]?.path).toBe(`/openai/deployments/${DEPLOYMENT}/embeddings`);
    expect(embeddingCalls[0]?.headers["api-key"]).toBe("az-key");
  });
});
