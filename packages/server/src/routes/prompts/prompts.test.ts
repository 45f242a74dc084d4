/**
 * `/v1/prompts…` (PLATFORM.md §7): each endpoint's success and rendering, validation (400
 * with `param`, never a 500), roles (§1.3), isolation between organizations, and the test
 * call through the gateway against a scripted upstream.
 */
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentTenant } from "../../../test/agent-tenant-support.js";
import { bearer, bodyOf, type TestTenant } from "../../../test/test-support.js";
import type { App } from "../../app.js";

let upstream: Upstream;
let tenant: TestTenant;
let app: App;
/** A Member key of another organization. */
let stranger: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  ({ tenant, app, stranger } = await agentTenant(upstream.url));
});
afterEach(async () => {
  await tenant.store.close();
});

const call = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const member = (method: string, path: string, body?: unknown) => call(tenant.keys.member, method, path, body);
const error = async (response: Response) => ({ status: response.status, ...(await bodyOf(response)).error });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createPrompt(body: Record<string, unknown>) {
  const response = await member("POST", "/v1/prompts", body);
  expect(response.status).toBe(201);
  return bodyOf(response);
}

const greeting = {
  name: "support/greeting",
  type: "text",
  description: "Greets",
  tags: ["cs"],
  prompt: "Hello {{name}}!",
  config: { model: "gw-chat-1", temperature: 0.3, maxTokens: 50 },
  labels: ["production"],
};
const slug = encodeURIComponent(greeting.name);

describe("prompts", () => {
  it("creates with version 1 and labels, reads by id or URL-encoded name, lists with filters", async () => {
    const prompt = await createPrompt(greeting);
    expect(prompt).toEqual({
      id: expect.stringMatching(/^prm_/),
      name: "support/greeting",
      type: "text",
      description: "Greets",
      tags: ["cs"],
      latestVersionId: expect.stringMatching(/^pmv_/),
      latestVersionNumber: 1,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await bodyOf(await member("GET", `/v1/prompts/${slug}`))).toMatchObject({ id: prompt.id });
    expect(await bodyOf(await member("GET", `/v1/prompts/${prompt.id}`))).toMatchObject({
      name: greeting.name,
    });
    await createPrompt({ name: "chatty", type: "chat" });
    const list = await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/prompts?label=production&size=5"));
    expect(list).toMatchObject({ page: 0, size: 5, totalElements: 1, totalPages: 1 });
    expect((list.content as Array<{ name: string }>).map((p) => p.name)).toEqual(["support/greeting"]);
    const all = await bodyOf(await member("GET", "/v1/prompts?name=CHAT"));
    expect((all.content as Array<{ name: string }>).map((p) => p.name)).toEqual(["chatty"]);
    expect(await error(await member("GET", "/v1/prompts?type=image"))).toMatchObject({
      status: 400,
      param: "type",
    });
    expect(await error(await member("GET", "/v1/prompts?size=0"))).toMatchObject({
      status: 400,
      param: "size",
    });
  });

  it("updates and refuses a taken name, a prm_ name and an empty patch", async () => {
    await createPrompt(greeting);
    await createPrompt({ name: "other", type: "text" });
    const updated = await bodyOf(await member("PATCH", `/v1/prompts/${slug}`, { name: "greet", tags: [] }));
    expect(updated).toMatchObject({ name: "greet", tags: [] });
    expect(await error(await member("PATCH", "/v1/prompts/greet", { name: "other" }))).toMatchObject({
      status: 409,
    });
    expect(await error(await member("PATCH", "/v1/prompts/greet", { name: "prm_1" }))).toMatchObject({
      status: 400,
      param: "name",
    });
    expect(await error(await member("PATCH", "/v1/prompts/greet", {}))).toMatchObject({ status: 400 });
    expect(await error(await member("POST", "/v1/prompts", { name: "other", type: "text" }))).toMatchObject({
      status: 409,
      param: "name",
    });
  });

  it("answers 400 with param on bad bodies and never 500 on malformed ones", async () => {
    const cases: Array<[unknown, string | null]> = [
      [{ type: "text" }, "name"],
      [{ name: "x", type: "image" }, "type"],
      [{ name: "x", type: "text", description: "d".repeat(4001) }, "description"],
      [{ name: "x", type: "text", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, "tags"],
      [{ name: "x", type: "text", prompt: ["a"] }, "prompt"],
      [{ name: "x", type: "chat", prompt: "a" }, "prompt"],
      [{ name: "x", type: "chat", prompt: [{ role: "user" }] }, "prompt[0].content"],
      [{ name: "x", type: "text", prompt: "a", config: { temperature: 3 } }, "config.temperature"],
      [{ name: "x", type: "text", prompt: "a", config: { pad: "x".repeat(70_000) } }, "config"],
      [{ name: "x", type: "text", prompt: "a", labels: ["Bad Label"] }, "labels[0]"],
      ["[1,2]", null],
      ["{not json", null],
    ];
    for (const [body, param] of cases) {
      const answer = await error(await member("POST", "/v1/prompts", body));
      expect(answer, JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 400, param });
    }
    await createPrompt(greeting);
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom("", "/versions", "/labels", "/compile"),
        async (body, sub) => {
          const response = await member("POST", `/v1/prompts/${slug}${sub}`, body);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps prompts to their organization and applies the roles", async () => {
    const prompt = await createPrompt(greeting);
    for (const [method, path] of [
      ["GET", `/v1/prompts/${prompt.id}`],
      ["GET", `/v1/prompts/${slug}/versions`],
      ["GET", `/v1/prompts/${slug}/resolve`],
      ["POST", `/v1/prompts/${slug}/compile`],
      ["GET", `/v1/prompts/${slug}/labels`],
    ] as const) {
      expect((await call(stranger, method, path)).status, path).toBe(404);
    }
    expect((await bodyOf(await call(stranger, "GET", "/v1/prompts"))).totalElements).toBe(0);
    const viewer = tenant.keys.viewer;
    expect((await call(viewer, "POST", "/v1/prompts", { name: "v", type: "text" })).status).toBe(403);
    expect((await call(viewer, "PATCH", `/v1/prompts/${slug}`, { tags: [] })).status).toBe(403);
    expect((await call(viewer, "POST", `/v1/prompts/${slug}/versions`, { prompt: "x" })).status).toBe(403);
    expect((await call(viewer, "PUT", `/v1/prompts/${slug}/versions/1/activate`)).status).toBe(403);
    expect((await call(viewer, "POST", `/v1/prompts/${slug}/test`, {})).status).toBe(403);
    expect(
      (await call(viewer, "POST", `/v1/prompts/${slug}/compile`, { variables: { name: "A" } })).status,
    ).toBe(200);
    expect((await call(viewer, "GET", `/v1/prompts/${slug}/resolve`)).status).toBe(200);
    expect((await member("DELETE", `/v1/prompts/${slug}/versions/1`)).status).toBe(403);
    expect((await member("DELETE", `/v1/prompts/${slug}/labels/production`)).status).toBe(403);
    expect((await member("DELETE", `/v1/prompts/${slug}`)).status).toBe(403);
    expect((await call(tenant.keys.admin, "DELETE", `/v1/prompts/${slug}`)).status).toBe(204);
    expect((await member("GET", `/v1/prompts/${prompt.id}`)).status).toBe(404);
    expect((await member("GET", "/v1/prompts/unknown")).status).toBe(404);
  });
});

describe("versions and labels", () => {
  it("commits versions, reads latest and by id or number, activates and deactivates", async () => {
    await createPrompt(greeting);
    const created = await member("POST", `/v1/prompts/${slug}/versions`, {
      prompt: "Hi {{name}}, {{mood}}?",
      changeDescription: "friendlier",
      labels: ["staging"],
    });
    expect(created.status).toBe(201);
    const v2 = await bodyOf(created);
    expect(v2).toEqual({
      id: expect.stringMatching(/^pmv_/),
      promptId: expect.stringMatching(/^prm_/),
      versionNumber: 2,
      type: "text",
      prompt: "Hi {{name}}, {{mood}}?",
      config: {},
      variables: ["name", "mood"],
      changeDescription: "friendlier",
      labels: ["latest", "staging"],
      active: true,
      copiedFromVersionId: null,
      createdAt: expect.stringMatching(ISO),
      deactivatedAt: null,
    });
    expect(await bodyOf(await member("GET", `/v1/prompts/${slug}/versions/latest`))).toMatchObject({
      versionNumber: 2,
    });
    expect(await bodyOf(await member("GET", `/v1/prompts/${slug}/versions/1`))).toMatchObject({
      labels: ["production"],
    });
    expect(await bodyOf(await member("GET", `/v1/prompts/${slug}/versions/${v2.id}`))).toMatchObject({
      versionNumber: 2,
    });
    expect((await member("GET", `/v1/prompts/${slug}/versions/9`)).status).toBe(404);
    expect(
      await error(await member("POST", `/v1/prompts/${slug}/versions`, { prompt: "x", labels: ["latest"] })),
    ).toMatchObject({ status: 409 });
    expect(await error(await member("POST", `/v1/prompts/${slug}/versions`, { prompt: [] }))).toMatchObject({
      status: 400,
      param: "prompt",
    });

    const admin = tenant.keys.admin;
    expect((await call(admin, "DELETE", `/v1/prompts/${slug}/versions/2`)).status).toBe(204);
    expect((await call(admin, "DELETE", `/v1/prompts/${slug}/versions/2`)).status).toBe(204);
    const deactivated = await bodyOf(await member("GET", `/v1/prompts/${slug}/versions/2`));
    expect(deactivated).toMatchObject({ active: false, deactivatedAt: expect.stringMatching(ISO) });
    const activated = await member("PUT", `/v1/prompts/${slug}/versions/2/activate`);
    expect(activated.status).toBe(200);
    expect(await bodyOf(activated)).toMatchObject({
      versionNumber: 3,
      copiedFromVersionId: v2.id,
      labels: ["latest", "production"],
    });
    const versions = await bodyOf(await member("GET", `/v1/prompts/${slug}/versions?size=2`));
    expect(versions).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect((versions.content as Array<{ versionNumber: number }>).map((v) => v.versionNumber)).toEqual([
      3, 2,
    ]);
  });

  it("creates, moves, lists and deletes labels with the shared rules", async () => {
    await createPrompt({ ...greeting, labels: [] });
    const v2 = await bodyOf(await member("POST", `/v1/prompts/${slug}/versions`, { prompt: "two" }));
    const created = await member("POST", `/v1/prompts/${slug}/labels`, {
      name: "beta",
      promptVersionId: v2.id,
    });
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toEqual({
      name: "beta",
      promptVersionId: v2.id,
      versionNumber: 2,
      system: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const v1 = await bodyOf(await member("GET", `/v1/prompts/${slug}/versions/1`));
    const moved = await bodyOf(
      await member("PUT", `/v1/prompts/${slug}/labels/beta`, { promptVersionId: v1.id }),
    );
    expect(moved).toMatchObject({ versionNumber: 1 });
    const labels = (await bodyOf(await member("GET", `/v1/prompts/${slug}/labels`))) as unknown as Array<{
      name: string;
      system: boolean;
    }>;
    expect(labels.map((l) => [l.name, l.system])).toEqual([
      ["latest", true],
      ["beta", false],
    ]);
    expect(
      await error(
        await member("POST", `/v1/prompts/${slug}/labels`, { name: "beta", promptVersionId: v1.id }),
      ),
    ).toMatchObject({ status: 409 });
    expect(
      await error(
        await member("POST", `/v1/prompts/${slug}/labels`, { name: "latest", promptVersionId: v1.id }),
      ),
    ).toMatchObject({ status: 409 });
    expect(
      await error(
        await member("POST", `/v1/prompts/${slug}/labels`, { name: "x", promptVersionId: "pmv_x" }),
      ),
    ).toMatchObject({ status: 404, param: "promptVersionId" });
    expect(
      await error(await member("POST", `/v1/prompts/${slug}/labels`, { name: "UP", promptVersionId: v1.id })),
    ).toMatchObject({ status: 400, param: "name" });
    expect(
      await error(await member("PUT", `/v1/prompts/${slug}/labels/nope`, { promptVersionId: v1.id })),
    ).toMatchObject({ status: 404 });
    expect(
      await error(await member("PUT", `/v1/prompts/${slug}/labels/latest`, { promptVersionId: v1.id })),
    ).toMatchObject({ status: 409 });
    const admin = tenant.keys.admin;
    expect((await call(admin, "DELETE", `/v1/prompts/${slug}/labels/latest`)).status).toBe(409);
    expect((await call(admin, "DELETE", `/v1/prompts/${slug}/labels/beta`)).status).toBe(204);
    expect((await call(admin, "DELETE", `/v1/prompts/${slug}/labels/beta`)).status).toBe(404);
  });
});

describe("resolve and compile", () => {
  it("resolves production, else latest, a label or a version; both is a 400", async () => {
    await createPrompt(greeting);
    await member("POST", `/v1/prompts/${slug}/versions`, { prompt: "two" });
    const resolved = await bodyOf(await member("GET", `/v1/prompts/${slug}/resolve`));
    expect(resolved).toEqual({
      promptId: expect.stringMatching(/^prm_/),
      name: "support/greeting",
      type: "text",
      versionId: expect.stringMatching(/^pmv_/),
      versionNumber: 1,
      label: "production",
      prompt: "Hello {{name}}!",
      config: greeting.config,
      variables: ["name"],
    });
    expect(await bodyOf(await member("GET", `/v1/prompts/${slug}/resolve?label=latest`))).toMatchObject({
      versionNumber: 2,
    });
    expect(await bodyOf(await member("GET", `/v1/prompts/${slug}/resolve?version=2`))).toMatchObject({
      versionNumber: 2,
      label: null,
    });
    expect(
      await error(await member("GET", `/v1/prompts/${slug}/resolve?version=2&label=latest`)),
    ).toMatchObject({
      status: 400,
    });
    expect(await error(await member("GET", `/v1/prompts/${slug}/resolve?version=-1`))).toMatchObject({
      status: 400,
      param: "version",
    });
    expect((await member("GET", `/v1/prompts/${slug}/resolve?label=nope`)).status).toBe(404);
  });

  it("compiles with variables, an empty body, and answers missing_variables", async () => {
    await createPrompt(greeting);
    expect(
      await bodyOf(await member("POST", `/v1/prompts/${slug}/compile`, { variables: { name: "Ada" } })),
    ).toEqual({
      promptId: expect.stringMatching(/^prm_/),
      versionId: expect.stringMatching(/^pmv_/),
      versionNumber: 1,
      type: "text",
      compiled: "Hello Ada!",
    });
    expect(await error(await member("POST", `/v1/prompts/${slug}/compile`))).toMatchObject({
      status: 400,
      code: "missing_variables",
      param: "variables",
      message: expect.stringContaining("name"),
    });
    expect(await error(await member("POST", `/v1/prompts/${slug}/compile`, { variables: [] }))).toMatchObject(
      {
        status: 400,
        param: "variables",
      },
    );
    expect(await error(await member("POST", `/v1/prompts/${slug}/compile`, { version: "1" }))).toMatchObject({
      status: 400,
      param: "version",
    });
  });
});

describe("POST /v1/prompts/{prompt}/test", () => {
  it("calls the gateway's chat path with the compiled prompt and the effective config", async () => {
    await createPrompt(greeting);
    upstream.enqueue({ text: "Hello to you", usage: { inputTokens: 11, outputTokens: 4 } });
    const response = await member("POST", `/v1/prompts/${slug}/test`, {
      variables: { name: "Ada" },
      config: { temperature: 0.9, topP: 0.5 },
    });
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      promptId: expect.stringMatching(/^prm_/),
      versionId: expect.stringMatching(/^pmv_/),
      versionNumber: 1,
      compiled: "Hello Ada!",
      model: "gw-chat-1",
      output: "Hello to you",
      finishReason: "stop",
      usage: { promptTokens: 11, completionTokens: 4, totalTokens: 15 },
      latencyMs: expect.any(Number),
    });
    expect(upstream.requests.at(-1)?.body).toMatchObject({
      messages: [{ role: "user", content: "Hello Ada!" }],
      temperature: 0.9,
      max_completion_tokens: 50,
      top_p: 0.5,
    });
    // Metered as a chat call.
    await tenant.store.usage.flush();
    expect(await tenant.store.usage.list(tenant.organizationId)).toEqual([
      expect.objectContaining({
        model: "gw-chat-1",
        promptTokens: 11,
        completionTokens: 4,
        apiKeyId: expect.any(String),
      }),
    ]);
  });

  it("sends chat messages; model_required, missing_variables and gateway errors as the gateway answers them", async () => {
    await createPrompt({
      name: "chat",
      type: "chat",
      prompt: [
        { role: "system", content: "Be {{tone}}" },
        { role: "user", content: "Hi" },
      ],
    });
    expect(
      await error(await member("POST", "/v1/prompts/chat/test", { variables: { tone: "kind" } })),
    ).toMatchObject({ status: 400, code: "model_required", param: "model" });
    expect(await error(await member("POST", "/v1/prompts/chat/test", { model: "gw-chat-1" }))).toMatchObject({
      status: 400,
      code: "missing_variables",
    });
    upstream.enqueue({ text: "ok" });
    const ok = await member("POST", "/v1/prompts/chat/test", {
      model: "gw-chat-1",
      variables: { tone: "kind" },
    });
    expect(ok.status).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({
      messages: [
        { role: "system", content: "Be kind" },
        { role: "user", content: "Hi" },
      ],
    });
    upstream.enqueue({ kind: "error", status: 400, message: "context too long" });
    const limited = await member("POST", "/v1/prompts/chat/test", {
      model: "gw-chat-1",
      variables: { tone: "x" },
    });
    upstream.enqueue({ kind: "error", status: 400, message: "context too long" });
    const direct = await member("POST", "/v1/chat/completions", {
      model: "gw-chat-1",
      messages: [{ role: "user", content: "x" }],
    });
    expect(limited.status).toBe(direct.status);
    expect(limited.status).toBeGreaterThanOrEqual(400);
    expect((await bodyOf(limited)).error.type).toBe((await bodyOf(direct)).error.type);
    const unknown = await member("POST", "/v1/prompts/chat/test", {
      model: "nope/x",
      variables: { tone: "x" },
    });
    const unknownDirect = await member("POST", "/v1/chat/completions", {
      model: "nope/x",
      messages: [{ role: "user", content: "x" }],
    });
    expect(unknown.status).toBe(unknownDirect.status);
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
  });
});
