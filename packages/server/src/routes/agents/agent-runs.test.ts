/**
 * Agent runs through `POST /v1/responses` against a scripted OpenAI-compatible upstream
 * (the built-in model service) that calls tools: server-side, relayed, approvals, timeout,
 * restart while paused, failed resume, model switch, label addressing, streaming.
 */
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AgentResponseObject } from "@groundwork/agents";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  bearer,
  bodyOf,
  createTestTenant,
  openTestDatabase,
  type TestTenant,
} from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { SERVER_SETTING_NAMES } from "../../config.js";

/** A conversation item as the tests read it. */
type Item = Record<string, unknown>;

let upstream: Upstream;
let tenant: TestTenant;
let app: App;
let now: number;
/** The platform behind the newest `build()`. */
let groundwork: Groundwork;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1", "gw-chat-2"] });
});
afterAll(async () => {
  await upstream.close();
});

function build(store = tenant.store, options: { allowPrivateNetwork?: boolean } = {}): App {
  groundwork = createGroundwork({
    store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "builtin-secret" },
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      agents: { functionTimeoutMs: 2000 },
      // Refusals name the server's environment variables, as under `groundwork serve`.
      settingNames: SERVER_SETTING_NAMES,
    },
    fetch: createFastFetch(),
    clock: { now: () => now },
  });
  return createApp({ groundwork });
}

beforeEach(async () => {
  now = Date.UTC(2026, 0, 1);
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  app = build();
});
afterEach(async () => {
  await tenant.store.close();
});

const request = (target: App, method: string, path: string, body: unknown, key: string) =>
  target.request(path, {
    method,
    body: JSON.stringify(body),
    headers: { ...bearer(key), "content-type": "application/json" },
  });

async function respond(body: unknown, key = tenant.keys.member, target = app) {
  const response = await request(target, "POST", "/v1/responses", body, key);
  const parsed = await bodyOf(response);
  return { status: response.status, body: parsed as unknown as AgentResponseObject & typeof parsed };
}

async function apply(definition: Record<string, unknown>, target = app) {
  const response = await request(target, "POST", "/v1/agents/apply", definition, tenant.keys.member);
  expect([200, 201]).toContain(response.status);
  return (await response.json()) as { agent: { id: string }; version: { id: string; versionNumber: number } };
}

/** Chat messages the upstream received in request `index`. */
function messagesOf(index: number): Array<{ role: string; content: unknown; tool_call_id?: string }> {
  const body = upstream.requests[index]?.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages;
}

const support = {
  name: "support",
  models: ["gw-chat-1", "gw-chat-2"],
  instructions: "You are the support agent.",
  tools: [
    { type: "platform.todo" },
    {
      name: "lookup_order",
      description: "Look up an order",
      parameters: { type: "object" },
      annotations: { readOnlyHint: true, destructiveHint: false },
    },
    { name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } },
    { name: "close_account", annotations: { readOnlyHint: false, destructiveHint: true } },
  ],
  hitlPolicy: { version: 1, default: "allow", classes: { write: "approve" } },
};

describe("a run without pauses", () => {
  it("calls the default model with the instructions and tools, and answers a responses object with the run envelope", async () => {
    await apply(support);
    upstream.enqueue({ text: "Hello there" });
    const { status, body } = await respond({ model: "agent/support", input: "hi" });
    expect(status).toBe(200);
    expect(body.object).toBe("response");
    expect(body.status).toBe("completed");
    expect(body.output[0]).toMatchObject({
      type: "message",
      content: [{ type: "output_text", text: "Hello there" }],
    });
    expect(body.run).toMatchObject({
      status: "completed",
      responseId: body.id,
      text: "Hello there",
      pendingApprovals: [],
      pendingToolCalls: [],
      next: null,
      model: "gw-chat-1",
    });
    expect(body.run.conversationId).toMatch(/^conv_/);
    const sent = upstream.requests[0]?.body as {
      model: string;
      tools: Array<{ function: { name: string } }>;
    };
    expect(sent.model).toBe("gw-chat-1");
    expect(sent.tools.map((t) => t.function.name)).toEqual([
      "platform_todo",
      "lookup_order",
      "refund",
      "close_account",
      "platform_deliver",
      "platform_view_image",
    ]);
    expect(messagesOf(0)[0]).toEqual({ role: "system", content: "You are the support agent." });
  });

  it("runs a server-side tool and feeds its result back to the model", async () => {
    await apply(support);
    upstream.enqueue(
      {
        toolCalls: [
          { id: "call_1", name: "platform_todo", arguments: { action: "add", text: "refund order 7" } },
        ],
      },
      { text: "Noted." },
    );
    const { body } = await respond({ model: "agent/support", input: "remember to refund order 7" });
    expect(body.run.status).toBe("completed");
    expect(body.run.toolCalls).toEqual([
      {
        callId: "call_1",
        tool: "platform_todo",
        arguments: JSON.stringify({ action: "add", text: "refund order 7" }),
        status: "completed",
        output: "1. [ ] refund order 7",
        // No judge ran on this call (PLATFORM.md §6; decision J4).
        judge: null,
      },
    ]);
    const toolMessage = messagesOf(1).find((m) => m.role === "tool");
    expect(toolMessage).toMatchObject({ tool_call_id: "call_1", content: "1. [ ] refund order 7" });
  });

  it("continues the conversation with previous_response_id and keeps the to-do list", async () => {
    await apply(support);
    upstream.enqueue(
      { toolCalls: [{ id: "c1", name: "platform_todo", arguments: { action: "add", text: "a" } }] },
      { text: "ok" },
      { toolCalls: [{ id: "c2", name: "platform_todo", arguments: { action: "list" } }] },
      { text: "listed" },
    );
    const first = await respond({ model: "agent/support", input: "add a" });
    const second = await respond({
      model: "agent/support",
      input: "list",
      previous_response_id: first.body.id,
    });
    expect(second.body.run.conversationId).toBe(first.body.run.conversationId);
    expect(second.body.run.toolCalls[0]?.output).toBe("1. [ ] a");
    expect(
      messagesOf(2)
        .filter((m) => m.role === "user")
        .map((m) => m.content),
    ).toEqual(["add a", "list"]);
  });
});

describe("model switch and addressing", () => {
  it("#model picks another listed model; an unlisted one is 400", async () => {
    await apply(support);
    upstream.enqueue({ text: "from 2" });
    const ok = await respond({ model: "agent/support#gw-chat-2", input: "hi" });
    expect(ok.status).toBe(200);
    expect(upstream.requests[0]?.body).toMatchObject({ model: "gw-chat-2" });
    expect(ok.body.run.model).toBe("gw-chat-2");
    const bad = await respond({ model: "agent/support#gw-chat-9", input: "hi" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("model");
    expect(bad.body.error.message).toMatch(/not one of the models/);
    const viaField = await respond({ model: "agent/support", agentModel: "gw-chat-9", input: "hi" });
    expect(viaField.status).toBe(400);
    expect(upstream.requests).toHaveLength(1);
  });

  it("@label and @version address older versions", async () => {
    const v1 = await apply({ ...support, instructions: "v1 instructions" });
    await request(
      app,
      "POST",
      `/v1/agents/${v1.agent.id}/labels`,
      { name: "production", agentVersionId: v1.version.id },
      tenant.keys.member,
    );
    await apply({ ...support, instructions: "v2 instructions" });
    upstream.enqueue({ text: "a" }, { text: "b" }, { text: "c" });
    await respond({ model: "agent/support@production", input: "x" });
    await respond({ model: "agent/support", input: "x" });
    const pinned = await respond({ model: "agent/support@1#gw-chat-2", input: "x" });
    expect(messagesOf(0)[0]?.content).toBe("v1 instructions");
    expect(messagesOf(1)[0]?.content).toBe("v2 instructions");
    expect(messagesOf(2)[0]?.content).toBe("v1 instructions");
    expect(pinned.body.run.agentVersionId).toBe(v1.version.id);
    expect((await respond({ model: "agent/support@staging", input: "x" })).status).toBe(404);
    expect((await respond({ model: "agent/nobody", input: "x" })).status).toBe(404);
  });

  it("Viewer keys run published agents only", async () => {
    const { agent } = await apply(support);
    const denied = await respond({ model: "agent/support", input: "x" }, tenant.keys.viewer);
    expect(denied.status).toBe(403);
    await request(app, "PATCH", `/v1/agents/${agent.id}`, { published: true }, tenant.keys.member);
    upstream.enqueue({ text: "hi viewer" });
    const allowed = await respond({ model: "agent/support", input: "x" }, tenant.keys.viewer);
    expect(allowed.status).toBe(200);
    const direct = await respond({ model: "gw-chat-1", input: "x" }, tenant.keys.viewer);
    expect(direct.status).toBe(403);
  });
});

describe("relayed tools", () => {
  it("pauses with requires_tool_output and continues with function_call_output", async () => {
    await apply(support);
    upstream.enqueue(
      { toolCalls: [{ id: "call_L", name: "lookup_order", arguments: { id: 7 } }] },
      { text: "Order 7 shipped." },
    );
    const paused = await respond({ model: "agent/support", input: "where is order 7?" });
    expect(paused.body.run).toMatchObject({
      status: "requires_tool_output",
      pendingToolCalls: [{ tool: "lookup_order", callId: "call_L", arguments: JSON.stringify({ id: 7 }) }],
    });
    expect(paused.body.output).toContainEqual(
      expect.objectContaining({ type: "function_call", call_id: "call_L", name: "lookup_order" }),
    );
    expect(paused.body.run.next).toMatch(/function_call_output/);

    const missing = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/call_L/);

    const done = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [{ type: "function_call_output", call_id: "call_L", output: "shipped" }],
    });
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.text).toBe("Order 7 shipped.");
    expect(done.body.previous_response_id).toBe(paused.body.id);
    expect(messagesOf(1).at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_L", content: "shipped" });

    const again = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [{ type: "function_call_output", call_id: "call_L", output: "shipped" }],
    });
    expect(again.status).toBe(409);
  });
});

describe("approvals", () => {
  const approvalAgent = {
    ...support,
    tools: [{ type: "platform.todo", requiresConfirmation: true }, ...support.tools.slice(1)],
  };

  it("approve runs the server tool; the approval is listed until decided", async () => {
    const { agent } = await apply(approvalAgent);
    upstream.enqueue(
      { toolCalls: [{ id: "call_T", name: "platform_todo", arguments: { action: "add", text: "x" } }] },
      { text: "added" },
    );
    const paused = await respond({ model: "agent/support", input: "add x" });
    expect(paused.body.run.status).toBe("requires_approval");
    const approval = paused.body.run.pendingApprovals[0];
    expect(approval).toMatchObject({ tool: "platform_todo", policyClass: "read", preview: null });
    expect(paused.body.output).toContainEqual(
      expect.objectContaining({ type: "approval_request", id: approval?.id }),
    );
    const listed = await bodyOf(
      await request(app, "GET", `/v1/agents/${agent.id}/approvals`, undefined, tenant.keys.viewer),
    );
    expect((listed.content as Array<{ id: string }>).map((a) => a.id)).toEqual([approval?.id]);

    const done = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [{ type: "approval_response", approval_request_id: approval?.id, approve: true }],
    });
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.toolCalls[0]).toMatchObject({
      tool: "platform_todo",
      status: "completed",
      output: "1. [ ] x",
    });
    const after = await bodyOf(
      await request(app, "GET", `/v1/agents/${agent.id}/approvals`, undefined, tenant.keys.viewer),
    );
    expect(after.content).toEqual([]);
  });

  it("reject tells the model and never runs the tool", async () => {
    await apply(approvalAgent);
    upstream.enqueue(
      { toolCalls: [{ id: "call_T", name: "platform_todo", arguments: { action: "add", text: "x" } }] },
      { text: "ok, not added" },
    );
    const paused = await respond({ model: "agent/support", input: "add x" });
    const done = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [
        {
          type: "approval_response",
          approval_request_id: paused.body.run.pendingApprovals[0]?.id,
          approve: false,
          reason: "not now",
        },
      ],
    });
    expect(done.body.run.toolCalls[0]).toMatchObject({ status: "rejected" });
    expect(messagesOf(1).at(-1)?.content).toMatch(/rejected this tool call: not now/);
  });

  it("decideAll, relayed approvals, remember, and the destructive refusal of remember", async () => {
    await apply(support);
    upstream.enqueue(
      {
        toolCalls: [
          { id: "r1", name: "refund", arguments: { order: 1 } },
          { id: "r2", name: "close_account", arguments: {} },
        ],
      },
      { text: "after" },
    );
    const paused = await respond({ model: "agent/support", input: "refund and close" });
    expect(paused.body.run.pendingApprovals.map((a) => [a.tool, a.policyClass])).toEqual([
      ["refund", "write"],
      ["close_account", "destructive"],
    ]);
    const [refund, close] = paused.body.run.pendingApprovals;
    const partial = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [{ type: "approval_response", approval_request_id: refund?.id, approve: true }],
    });
    expect(partial.status).toBe(400);
    const rememberDestructive = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [
        { type: "approval_response", approval_request_id: refund?.id, approve: true, remember: true },
        { type: "approval_response", approval_request_id: close?.id, approve: true, remember: true },
      ],
    });
    expect(rememberDestructive.status).toBe(400);
    expect(rememberDestructive.body.error.param).toBe("input[1].remember");
    // Approved client tools are relayed next.
    const relayed = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [
        { type: "approval_response", approval_request_id: refund?.id, approve: true, remember: true },
        { type: "approval_response", approval_request_id: close?.id, approve: false },
      ],
    });
    expect(relayed.body.run.status).toBe("requires_tool_output");
    expect(relayed.body.run.pendingToolCalls).toEqual([
      // Pending items carry where they stand in the pause window (PLATFORM.md §6).
      {
        tool: "refund",
        callId: "r1",
        arguments: '{"order":1}',
        expiresAt: expect.any(String),
        status: "pending",
        judge: null,
      },
    ]);
    const done = await respond({
      model: "agent/support",
      previous_response_id: relayed.body.id,
      input: [{ type: "function_call_output", call_id: "r1", output: "refunded" }],
    });
    expect(done.body.run.status).toBe("completed");
    // remember: the next refund in this conversation is relayed without a pause.
    upstream.enqueue({ toolCalls: [{ id: "r3", name: "refund", arguments: { order: 2 } }] });
    const next = await respond({
      model: "agent/support",
      input: "refund 2",
      previous_response_id: done.body.id,
    });
    expect(next.body.run.status).toBe("requires_tool_output");
  });

  it("decideAll reject answers every pending approval at once", async () => {
    await apply(support);
    upstream.enqueue(
      {
        toolCalls: [
          { id: "r1", name: "refund", arguments: {} },
          { id: "r2", name: "close_account", arguments: {} },
        ],
      },
      { text: "fine" },
    );
    const paused = await respond({ model: "agent/support", input: "x" });
    const done = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      decideAll: "reject",
      input: [],
    });
    expect(done.body.run.toolCalls.map((c) => c.status)).toEqual(["rejected", "rejected"]);
  });

  it("plan mode blocks write tools and is stored on the conversation", async () => {
    await apply(support);
    upstream.enqueue(
      { toolCalls: [{ id: "r1", name: "refund", arguments: {} }] },
      { text: "planned" },
      { text: "x" },
    );
    const planned = await respond({ model: "agent/support", input: "x", mode: "plan" });
    expect(planned.body.run).toMatchObject({ status: "completed", mode: "plan" });
    expect(planned.body.run.toolCalls[0]).toMatchObject({ tool: "refund", status: "blocked" });
    const later = await respond({
      model: "agent/support",
      input: "y",
      previous_response_id: planned.body.id,
    });
    expect(later.body.run.mode).toBe("plan");
  });
});

describe("timeouts, restarts and resumes", () => {
  it("an unanswered pause times out after one hour: answers are 409 pause_expired and the pause-window job runs the continuation with the model seeing the timeout", async () => {
    await apply(support);
    upstream.enqueue(
      { toolCalls: [{ id: "call_L", name: "lookup_order", arguments: {} }] },
      { text: "sorry, no answer" },
    );
    const paused = await respond({ model: "agent/support", input: "x" });
    now += 60 * 60 * 1000 + 1;
    const late = await respond({
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [{ type: "function_call_output", call_id: "call_L", output: "late" }],
    });
    expect(late.status).toBe(409);
    expect((late.body as unknown as { error: { code: string } }).error.code).toBe("pause_expired");
    expect(await groundwork.agents.drainWorker()).toBe(1);
    const conversation = await bodyOf(
      await request(
        app,
        "GET",
        `/v1/conversations/${paused.body.conversation.id}`,
        undefined,
        tenant.keys.member,
      ),
    );
    expect(conversation).toMatchObject({ status: "idle", turnCount: 2 });
    const done = await bodyOf(
      await request(
        app,
        "GET",
        `/v1/conversations/${paused.body.conversation.id}/items?order=asc`,
        undefined,
        tenant.keys.member,
      ),
    );
    expect((done.content as Item[]).map((item) => item.type)).toEqual([
      "message",
      "function_call",
      "function_call_output",
      "message",
    ]);
    expect((done.content as Item[])[2]).toMatchObject({
      callId: "call_L",
      output: expect.stringMatching(/within one hour/),
    });
    expect(String(messagesOf(1).at(-1)?.content)).toMatch(/within one hour/);
    const again = await respond({ model: "agent/support", previous_response_id: paused.body.id, input: [] });
    expect(again.status).toBe(409);
  });

  it("a paused run survives a server restart", async () => {
    const database = await openTestDatabase();
    try {
      let store = await database.open();
      const org = await store.organizations.create("acme", "enterprise");
      const key = (await store.apiKeys.create({ organizationId: org.id, role: "member" })).key;
      let target = build(store);
      await request(target, "POST", "/v1/agents/apply", support, key);
      upstream.enqueue(
        { toolCalls: [{ id: "call_L", name: "lookup_order", arguments: {} }] },
        { text: "after restart" },
      );
      const paused = await respond({ model: "agent/support", input: "x" }, key, target);
      expect(paused.body.run.status).toBe("requires_tool_output");
      await store.close();

      store = await database.open();
      target = build(store);
      const done = await respond(
        {
          model: "agent/support",
          previous_response_id: paused.body.id,
          input: [{ type: "function_call_output", call_id: "call_L", output: "found" }],
        },
        key,
        target,
      );
      expect(done.body.run.text).toBe("after restart");
      await store.close();
    } finally {
      database.remove();
    }
  });

  it("a failed resume never runs a tool twice: sending the continuation again resumes it", async () => {
    const hits: Array<{ body: string; signature: string | undefined }> = [];
    const hook: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        hits.push({ body, signature: req.headers["x-groundwork-signature"] as string | undefined });
        res.end("charged 10 EUR");
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const port = (hook.address() as { port: number }).port;
    try {
      app = build(tenant.store, { allowPrivateNetwork: true });
      await apply({
        ...support,
        tools: [
          {
            type: "function",
            name: "charge",
            endpoint: `http://127.0.0.1:${port}/charge`,
            secret: "s3cret",
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
      });
      upstream.enqueue(
        { toolCalls: [{ id: "call_C", name: "charge", arguments: { amount: 10 } }] },
        { kind: "error", status: 500 },
        { text: "Charged." },
      );
      const paused = await respond({ model: "agent/support", input: "charge 10" });
      expect(paused.body.run.status).toBe("requires_approval");
      const answer = {
        model: "agent/support",
        previous_response_id: paused.body.id,
        input: [
          {
            type: "approval_response",
            approval_request_id: paused.body.run.pendingApprovals[0]?.id,
            approve: true,
          },
        ],
      };
      const failed = await respond(answer);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(hits).toHaveLength(1);
      const resumed = await respond(answer);
      expect(resumed.status).toBe(200);
      expect(resumed.body.run.text).toBe("Charged.");
      expect(hits).toHaveLength(1);
      expect(resumed.body.run.toolCalls[0]).toMatchObject({
        tool: "charge",
        status: "completed",
        output: "charged 10 EUR",
      });
      const completedAgain = await respond(answer);
      expect(completedAgain.status).toBe(409);

      const hit = hits[0] as { body: string; signature: string };
      const [t, v1] = hit.signature.split(",");
      const unix = t?.slice(2) ?? "";
      const expected = createHmac("sha256", "s3cret").update(`${unix}.${hit.body}`).digest("hex");
      expect(v1).toBe(`v1=${expected}`);
      expect(JSON.parse(hit.body)).toMatchObject({
        tool: "charge",
        callId: "call_C",
        arguments: { amount: 10 },
      });
    } finally {
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });

  it("two concurrent continuations of one pause: one runs, the other is 409", async () => {
    await apply(support);
    upstream.enqueue(
      { toolCalls: [{ id: "call_L", name: "lookup_order", arguments: {} }] },
      { text: "slow", delayMs: 300 },
    );
    const paused = await respond({ model: "agent/support", input: "x" });
    const answer = {
      model: "agent/support",
      previous_response_id: paused.body.id,
      input: [{ type: "function_call_output", call_id: "call_L", output: "o" }],
    };
    const first = respond(answer);
    await upstream.waitFor((requests) => requests.length === 2);
    const second = await respond(answer);
    expect(second.status).toBe(409);
    expect(second.body.error.message).toMatch(/still running/);
    expect((await first).body.run.text).toBe("slow");
    expect(upstream.requests).toHaveLength(2);
  });

  it("function endpoints on private addresses are refused unless allowed", async () => {
    await apply({
      ...support,
      hitlPolicy: { default: "allow" },
      tools: [{ type: "function", name: "ping", endpoint: "http://127.0.0.1:9/ping" }],
    });
    upstream.enqueue({ toolCalls: [{ id: "p", name: "ping", arguments: {} }] }, { text: "could not" });
    const { body } = await respond({ model: "agent/support", input: "x" });
    expect(body.run.toolCalls[0]).toMatchObject({ status: "failed" });
    expect(body.run.toolCalls[0]?.output).toMatch(/GROUNDWORK_ALLOW_PRIVATE_NETWORK=1/);
  });
});

describe("streaming", () => {
  it("emits the responses protocol's typed events, ending with response.completed carrying the run", async () => {
    await apply(support);
    upstream.enqueue(
      { toolCalls: [{ id: "c1", name: "platform_todo", arguments: { action: "list" } }] },
      { text: "All done" },
    );
    const response = await request(
      app,
      "POST",
      "/v1/responses",
      { model: "agent/support", input: "x", stream: true },
      tenant.keys.member,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const text = await response.text();
    const events = text
      .split("\n\n")
      .filter((block) => block.startsWith("event: "))
      .map((block) => {
        const [head, data] = block.split("\n");
        return { name: head?.slice(7), data: JSON.parse(data?.slice(6) ?? "{}") as Record<string, unknown> };
      });
    const names = events.map((e) => e.name);
    expect(names[0]).toBe("response.created");
    expect(names[1]).toBe("response.in_progress");
    expect(names).toContain("response.agent_tool_call.done");
    expect(names).toContain("response.output_text.delta");
    expect(names.at(-1)).toBe("response.completed");
    const deltas = events
      .filter((e) => e.name === "response.output_text.delta")
      .map((e) => e.data.delta)
      .join("");
    expect(deltas).toBe("All done");
    const final = events.at(-1)?.data.response as AgentResponseObject;
    expect(final.run.text).toBe("All done");
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it("a validation error before the stream starts is a plain HTTP error", async () => {
    await apply(support);
    const response = await request(
      app,
      "POST",
      "/v1/responses",
      { model: "agent/support#nope", input: "x", stream: true },
      tenant.keys.member,
    );
    expect(response.status).toBe(400);
  });
});
