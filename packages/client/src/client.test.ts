import { GroundworkError } from "@groundwork/core";
import { createApp } from "@groundwork/server";
import { afterAll, describe, expect, it } from "vitest";
import { openTestStore } from "../../platform/test/test-store.js";
import { GroundworkClient } from "./client.js";

// The real server as a fetch handler: the client's requests go through auth, validation and routing.
const store = await openTestStore({ secret: "client-test-master-secret" });
const org = await store.organizations.create("acme", "team");
const { key } = await store.apiKeys.create({ organizationId: org.id, role: "admin" });
const app = createApp({ store });
const inProcess = ((input: URL | string | Request, init?: RequestInit) =>
  app.request(input, init)) as typeof fetch;
const client = new GroundworkClient({ baseUrl: "http://groundwork.test/v1/", apiKey: key, fetch: inProcess });
afterAll(async () => {
  await store.close();
});

describe("GroundworkClient", () => {
  it("sends JSON bodies and reads JSON answers", async () => {
    const created = await client.schemas.create({ name: "invoice" });
    expect(created).toMatchObject({ name: "invoice" });
    const page = await client.schemas.list({ search: "inv", size: 5 });
    expect(page).toMatchObject({ page: 0, size: 5, totalElements: 1 });
  });

  it("turns the error envelope into a GroundworkError with status, type, code and param", async () => {
    const error = (await client.providers
      .create({ name: "x", provider: "HOSTED_A", config: {} })
      .catch((e: unknown) => e)) as GroundworkError;
    expect(error).toBeInstanceOf(GroundworkError);
    expect(error).toMatchObject({ status: 400, type: "invalid_request_error", param: "apiKey" });
    expect(error.message).toMatch(/apiKey is required/);
  });

  it("reports a bare status (no envelope) with an http_<status> code", async () => {
    const anonymous = new GroundworkClient({
      baseUrl: "http://groundwork.test",
      apiKey: "",
      fetch: inProcess,
    });
    const error = (await anonymous.models.list().catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 401, code: "http_401" });
  });

  it("answers 204 as undefined and embeds in-process models", async () => {
    const embedded = await client.embeddings.create({ model: "hash-embedding-1536", input: "a b" });
    expect((embedded.data as unknown[]).length).toBe(1);
    const created = await client.schemas.create({ name: "temp" });
    expect(await client.schemas.delete(created.id as string)).toBeUndefined();
  });

  it("lists an agent's tool catalogs", async () => {
    const applied = await client.agents.apply({
      name: "catalog-agent",
      model: "gpt-4o-mini",
      tools: [{ type: "platform.todo" }],
    });
    const agentId = (applied.agent as { id: string }).id;
    const catalogs = await client.agents.toolCatalogs(agentId, { version: "1" });
    expect(catalogs.catalogs.map((c) => c.catalog)).toEqual(["definition", "platform"]);
    expect(catalogs.catalogs[0]?.tools[0]).toMatchObject({ name: "platform_todo", offered: true });
  });

  it("records and lists scores", async () => {
    const conversation = await client.conversations.create();
    const score = await client.scores.record({
      subjectType: "conversation",
      subjectId: conversation.id as string,
      name: "resolved",
      dataType: "BOOLEAN",
      value: true,
    });
    expect(score).toMatchObject({ id: expect.stringMatching(/^scr_/), source: "HUMAN", value: true });
    const page = await client.scores.list({ subjectId: conversation.id as string, dataType: "BOOLEAN" });
    expect(page.content).toEqual([score]);
    const error = (await client.scores.list({ from: "soon" }).catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 400, param: "from" });
  });

  it("works an annotation queue: items, claims (null when none is free), scored completion, archive", async () => {
    const conversation = await client.conversations.create();
    const subjectId = conversation.id as string;
    const queue = await client.annotationQueues.create({
      name: "client-review",
      scoreConfigs: [{ name: "tone", dataType: "CATEGORICAL", categories: ["kind", "rude"] }],
    });
    expect(queue).toMatchObject({ id: expect.stringMatching(/^aq_/), status: "ACTIVE" });
    const added = await client.annotationQueues.items.add(queue.id, [
      { subjectType: "conversation", subjectId },
    ]);
    expect(added.skipped).toBe(0);
    const claimed = await client.annotationQueues.items.claim(queue.id);
    expect(claimed?.id).toBe(added.added[0]?.id);
    const done = await client.annotationQueues.items.update(queue.id, claimed?.id ?? "", {
      status: "COMPLETED",
      scores: [{ name: "tone", value: "kind" }],
    });
    expect(done).toMatchObject({ status: "COMPLETED", scoreIds: [expect.stringMatching(/^scr_/)] });
    expect(await client.annotationQueues.items.claim(queue.id)).toBeNull();
    const found = await client.annotationQueues.findItems({ subjectType: "conversation", subjectId });
    expect(found.content.map((item) => item.id)).toEqual([done.id]);
    expect((await client.annotationQueues.archive(queue.id)).status).toBe("ARCHIVED");
    const error = (await client.annotationQueues.items
      .claim(queue.id)
      .catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 409, param: "queueId" });
    const listed = await client.annotationQueues.list({ status: "ARCHIVED" });
    expect(listed.content.map((q) => q.id)).toContain(queue.id);
  });

  it("manages evaluator templates and lists evaluator types", async () => {
    const types = await client.evaluators.types();
    expect(types.map((t) => t.type)).toContain("llm_judge");
    const created = await client.evaluators.templates.create({
      name: "tone",
      prompt: "Is {{output}} polite?",
      model: "gpt-4o-mini",
      scale: { type: "boolean" },
    });
    expect(created).toMatchObject({ name: "tone", version: 1 });
    expect(await client.evaluators.templates.update(created.id, { description: "politeness" })).toMatchObject(
      {
        version: 2,
      },
    );
    expect(await client.evaluators.templates.get(created.id)).toMatchObject({ description: "politeness" });
    expect((await client.evaluators.templates.list({ size: 5 })).totalElements).toBe(1);
    expect(await client.evaluators.templates.delete(created.id)).toBeUndefined();
  });

  it("manages datasets, items and versions", async () => {
    const dataset = await client.datasets.create({ name: "qa" });
    const { count, items } = await client.datasets.items.addBatch(dataset.id, [{ input: 1 }, { input: 2 }]);
    expect(count).toBe(2);
    const one = await client.datasets.items.add(dataset.id, { input: 3, expectedOutput: "three" });
    const version = await client.datasets.versions.create(dataset.id, { description: "v1" });
    expect(version).toMatchObject({ versionNumber: 1, itemCount: 3 });
    await client.datasets.items.update(dataset.id, one.id, { expectedOutput: null });
    expect(await client.datasets.items.delete(dataset.id, items[0]?.id ?? "")).toBeUndefined();
    expect(
      (await client.datasets.items.list(dataset.id, { version: 1 })).content.map((i) => i.input),
    ).toEqual([1, 2, 3]);
    expect((await client.datasets.items.list(dataset.id)).totalElements).toBe(2);
    expect((await client.datasets.versions.get(dataset.id, version.id)).versionNumber).toBe(1);
    expect((await client.datasets.versions.list(dataset.id)).totalElements).toBe(1);
    expect((await client.datasets.update(dataset.id, { description: "d" })).description).toBe("d");
    expect((await client.datasets.get(dataset.id)).latestVersionNumber).toBe(1);
    expect((await client.datasets.list({ name: "q" })).totalElements).toBe(1);
    await client.datasets.delete(dataset.id);
    const error = (await client.datasets.get(dataset.id).catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 404, param: "datasetId" });
  });

  it("manages prompts by name: versions, labels, resolve and compile", async () => {
    const created = await client.prompts.create({
      name: "team/hello",
      type: "text",
      prompt: "Hi {{who}}",
      labels: ["production"],
    });
    expect(created).toMatchObject({ name: "team/hello", latestVersionNumber: 1 });
    await client.prompts.versions.create("team/hello", { prompt: "Hey {{who}}" });
    expect(await client.prompts.resolve("team/hello")).toMatchObject({
      versionNumber: 1,
      label: "production",
    });
    expect(await client.prompts.resolve("team/hello", { version: 2 })).toMatchObject({ versionNumber: 2 });
    expect(await client.prompts.compile("team/hello", { variables: { who: "Ada" } })).toMatchObject({
      compiled: "Hi Ada",
    });
    expect(await client.prompts.versions.activate("team/hello", 2)).toMatchObject({
      labels: ["latest", "production"],
    });
    const v1 = await client.prompts.versions.get("team/hello", 1);
    await client.prompts.labels.create("team/hello", { name: "old", promptVersionId: v1.id as string });
    expect((await client.prompts.labels.list("team/hello")).map((l) => l.name)).toEqual([
      "latest",
      "old",
      "production",
    ]);
    expect(await client.prompts.versions.deactivate("team/hello", 1)).toBeUndefined();
    expect(await client.prompts.delete("team/hello")).toBeUndefined();
    const error = (await client.prompts.get("team/hello").catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 404 });
  });

  it("registers a connector, connects, allows and reads the connection (tokens never come back)", async () => {
    // Private networks are refused by default: a public-looking name that is never called.
    const created = await client.connectors.create({
      serverLabel: "docs",
      url: "https://mcp.example.com/mcp",
      authKind: "bearer",
      agentIds: null,
    });
    expect(created).toMatchObject({ serverLabel: "docs", host: "mcp.example.com", agentIds: null });
    const id = created.id as string;
    expect(await client.connectors.update(id, { description: "Docs" })).toMatchObject({
      description: "Docs",
    });
    expect((await client.connectors.list()).totalElements).toBe(1);
    const connected = await client.connectors.connect(id, "tok-123");
    expect(connected).toMatchObject({ status: "connected" });
    expect(JSON.stringify(await client.connectors.connection(id))).not.toContain("tok-123");
    const error = (await client.connectors
      .allow(id, "agt_missing")
      .catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 404, param: "agentId" });
    expect(await client.connectors.disconnect(id)).toBeUndefined();
    const missing = (await client.connectorInputs
      .get("inp_missing")
      .catch((e: unknown) => e)) as GroundworkError;
    expect(missing.status).toBe(404);
    expect(await client.connectors.delete(id)).toBeUndefined();
  });

  it("sends plugin installs as multipart or JSON and reads plugin pages", async () => {
    expect(await client.plugins.list({ size: 5 })).toMatchObject({ totalElements: 0, size: 5 });
    const bad = (await client.plugins
      .install({ zip: new Blob([new TextEncoder().encode("not a zip")]), filename: "p.zip" })
      .catch((e: unknown) => e)) as GroundworkError;
    expect(bad).toMatchObject({ status: 400, code: "invalid_plugin", param: "file" });
    // Private networks are refused by default.
    const refused = (await client.plugins
      .install({ sourceUrl: "http://127.0.0.1:1/p.zip" })
      .catch((e: unknown) => e)) as GroundworkError;
    expect(refused).toMatchObject({ status: 400, code: "private_network", param: "sourceUrl" });
    // Thunks, so each request starts only once the previous one is awaited: promises built
    // together reject before their turn's `.catch` is attached (an unhandled rejection).
    for (const call of [
      () => client.plugins.get("plg_missing"),
      () => client.plugins.update("plg_missing", { sourceUrl: "https://example.com/p.zip" }),
      () => client.plugins.sync("plg_missing"),
      () => client.plugins.delete("plg_missing", { force: true }),
    ]) {
      expect(await call().catch((e: unknown) => e)).toMatchObject({ status: 404 });
    }
  });
});
