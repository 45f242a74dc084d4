/**
 * The `auto`-mode judge (PLATFORM.md §6) through the real runner: agent runs in `auto` mode
 * against a scripted OpenAI-compatible upstream that answers both the agent's model calls
 * and the judge's.
 */
import type { AgentResponseObject } from "@groundwork/agents";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { platformConfigFromEnv } from "../../config.js";

const BUILTIN_KEY = "sk-builtin-judge-secret-0123456789";

let upstream: Upstream;
let tenant: TestTenant;
let app: App;
let groundwork: Groundwork;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1", "gw-judge"] });
});
afterAll(async () => {
  await upstream.close();
});

function build(env: NodeJS.ProcessEnv = {}): App {
  const fromEnv = platformConfigFromEnv(env);
  groundwork = createGroundwork({
    store: tenant.store,
    config: {
      ...(fromEnv.agents === undefined ? {} : { agents: fromEnv.agents }),
      settingNames: fromEnv.settingNames ?? {},
      builtin: { baseUrl: upstream.url, apiKey: BUILTIN_KEY },
      chatPrices: {
        "gw-chat-1": { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 },
        "gw-judge": { inputPerMillion: 10_000_000, outputPerMillion: 10_000_000 },
      },
    },
    fetch: createFastFetch(),
  });
  return createApp({ groundwork });
}

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  app = build();
});
afterEach(async () => {
  await tenant.store.close();
});

const request = (method: string, path: string, body?: unknown, key = tenant.keys.member) =>
  app.request(path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { ...bearer(key), "content-type": "application/json" },
  });

async function respond(body: unknown) {
  const response = await request("POST", "/v1/responses", body);
  const parsed = await bodyOf(response);
  return { status: response.status, body: parsed as unknown as AgentResponseObject & typeof parsed };
}

const INSTRUCTIONS = `You handle refunds for the shop. ${"Be careful. ".repeat(300)}`;

const refunds = {
  name: "refunds",
  models: ["gw-chat-1"],
  instructions: INSTRUCTIONS,
  tools: [
    {
      type: "function",
      name: "refund",
      description: "Refund an order",
      endpoint: "https://example.test/refund",
      parameters: { type: "object" },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    {
      name: "lookup_order",
      description: "Look up an order",
      annotations: { readOnlyHint: true, destructiveHint: false },
    },
    {
      name: "notify",
      description: "Send the customer a note",
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
  ],
  hitlPolicy: { version: 1, default: "allow", classes: { write: "approve", read: "auto" } },
};

async function applyRefunds(): Promise<string> {
  const response = await request("POST", "/v1/agents/apply", refunds);
  expect([200, 201]).toContain(response.status);
  return ((await response.json()) as { agent: { id: string } }).agent.id;
}

/** Chat request bodies the upstream received. */
const sent = () =>
  upstream.requests.map(
    (r) =>
      r.body as {
        model: string;
        temperature?: number;
        response_format?: unknown;
        messages: Array<{ role: string; content: string }>;
      },
  );
const isJudgeCall = (body: ReturnType<typeof sent>[number]) =>
  body.messages[0]?.content.includes("approval judge") === true;

const verdict = (decision: string, reason: string) => ({
  text: JSON.stringify({ decision, reason }),
  usage: { inputTokens: 40, outputTokens: 10 },
});

describe("the auto-mode judge", () => {
  it("approve runs the tool (relayed here) with the verdict on the call; the judge is metered and counts in the conversation", async () => {
    await applyRefunds();
    upstream.enqueue(
      {
        toolCalls: [{ id: "n1", name: "notify", arguments: { text: "refund on its way" } }],
        usage: { inputTokens: 5, outputTokens: 3 },
      },
      verdict("approve", "the user asked to be told"),
    );
    const first = await respond({ model: "agent/refunds", input: "tell me when it is done", mode: "auto" });
    expect(first.status).toBe(200);
    expect(first.body.run.status).toBe("requires_tool_output");
    expect(first.body.run.pendingToolCalls).toMatchObject([
      {
        callId: "n1",
        judge: { decision: "approve", reason: "the user asked to be told", model: "gw-chat-1" },
      },
    ]);
    expect(first.body.usage).toMatchObject({ input_tokens: 45, output_tokens: 13 });

    // The judge's request: the run's model, temperature 0, JSON output, the inputs.
    const judge = sent()[1];
    expect(judge && isJudgeCall(judge)).toBe(true);
    expect(judge).toMatchObject({
      model: "gw-chat-1",
      temperature: 0,
      response_format: { type: "json_object" },
    });
    const shown = JSON.parse(judge?.messages[1]?.content ?? "{}");
    expect(shown).toMatchObject({
      tool: {
        name: "notify",
        class: "write",
        description: "Send the customer a note",
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      },
      arguments: { text: "refund on its way" },
      latestUserMessage: "tell me when it is done",
      mode: "auto",
    });
    expect(shown.instructions).toBe(INSTRUCTIONS.slice(0, 2000));
    expect(judge?.messages[0]?.content).toContain(
      "(4) its arguments carry no credentials or secrets, (5) it stays within the agent's instructions",
    );

    upstream.enqueue({ text: "Sent.", usage: { inputTokens: 7, outputTokens: 2 } });
    const done = await respond({
      model: "agent/refunds",
      previous_response_id: first.body.id,
      input: [{ type: "function_call_output", call_id: "n1", output: "sent" }],
    });
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.toolCalls).toEqual([
      {
        callId: "n1",
        tool: "notify",
        arguments: JSON.stringify({ text: "refund on its way" }),
        status: "completed",
        output: "sent",
        judge: { decision: "approve", reason: "the user asked to be told", model: "gw-chat-1" },
      },
    ]);

    // Metered like chat: one usage record per upstream call, the judge's included.
    const records = await tenant.store.usage.list(tenant.organizationId);
    expect(records).toHaveLength(3);
    expect(records.map((r) => r.promptTokens).sort((a, b) => a - b)).toEqual([5, 7, 40]);
    const summary = await bodyOf(
      await request("GET", `/v1/conversations/${first.body.run.conversationId}/summary`),
    );
    expect(summary.usage).toMatchObject({ inputTokens: 52, outputTokens: 15, totalTokens: 67 });
  });

  it("needs_human pauses with `judge: <reason>`; the verdict stays on the call once a human decided", async () => {
    const agentId = await applyRefunds();
    upstream.enqueue(
      { toolCalls: [{ id: "r1", name: "refund", arguments: { order: 7, amount: 5000 } }] },
      verdict("needs_human", "the amount is far above what was asked"),
    );
    const paused = await respond({ model: "agent/refunds", input: "refund order 7", mode: "auto" });
    expect(paused.body.run.status).toBe("requires_approval");
    const judged = {
      decision: "needs_human",
      reason: "the amount is far above what was asked",
      model: "gw-chat-1",
    };
    expect(paused.body.run.pendingApprovals).toMatchObject([
      {
        tool: "refund",
        policyClass: "write",
        reason: "judge: the amount is far above what was asked",
        judge: judged,
      },
    ]);
    const listed = await bodyOf(await request("GET", `/v1/agents/${agentId}/approvals`));
    expect(listed.content).toMatchObject([
      { reason: "judge: the amount is far above what was asked", judge: judged },
    ]);
    upstream.enqueue({ text: "Not refunded." });
    const done = await respond({
      model: "agent/refunds",
      previous_response_id: paused.body.id,
      input: [
        {
          type: "approval_response",
          approval_request_id: paused.body.run.pendingApprovals[0]?.id,
          approve: false,
        },
      ],
    });
    expect(done.body.run.toolCalls).toMatchObject([{ callId: "r1", status: "rejected", judge: judged }]);
  });

  it("a failed judge call (upstream 500) pauses with `judge call failed: …` and never carries the key", async () => {
    await applyRefunds();
    upstream.enqueue(
      { toolCalls: [{ id: "r1", name: "refund", arguments: { order: 7 } }] },
      { kind: "error", status: 500, message: `internal failure for key ${BUILTIN_KEY}` },
    );
    const paused = await respond({ model: "agent/refunds", input: "refund order 7", mode: "auto" });
    expect(paused.status).toBe(200);
    expect(paused.body.run.status).toBe("requires_approval");
    const approval = paused.body.run.pendingApprovals[0];
    expect(approval?.reason).toBe(
      "judge: judge call failed: the built-in model service answered 500: 500 internal failure for key [redacted]",
    );
    expect(upstream.requests).toHaveLength(2);
    expect(approval?.judge).toMatchObject({ decision: "needs_human", model: "gw-chat-1" });
    expect(approval?.judge?.reason).toMatch(/^judge call failed: .*500/);
    expect(JSON.stringify(paused.body)).not.toContain(BUILTIN_KEY);
    expect(JSON.stringify(paused.body)).not.toContain(BUILTIN_KEY.slice(4, 20));
  });

  it("an unparsable answer pauses with `unparsable judge answer`", async () => {
    await applyRefunds();
    upstream.enqueue(
      { toolCalls: [{ id: "r1", name: "refund", arguments: { order: 7 } }] },
      { text: "Sure, looks fine to me!" },
    );
    const paused = await respond({ model: "agent/refunds", input: "refund order 7", mode: "auto" });
    expect(paused.body.run.pendingApprovals).toMatchObject([
      {
        reason: "judge: unparsable judge answer",
        judge: { decision: "needs_human", reason: "unparsable judge answer", model: "gw-chat-1" },
      },
    ]);
  });

  it("a read tool behind `auto` runs without a judge call", async () => {
    await applyRefunds();
    upstream.enqueue({ toolCalls: [{ id: "l1", name: "lookup_order", arguments: { order: 7 } }] });
    const relayed = await respond({ model: "agent/refunds", input: "where is order 7", mode: "auto" });
    expect(relayed.body.run.status).toBe("requires_tool_output");
    expect(relayed.body.run.pendingToolCalls).toMatchObject([{ callId: "l1", judge: null }]);
    expect(upstream.requests).toHaveLength(1);
    expect(sent().some(isJudgeCall)).toBe(false);
  });

  it("outside auto mode no judge runs: the write tool waits for a human", async () => {
    await applyRefunds();
    upstream.enqueue({ toolCalls: [{ id: "r1", name: "refund", arguments: { order: 7 } }] });
    const paused = await respond({ model: "agent/refunds", input: "refund order 7" });
    expect(paused.body.run.pendingApprovals).toMatchObject([
      { judge: null, reason: "classes.write says approve" },
    ]);
    expect(upstream.requests).toHaveLength(1);
  });

  it("GROUNDWORK_JUDGE_MODEL picks the judge's model and its price", async () => {
    app = build({ GROUNDWORK_JUDGE_MODEL: "gw-judge" });
    await applyRefunds();
    upstream.enqueue(
      {
        toolCalls: [{ id: "n1", name: "notify", arguments: {} }],
        usage: { inputTokens: 1, outputTokens: 1 },
      },
      { ...verdict("approve", "ok"), usage: { inputTokens: 2, outputTokens: 1 } },
    );
    const first = await respond({ model: "agent/refunds", input: "notify me", mode: "auto" });
    expect(sent()[0]?.model).toBe("gw-chat-1");
    expect(sent()[1]?.model).toBe("gw-judge");
    expect(first.body.run.pendingToolCalls[0]?.judge).toEqual({
      decision: "approve",
      reason: "ok",
      model: "gw-judge",
    });
    const summary = await bodyOf(
      await request("GET", `/v1/conversations/${first.body.run.conversationId}/summary`),
    );
    // 2 agent tokens at 1 EUR each, 3 judge tokens at 10 EUR each.
    expect(summary.usage).toEqual({ inputTokens: 3, outputTokens: 2, totalTokens: 5, costEur: 32 });
  });

  it("a failure of the configured judge model names GROUNDWORK_JUDGE_MODEL", async () => {
    app = build({ GROUNDWORK_JUDGE_MODEL: "gw-judge" });
    await applyRefunds();
    upstream.enqueue(
      { toolCalls: [{ id: "r1", name: "refund", arguments: {} }] },
      { kind: "error", status: 500 },
    );
    const paused = await respond({ model: "agent/refunds", input: "refund", mode: "auto" });
    expect(paused.body.run.pendingApprovals[0]?.judge?.reason).toMatch(
      /^judge call failed: .*GROUNDWORK_JUDGE_MODEL/,
    );
  });
});
