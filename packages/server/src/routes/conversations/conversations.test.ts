/**
 * `/v1/conversations…` (PLATFORM.md §2): each endpoint's success, validation, roles (own
 * update/cancel/delete for Viewer and Member, any for Admin) and isolation, items appended by
 * agent turns, and cancel of a running and of a paused turn.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentTenant } from "../../../test/agent-tenant-support.js";
import { bearer, bodyOf, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let upstream: Upstream;
let tenant: TestTenant;
let app: App;
/** A Member key of another organization. */
let stranger: string;
/** A second Member of the same organization. */
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

/** A conversation item as the tests read it. */
type Item = Record<string, unknown>;

const support = {
  name: "support",
  models: ["gw-chat-1"],
  tools: [
    { type: "platform.todo" },
    { name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } },
    { name: "lookup", annotations: { readOnlyHint: true, destructiveHint: false } },
  ],
  hitlPolicy: { version: 1, default: "allow", classes: { write: "approve" } },
};

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const create = async (key: string, body: unknown = {}) => {
  const response = await json(key, "POST", "/v1/conversations", body);
  expect(response.status).toBe(201);
  return bodyOf(response);
};
const agentId = async () =>
  ((await tenant.store.agents.getByName(tenant.organizationId, "support"))?.id ?? "") as string;
const turn = async (conversation: string, input: unknown, key = tenant.keys.member) =>
  bodyOf(await json(key, "POST", "/v1/responses", { model: "agent/support", conversation, input }));
const error = async (response: Response) => ({ status: response.status, ...(await bodyOf(response)).error });

describe("POST /v1/conversations", () => {
  it("creates with defaults, with an agent, title, metadata, mode and seed items", async () => {
    const bare = await create(tenant.keys.viewer);
    expect(bare).toEqual({
      id: expect.stringMatching(/^conv_/),
      object: "conversation",
      agentId: null,
      agentName: null,
      title: null,
      metadata: {},
      mode: "ask",
      status: "idle",
      lastResponseId: null,
      turnCount: 0,
      createdByKeyId: expect.stringMatching(/^key_/),
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      lastActivityAt: bare.createdAt,
    });
    const full = await create(tenant.keys.member, {
      agentId: await agentId(),
      title: "Refunds",
      metadata: { ticket: "42" },
      mode: "plan",
      items: [{ type: "message", role: "user", content: "hello" }],
    });
    expect(full).toMatchObject({
      agentId: await agentId(),
      agentName: "support",
      title: "Refunds",
      mode: "plan",
    });
    const items = await bodyOf(await json(tenant.keys.member, "GET", `/v1/conversations/${full.id}/items`));
    expect(items.content).toEqual([
      {
        id: expect.stringMatching(/^item_/),
        type: "message",
        responseId: null,
        position: 0,
        createdAt: expect.stringMatching(/Z$/),
        role: "user",
        content: [{ type: "input_text", text: "hello" }],
      },
    ]);
  });

  it("answers 400 naming the field, 404 for an unknown agent, and never 5xx on malformed bodies", async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
    const cases: Array<[unknown, number, string]> = [
      [{ metadata: tooMany }, 400, "metadata"],
      [{ metadata: { k: "x".repeat(513) } }, 400, "metadata.k"],
      [{ title: "" }, 400, "title"],
      [{ mode: "yolo" }, 400, "mode"],
      [
        { items: Array.from({ length: 21 }, () => ({ type: "message", role: "user", content: "x" })) },
        400,
        "items",
      ],
      [{ agentId: "agt_nope" }, 404, "agentId"],
    ];
    for (const [body, status, param] of cases) {
      const answer = await error(await json(tenant.keys.member, "POST", "/v1/conversations", body));
      expect(answer, JSON.stringify(body)).toMatchObject({ status, param });
    }
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), async (body) => {
        const response = await json(tenant.keys.member, "POST", "/v1/conversations", body);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});

describe("GET /v1/conversations and /v1/conversations/{id}", () => {
  it("lists the organization's conversations newest activity first with filters; another organization's is 404", async () => {
    const a = await create(tenant.keys.member, { mode: "auto" });
    const b = await create(tenant.keys.viewer, { agentId: await agentId() });
    const all = await bodyOf(await json(tenant.keys.viewer, "GET", "/v1/conversations"));
    expect(all).toMatchObject({ page: 0, size: 20, totalElements: 2 });
    const auto = await bodyOf(await json(tenant.keys.viewer, "GET", "/v1/conversations?mode=auto"));
    expect(auto.content).toMatchObject([{ id: a.id }]);
    const bound = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/conversations?agentId=${await agentId()}`),
    );
    expect(bound.content).toMatchObject([{ id: b.id }]);
    const idle = await bodyOf(await json(tenant.keys.viewer, "GET", "/v1/conversations?status=idle"));
    expect(idle.totalElements).toBe(2);
    for (const query of ["status=nope", "mode=x", "size=0", "page=-1"]) {
      const answer = await error(await json(tenant.keys.viewer, "GET", `/v1/conversations?${query}`));
      expect(answer).toMatchObject({ status: 400, param: query.split("=")[0] });
    }
    expect((await bodyOf(await json(stranger, "GET", "/v1/conversations"))).totalElements).toBe(0);
    expect((await json(tenant.keys.viewer, "GET", `/v1/conversations/${a.id}`)).status).toBe(200);
    expect(await error(await json(stranger, "GET", `/v1/conversations/${a.id}`))).toMatchObject({
      status: 404,
      code: "not_found",
    });
  });
});

describe("PATCH and DELETE /v1/conversations/{id}", () => {
  it("lets the owner and Admins update and delete; other Members and Viewers get 403, other organizations 404", async () => {
    const own = await create(tenant.keys.member);
    const patched = await json(tenant.keys.member, "PATCH", `/v1/conversations/${own.id}`, {
      title: "t",
      metadata: { a: "b" },
      mode: "auto",
    });
    expect(patched.status).toBe(200);
    expect(await bodyOf(patched)).toMatchObject({ title: "t", metadata: { a: "b" }, mode: "auto" });
    const replaced = await bodyOf(
      await json(tenant.keys.member, "PATCH", `/v1/conversations/${own.id}`, { metadata: { c: "d" } }),
    );
    expect(replaced.metadata).toEqual({ c: "d" });
    expect(
      await error(await json(tenant.keys.member, "PATCH", `/v1/conversations/${own.id}`, {})),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await error(await json(tenant.keys.member, "PATCH", `/v1/conversations/${own.id}`, { mode: 1 })),
    ).toMatchObject({ status: 400, param: "mode" });
    for (const key of [colleague, tenant.keys.viewer]) {
      expect((await json(key, "PATCH", `/v1/conversations/${own.id}`, { title: "x" })).status).toBe(403);
      expect((await json(key, "DELETE", `/v1/conversations/${own.id}`)).status).toBe(403);
      expect((await json(key, "POST", `/v1/conversations/${own.id}/cancel`)).status).toBe(403);
    }
    expect((await json(stranger, "PATCH", `/v1/conversations/${own.id}`, { title: "x" })).status).toBe(404);
    expect((await json(stranger, "DELETE", `/v1/conversations/${own.id}`)).status).toBe(404);
    expect(
      (await json(tenant.keys.admin, "PATCH", `/v1/conversations/${own.id}`, { title: "a" })).status,
    ).toBe(200);
    const viewers = await create(tenant.keys.viewer);
    expect(
      (await json(tenant.keys.viewer, "PATCH", `/v1/conversations/${viewers.id}`, { title: "v" })).status,
    ).toBe(200);
    expect((await json(tenant.keys.viewer, "DELETE", `/v1/conversations/${viewers.id}`)).status).toBe(204);
    expect((await json(tenant.keys.admin, "DELETE", `/v1/conversations/${own.id}`)).status).toBe(204);
    expect((await json(tenant.keys.member, "GET", `/v1/conversations/${own.id}`)).status).toBe(404);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), async (body) => {
        const response = await json(tenant.keys.viewer, "PATCH", `/v1/conversations/${viewers.id}`, body);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});

describe("turns, items and summary", () => {
  it("binds an unbound conversation on its first turn and appends each response's input, calls, outputs and messages", async () => {
    const conversation = await create(tenant.keys.member);
    upstream.enqueue(
      { toolCalls: [{ id: "c1", name: "platform_todo", arguments: { action: "add", text: "a" } }] },
      { text: "done" },
      { text: "second" },
    );
    const first = await turn(conversation.id as string, "hello");
    expect(first.status).toBe("completed");
    await turn(conversation.id as string, "again");
    const read = await bodyOf(await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}`));
    expect(read).toMatchObject({
      agentId: await agentId(),
      agentName: "support",
      status: "idle",
      turnCount: 2,
    });
    const asc = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}/items?order=asc`),
    );
    expect((asc.content as Item[]).map((item) => item.type)).toEqual([
      "message",
      "function_call",
      "function_call_output",
      "message",
      "message",
      "message",
    ]);
    expect((asc.content as Item[]).map((item) => item.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((asc.content as Item[])[1]).toMatchObject({
      callId: "c1",
      name: "platform_todo",
      status: "completed",
      responseId: first.id,
    });
    expect((asc.content as Item[])[3]).toMatchObject({
      role: "assistant",
      content: [{ type: "output_text", text: "done" }],
    });
    const desc = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}/items?size=2`),
    );
    expect((desc.content as Item[]).map((item) => item.position)).toEqual([5, 4]);
    const calls = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}/items?type=function_call`),
    );
    expect(calls.totalElements).toBe(1);
    for (const query of ["order=up", "type=nope", "size=101"]) {
      const answer = await error(
        await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}/items?${query}`),
      );
      expect(answer).toMatchObject({ status: 400, param: query.split("=")[0] });
    }
    expect((await json(stranger, "GET", `/v1/conversations/${conversation.id}/items`)).status).toBe(404);
    const summary = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}/summary`),
    );
    expect(summary).toMatchObject({
      conversationId: conversation.id,
      agentName: "support",
      status: "idle",
      turnCount: 2,
      itemCount: 6,
      pendingApprovalCount: 0,
      toolCallCount: 1,
      usage: { totalTokens: expect.any(Number) },
    });
    expect((await json(stranger, "GET", `/v1/conversations/${conversation.id}/summary`)).status).toBe(404);
    // A turn of another agent on a bound conversation is 404 naming conversationId.
    await json(tenant.keys.member, "POST", "/v1/agents/apply", { ...support, name: "other" });
    const other = await json(tenant.keys.member, "POST", "/v1/responses", {
      model: "agent/other",
      conversation: conversation.id,
      input: "x",
    });
    expect(await error(other)).toMatchObject({ status: 404, param: "conversationId" });
  });
});

describe("GET /v1/conversations/{id}/summary usage.costEur", () => {
  it("sums what the runs' built-in model calls cost at the gateway's prices", async () => {
    const priced = createApp({
      groundwork: createGroundwork({
        store: tenant.store,
        config: {
          builtin: { baseUrl: upstream.url, apiKey: "k" },
          chatPrices: { "gw-chat-1": { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } },
        },
        fetch: createFastFetch(),
      }),
    });
    const request = (method: string, path: string, body?: unknown) =>
      priced.request(path, {
        method,
        headers: { ...bearer(tenant.keys.member), "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const conversation = await bodyOf(
      await request("POST", "/v1/conversations", { agentId: await agentId() }),
    );
    upstream.enqueue({ text: "one", usage: { inputTokens: 3, outputTokens: 2 } });
    await request("POST", "/v1/responses", {
      model: "agent/support",
      conversation: conversation.id,
      input: "a",
    });
    upstream.enqueue({ text: "two", usage: { inputTokens: 5, outputTokens: 1 } });
    await request("POST", "/v1/responses", {
      model: "agent/support",
      conversation: conversation.id,
      input: "b",
    });
    const summary = await bodyOf(await request("GET", `/v1/conversations/${conversation.id}/summary`));
    // (3 + 5) input tokens at 1 EUR each, (2 + 1) output tokens at 2 EUR each.
    expect(summary.usage).toEqual({ inputTokens: 8, outputTokens: 3, totalTokens: 11, costEur: 14 });
  });
});

describe("POST /v1/conversations/{id}/cancel", () => {
  it("is 409 no_active_turn on an idle conversation and 404 for another organization", async () => {
    const conversation = await create(tenant.keys.member);
    expect(
      await error(await json(tenant.keys.member, "POST", `/v1/conversations/${conversation.id}/cancel`)),
    ).toMatchObject({
      status: 409,
      code: "no_active_turn",
    });
    expect((await json(stranger, "POST", `/v1/conversations/${conversation.id}/cancel`)).status).toBe(404);
    const long = await error(
      await json(tenant.keys.member, "POST", `/v1/conversations/${conversation.id}/cancel`, {
        reason: "x".repeat(513),
      }),
    );
    expect(long).toMatchObject({ status: 400, param: "reason" });
  });

  it("closes a paused turn: pending approvals withdrawn, the response reads cancelled, its continuation is 409", async () => {
    const conversation = await create(tenant.keys.member, { agentId: await agentId() });
    upstream.enqueue({ toolCalls: [{ id: "r1", name: "refund", arguments: {} }] });
    const paused = await turn(conversation.id as string, "refund please");
    expect(paused.status).toBe("completed");
    expect((paused.run as { status: string }).status).toBe("requires_approval");
    expect(
      (await bodyOf(await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}`))).status,
    ).toBe("paused");
    const cancelled = await json(tenant.keys.admin, "POST", `/v1/conversations/${conversation.id}/cancel`, {
      reason: "changed my mind",
    });
    expect(cancelled.status).toBe(200);
    expect(await bodyOf(cancelled)).toEqual({
      conversationId: conversation.id,
      responseId: paused.id,
      status: "cancelled",
      previousStatus: "requires_approval",
    });
    const approvalId = (paused.run as { pendingApprovals: Array<{ id: string }> }).pendingApprovals[0]?.id;
    const late = await json(tenant.keys.member, "POST", "/v1/responses", {
      model: "agent/support",
      previous_response_id: paused.id,
      input: [{ type: "approval_response", approval_request_id: approvalId, approve: true }],
    });
    expect(await error(late)).toMatchObject({ status: 409, param: "previous_response_id" });
    const read = await bodyOf(await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}`));
    expect(read.status).toBe("idle");
    const state = (await tenant.store.agents.getRun(tenant.organizationId, paused.id as string))?.state as {
      pendingApprovals: unknown[];
      incompleteReason: string;
    };
    expect(state).toMatchObject({
      pendingApprovals: [],
      incompleteReason: "cancelled",
      cancelReason: "changed my mind",
    });
    expect(
      (await json(tenant.keys.member, "POST", `/v1/conversations/${conversation.id}/cancel`)).status,
    ).toBe(409);
    // The conversation goes on with a new message.
    upstream.enqueue({ text: "ok" });
    expect((await turn(conversation.id as string, "never mind")).status).toBe("completed");
  });

  it("stops a running turn at its next step boundary; the open request answers the cancelled response", async () => {
    const conversation = await create(tenant.keys.member, { agentId: await agentId() });
    upstream.enqueue(
      {
        toolCalls: [{ id: "l1", name: "platform_todo", arguments: { action: "add", text: "a" } }],
        delayMs: 300,
      },
      { text: "never asked" },
    );
    const running = turn(conversation.id as string, "go");
    await upstream.waitFor((requests) => requests.length === 1);
    const listed = await bodyOf(
      await json(tenant.keys.viewer, "GET", "/v1/conversations?status=in_progress"),
    );
    expect(listed.content).toMatchObject([{ id: conversation.id }]);
    const busy = await json(tenant.keys.member, "POST", "/v1/responses", {
      model: "agent/support",
      conversation: conversation.id,
      input: "more",
    });
    expect(await error(busy)).toMatchObject({ status: 409, code: "turn_in_progress" });
    const cancelled = await bodyOf(
      await json(tenant.keys.member, "POST", `/v1/conversations/${conversation.id}/cancel`),
    );
    expect(cancelled).toMatchObject({ status: "cancelled", previousStatus: "in_progress" });
    const response = await running;
    expect(response).toMatchObject({
      id: cancelled.responseId,
      status: "cancelled",
      incomplete_details: { reason: "cancelled" },
    });
    expect((response.run as { toolCalls: Array<{ status: string }> }).toolCalls).toMatchObject([
      { callId: "l1", status: "interrupted" },
    ]);
    expect(upstream.requests).toHaveLength(1);
    const items = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/conversations/${conversation.id}/items?order=asc`),
    );
    expect((items.content as Item[]).map((item) => item.type)).toEqual([
      "message",
      "function_call",
      "function_call_output",
    ]);
  });

  it("DELETE cancels a running turn first and removes its stored runs", async () => {
    const conversation = await create(tenant.keys.member, { agentId: await agentId() });
    upstream.enqueue({ text: "slow", delayMs: 200 });
    const running = turn(conversation.id as string, "go");
    await upstream.waitFor((requests) => requests.length === 1);
    expect((await json(tenant.keys.member, "DELETE", `/v1/conversations/${conversation.id}`)).status).toBe(
      204,
    );
    expect(await running).toMatchObject({ status: "completed" });
    expect((await json(tenant.keys.member, "GET", `/v1/conversations/${conversation.id}`)).status).toBe(404);
    expect(
      await tenant.store.conversations.runStates(tenant.organizationId, conversation.id as string),
    ).toEqual([]);
  });
});
