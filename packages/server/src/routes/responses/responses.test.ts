import { STORED_RESPONSE_RETENTION_MS } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentTenant } from "../../../test/agent-tenant-support.js";
import { bearer, bodyOf, openTestStore, type TestTenant } from "../../../test/test-support.js";
import type { App } from "../../app.js";
import { listen } from "../../http-server.js";

let upstream: Upstream;
let tenant: TestTenant;
let app: App;
let stranger: string;
let colleague: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await upstream.close();
});

beforeEach(async () => {
  upstream.reset();
  ({ tenant, app, stranger, colleague } = await agentTenant(upstream.url));
  const applied = await json(tenant.keys.member, "POST", "/v1/agents/apply", support);
  expect([200, 201]).toContain(applied.status);
});
afterEach(async () => {
  await tenant.store.close();
});

const support = {
  name: "support",
  models: ["gw-chat-1"],
  tools: [{ name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } }],
  hitlPolicy: { version: 1, default: "allow", classes: { write: "approve" } },
};

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const error = async (response: Response) => ({ status: response.status, ...(await bodyOf(response)).error });
const plain = async (input: unknown, key = tenant.keys.member) => {
  upstream.enqueue({ text: "Hi there" });
  const response = await json(key, "POST", "/v1/responses", { model: "gw-chat-1", input });
  expect(response.status).toBe(200);
  return bodyOf(response);
};

describe("GET /v1/responses/{id}", () => {
  it("returns a plain answer exactly as created; another organization's is 404", async () => {
    const created = await plain("hello");
    const read = await json(tenant.keys.viewer, "GET", `/v1/responses/${created.id}`);
    expect(read.status).toBe(200);
    expect(await bodyOf(read)).toEqual(created);
    expect(await error(await json(stranger, "GET", `/v1/responses/${created.id}`))).toMatchObject({
      status: 404,
      code: "not_found",
    });
    expect((await json(tenant.keys.viewer, "GET", "/v1/responses/resp_unknown")).status).toBe(404);
  });

  it("stores a streamed plain answer once the stream completes", async () => {
    upstream.enqueue({ text: "streamed" });
    const response = await json(tenant.keys.member, "POST", "/v1/responses", {
      model: "gw-chat-1",
      input: "hi",
      stream: true,
    });
    const text = await response.text();
    const completed = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; response?: { id: string } })
      .find((event) => event.type === "response.completed");
    const id = completed?.response?.id;
    expect(id).toMatch(/^resp_/);
    expect(await bodyOf(await json(tenant.keys.viewer, "GET", `/v1/responses/${id}`))).toEqual(
      completed?.response,
    );
  });

  it("reads an agent run with its current status and run envelope", async () => {
    upstream.enqueue({ toolCalls: [{ id: "r1", name: "refund", arguments: {} }] });
    const paused = await bodyOf(
      await json(tenant.keys.member, "POST", "/v1/responses", { model: "agent/support", input: "refund" }),
    );
    expect((paused.run as { status: string }).status).toBe("requires_approval");
    const conversationId = (await tenant.store.agents.getRun(tenant.organizationId, paused.id as string))
      ?.conversationId as string;
    await json(tenant.keys.member, "POST", `/v1/conversations/${conversationId}/cancel`);
    const read = await bodyOf(await json(tenant.keys.viewer, "GET", `/v1/responses/${paused.id}`));
    expect(read).toMatchObject({ id: paused.id, status: "cancelled" });
    const items = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/responses/${paused.id}/input_items`),
    );
    expect(items).toMatchObject({
      content: [{ type: "message", role: "user", content: [{ type: "input_text", text: "refund" }] }],
      totalElements: 1,
    });
    // Deleted with its conversation.
    await json(tenant.keys.member, "DELETE", `/v1/conversations/${conversationId}`);
    expect((await json(tenant.keys.viewer, "GET", `/v1/responses/${paused.id}`)).status).toBe(404);
    expect(await tenant.store.storedResponses.get(tenant.organizationId, paused.id as string)).toBeNull();
  });

  it("is read back by the OpenAI SDK's responses.retrieve()", async () => {
    const server = await listen(app, { host: "127.0.0.1", port: 0 });
    try {
      const client = new OpenAI({ apiKey: tenant.keys.member, baseURL: `${server.url}/v1`, maxRetries: 0 });
      upstream.enqueue({ text: "Hi there" });
      const created = await client.responses.create({ model: "gw-chat-1", input: "hello" });
      const retrieved = await client.responses.retrieve(created.id);
      expect(retrieved.id).toBe(created.id);
      expect(retrieved.output_text).toBe("Hi there");
    } finally {
      await server.close(0);
    }
  });
});

describe("GET /v1/responses/{id}/input_items", () => {
  it("pages the input items newest first by default, or ascending; bad queries are 400 naming the field", async () => {
    const created = await plain([
      { role: "user", content: "one" },
      { role: "assistant", content: "two" },
      { role: "user", content: "three" },
    ]);
    const path = `/v1/responses/${created.id}/input_items`;
    const desc = await bodyOf(await json(tenant.keys.viewer, "GET", `${path}?size=2`));
    expect(desc).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect((desc.content as Array<{ content: string }>).map((item) => item.content)).toEqual([
      "three",
      "two",
    ]);
    const asc = await bodyOf(await json(tenant.keys.viewer, "GET", `${path}?order=asc&page=1&size=2`));
    expect((asc.content as Array<{ content: string }>).map((item) => item.content)).toEqual(["three"]);
    for (const query of ["order=up", "page=-1", "size=0", "size=101"]) {
      const answer = await error(await json(tenant.keys.viewer, "GET", `${path}?${query}`));
      expect(answer).toMatchObject({ status: 400, param: query.split("=")[0] });
    }
    expect((await json(stranger, "GET", path)).status).toBe(404);
  });

  it("never answers 5xx to fuzzed queries or ids", async () => {
    const created = await plain("x");
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.string(), async (order, page, id) => {
        const query = new URLSearchParams({ order, page }).toString();
        for (const path of [
          `/v1/responses/${created.id}/input_items?${query}`,
          `/v1/responses/${encodeURIComponent(id) || "x"}`,
        ]) {
          const response = await json(tenant.keys.viewer, "GET", path);
          expect(response.status).toBeLessThan(500);
        }
        const deleted = await json(
          tenant.keys.viewer,
          "DELETE",
          `/v1/responses/${encodeURIComponent(id) || "x"}`,
          id,
        );
        expect(deleted.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});

describe("DELETE /v1/responses/{id}", () => {
  it("lets the owner and Admins delete; other Members and Viewers get 403, other organizations 404", async () => {
    const mine = await plain("a");
    for (const key of [colleague, tenant.keys.viewer]) {
      expect(await error(await json(key, "DELETE", `/v1/responses/${mine.id}`))).toMatchObject({
        status: 403,
        code: "forbidden",
      });
    }
    expect((await json(stranger, "DELETE", `/v1/responses/${mine.id}`)).status).toBe(404);
    expect((await json(tenant.keys.member, "DELETE", `/v1/responses/${mine.id}`)).status).toBe(204);
    expect((await json(tenant.keys.member, "GET", `/v1/responses/${mine.id}`)).status).toBe(404);
    expect((await json(tenant.keys.member, "DELETE", `/v1/responses/${mine.id}`)).status).toBe(404);
    const theirs = await plain("b", colleague);
    expect((await json(tenant.keys.admin, "DELETE", `/v1/responses/${theirs.id}`)).status).toBe(204);
  });

  it("is 409 while the turn runs; a deleted paused run can no longer be continued", async () => {
    upstream.enqueue({ text: "slow", delayMs: 300 });
    const running = json(tenant.keys.member, "POST", "/v1/responses", {
      model: "agent/support",
      input: "go",
    });
    await upstream.waitFor((requests) => requests.length === 1);
    const run = (
      await tenant.store.agents.listRunsByStatus(
        tenant.organizationId,
        ((await tenant.store.agents.getByName(tenant.organizationId, "support"))?.id ?? "") as string,
        ["in_progress"],
      )
    ).at(0);
    expect(await error(await json(tenant.keys.member, "DELETE", `/v1/responses/${run?.id}`))).toMatchObject({
      status: 409,
      code: "conflict",
    });
    expect((await running).status).toBe(200);

    upstream.enqueue({ toolCalls: [{ id: "r1", name: "refund", arguments: {} }] });
    const paused = await bodyOf(
      await json(tenant.keys.member, "POST", "/v1/responses", { model: "agent/support", input: "refund" }),
    );
    expect((await json(tenant.keys.member, "DELETE", `/v1/responses/${paused.id}`)).status).toBe(204);
    const approvalId = (paused.run as { pendingApprovals: Array<{ id: string }> }).pendingApprovals[0]?.id;
    const late = await json(tenant.keys.member, "POST", "/v1/responses", {
      model: "agent/support",
      previous_response_id: paused.id,
      input: [{ type: "approval_response", approval_request_id: approvalId, approve: true }],
    });
    expect(late.status).toBe(404);
  });
});

describe("retention", () => {
  it("keeps a plain answer without a conversation 30 days", async () => {
    let now = Date.parse("2026-01-01T00:00:00.000Z");
    const clock = { now: () => now };
    const store = await openTestStore({ clock });
    const org = (await store.organizations.ensure("o", "enterprise")).organization;
    await store.storedResponses.save({
      id: "resp_1",
      organizationId: org.id,
      createdByKeyId: "key_1",
      kind: "model",
      conversationId: null,
      input: [],
      response: { id: "resp_1" },
      retainForMs: STORED_RESPONSE_RETENTION_MS,
    });
    now += STORED_RESPONSE_RETENTION_MS - 1;
    expect(await store.storedResponses.get(org.id, "resp_1")).not.toBeNull();
    now += 1;
    expect(await store.storedResponses.get(org.id, "resp_1")).toBeNull();
    expect(await store.storedResponses.purgeExpired()).toBe(1);
    await store.close();
  });
});
