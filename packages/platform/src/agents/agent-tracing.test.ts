/**
 * Agent responses as traces (PLATFORM.md §13) through the real runner, the real gateway and
 * the OpenTelemetry SDK: the root `invoke_agent {agent name}` of each request, an
 * `execute_tool {tool}` child per tool call, the gateway's model calls inside the root (so
 * its `chat {model}` spans are children), the judge marker on the judge's gateway call,
 * errors, and content only when the organization captures it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunState } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import { CONTENT_ATTRIBUTE_LIMIT, GEN_AI, GROUNDWORK } from "@groundwork/observability";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { SpanStatusCode } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type GatewayCall, observeGateway } from "../../test/observed-gateway.js";
import {
  allAttributeText,
  parentIdOf,
  type RecordingTraceHooks,
  recordingTraceHooks,
} from "../../test/recording-trace-hooks.js";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import { AgentRunner } from "./agent-runner.js";

let upstream: Upstream;
let toolServer: ReturnType<typeof createServer>;
let toolUrl = "";
let tracing: RecordingTraceHooks;
let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;
let runner: AgentRunner;
/** What each gateway call saw in its context: the active span and the gateway span attributes. */
let gatewayCalls: GatewayCall[];

const SECRET_INPUT = "Where is order A-1, the one with the velvet umbrella?";
const SECRET_ANSWER = "Order A-1 left the warehouse on Tuesday";
const TOOL_OUTPUT = "shipped on tuesday via parcel post";

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  toolServer = createServer((req, res) => {
    if (req.url === "/fail") {
      res.statusCode = 500;
      res.end("the order service is down: velvet umbrella ledger unavailable");
    } else res.end(TOOL_OUTPUT);
  });
  await new Promise<void>((resolve) => toolServer.listen(0, "127.0.0.1", resolve));
  toolUrl = `http://127.0.0.1:${(toolServer.address() as AddressInfo).port}`;
  tracing = recordingTraceHooks();
});
afterAll(async () => {
  await tracing.close();
  await upstream.close();
  await new Promise<void>((resolve) => toolServer.close(() => resolve()));
});

beforeEach(async () => {
  upstream.reset();
  tracing.reset();
  tracing.setCaptureContent(false);
  store = await openTestStore({ secret: "agent-tracing-test-secret" });
  groundwork = createGroundwork({
    store,
    config: { builtin: { baseUrl: upstream.url, apiKey: "sk-builtin-tracing" } },
  });
  principal = await groundwork.principal("acme");
  const observed = observeGateway(groundwork.gateway);
  gatewayCalls = observed.calls;
  runner = new AgentRunner(
    store,
    observed.gateway,
    { conversion: groundwork.conversion, extraction: groundwork.extraction, knowledge: groundwork.knowledge },
    { traceHooks: tracing.hooks, allowPrivateNetwork: true },
  );
  await groundwork.agentManagement.apply(principal, {
    name: "helper",
    models: ["gw-chat-1"],
    instructions: "Answer questions about orders.",
    tools: [
      {
        type: "function",
        name: "lookup",
        description: "Look up an order",
        endpoint: `${toolUrl}/lookup`,
        parameters: { type: "object" },
        annotations: { readOnlyHint: true, destructiveHint: false },
      },
      {
        type: "function",
        name: "broken_lookup",
        description: "Look up an order in the old system",
        endpoint: `${toolUrl}/fail`,
        parameters: { type: "object" },
        annotations: { readOnlyHint: true, destructiveHint: false },
      },
      {
        name: "notify",
        description: "Send the customer a note",
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
    ],
    hitlPolicy: { version: 1, default: "allow", classes: { write: "approve", read: "auto" } },
  });
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
});

const respond = async (body: Record<string, unknown>): Promise<RunState> =>
  await runner.respond(principal, runner.parseBody({ model: "agent/helper", ...body }));

const one = (name: string) => {
  const spans = tracing.named(name);
  expect(spans, name).toHaveLength(1);
  return spans[0] as (typeof spans)[number];
};

describe("agent response spans", () => {
  it("a run with a tool call is a root invoke_agent with an execute_tool child; the model calls run inside the root", async () => {
    upstream.enqueue(
      { toolCalls: [{ id: "call_1", name: "lookup", arguments: { order: "A-1" } }] },
      { text: SECRET_ANSWER },
    );
    const state = await respond({ input: SECRET_INPUT });
    expect(state.status).toBe("completed");

    const root = one("invoke_agent helper");
    const tool = one("execute_tool lookup");
    expect(parentIdOf(root)).toBeUndefined();
    expect(parentIdOf(tool)).toBe(root.spanContext().spanId);
    expect(tool.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(tracing.spans()).toHaveLength(2);

    const agent = await store.agents.getByName(principal.organizationId, "helper");
    expect(root.attributes).toEqual({
      [GROUNDWORK.organizationId]: principal.organizationId,
      [GROUNDWORK.traceKind]: "agent",
      [GEN_AI.operationName]: "invoke_agent",
      [GEN_AI.agentName]: "helper",
      [GEN_AI.agentId]: agent?.id,
      [GEN_AI.conversationId]: state.conversationId,
      [GEN_AI.requestModel]: "gw-chat-1",
      [GROUNDWORK.responseId]: state.id,
    });
    expect(tool.attributes).toEqual({
      [GROUNDWORK.organizationId]: principal.organizationId,
      [GEN_AI.operationName]: "execute_tool",
      [GEN_AI.toolName]: "lookup",
      [GEN_AI.toolCallId]: "call_1",
    });
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    // Both model steps went through the gateway inside the root: its chat spans are the root's children.
    expect(gatewayCalls).toEqual([
      {
        method: "chat",
        spanId: root.spanContext().spanId,
        traceId: root.spanContext().traceId,
        extra: undefined,
      },
      {
        method: "chat",
        spanId: root.spanContext().spanId,
        traceId: root.spanContext().traceId,
        extra: undefined,
      },
    ]);
  });

  it("stores no prompt, answer or tool text when the organization does not capture content", async () => {
    upstream.enqueue(
      { toolCalls: [{ id: "call_1", name: "lookup", arguments: { order: "velvet" } }] },
      { text: SECRET_ANSWER },
    );
    await respond({ input: SECRET_INPUT });
    const text = allAttributeText(tracing.spans());
    for (const secret of ["velvet", "A-1", "Tuesday", TOOL_OUTPUT]) expect(text).not.toContain(secret);
    for (const span of tracing.spans()) {
      expect(span.attributes[GEN_AI.inputMessages]).toBeUndefined();
      expect(span.attributes[GEN_AI.outputMessages]).toBeUndefined();
    }
  });

  it("with content captured, records the input, the answer and the tool's arguments and output as GenAI messages", async () => {
    tracing.setCaptureContent(true);
    upstream.enqueue(
      { toolCalls: [{ id: "call_1", name: "lookup", arguments: { order: "A-1" } }] },
      { text: SECRET_ANSWER },
    );
    await respond({ input: SECRET_INPUT });
    const root = one("invoke_agent helper");
    const tool = one("execute_tool lookup");
    expect(JSON.parse(root.attributes[GEN_AI.inputMessages] as string)).toEqual([
      { role: "user", parts: [{ type: "text", content: SECRET_INPUT }] },
    ]);
    expect(JSON.parse(root.attributes[GEN_AI.outputMessages] as string)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: SECRET_ANSWER }], finish_reason: "stop" },
    ]);
    expect(JSON.parse(tool.attributes[GEN_AI.inputMessages] as string)).toEqual([
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_1", name: "lookup", arguments: { order: "A-1" } }],
      },
    ]);
    expect(JSON.parse(tool.attributes[GEN_AI.outputMessages] as string)).toEqual([
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: TOOL_OUTPUT }] },
    ]);
  });

  it("cuts captured content at the limit", async () => {
    tracing.setCaptureContent(true);
    upstream.enqueue({ text: "ok" });
    await respond({ input: `${"x".repeat(CONTENT_ATTRIBUTE_LIMIT)} and the rest` });
    const input = one("invoke_agent helper").attributes[GEN_AI.inputMessages] as string;
    expect(input).toHaveLength(CONTENT_ATTRIBUTE_LIMIT);
    expect(input.startsWith('[{"role":"user","parts":[{"type":"text","content":"xxx')).toBe(true);
    expect(input).not.toContain("the rest");
  });

  it("a failed tool marks its span with error.type, never with the tool's failure text; the run itself stays ok", async () => {
    upstream.enqueue(
      { toolCalls: [{ id: "call_9", name: "broken_lookup", arguments: {} }] },
      { text: "The old system is down." },
    );
    const state = await respond({ input: "look it up in the old system" });
    expect(state.status).toBe("completed");
    const tool = one("execute_tool broken_lookup");
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: "The tool broken_lookup failed" });
    expect(tool.attributes[GEN_AI.errorType]).toBe("tool_failed");
    expect(allAttributeText(tracing.spans())).not.toContain("velvet umbrella");
    expect(one("invoke_agent helper").status.code).toBe(SpanStatusCode.UNSET);
  });

  it("a failed model call fails the root span with the gateway's error code", async () => {
    upstream.enqueue({ kind: "error", status: 500, message: "upstream exploded" });
    await expect(respond({ input: "hello" })).rejects.toThrow();
    const root = one("invoke_agent helper");
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.status.message).not.toBe("");
    expect(root.attributes[GEN_AI.errorType]).toBe("upstream_error");
    expect(root.attributes[GROUNDWORK.responseId]).toMatch(/^resp_/);
  });

  it("marks the judge's gateway call groundwork.judge; a paused response continued is a second trace of the same session", async () => {
    upstream.enqueue(
      { toolCalls: [{ id: "call_n", name: "notify", arguments: { text: "on its way" } }] },
      { text: JSON.stringify({ decision: "approve", reason: "the user asked for it" }) },
    );
    const paused = await respond({ input: "tell the customer", mode: "auto" });
    expect(paused.status).toBe("requires_tool_output");
    const first = one("invoke_agent helper");
    expect(gatewayCalls.map((call) => call.extra)).toEqual([undefined, { [GROUNDWORK.judge]: true }]);
    // The judge's call runs inside the response's root too.
    expect(gatewayCalls[1]?.spanId).toBe(first.spanContext().spanId);
    // A relayed tool runs at the client: no execute_tool span for it.
    expect(tracing.named("execute_tool notify")).toEqual([]);

    tracing.reset();
    upstream.enqueue({ text: "Done, the customer knows." });
    const continued = await respond({
      previous_response_id: paused.id,
      input: [{ type: "function_call_output", call_id: "call_n", output: "sent" }],
    });
    expect(continued.status).toBe("completed");
    const second = one("invoke_agent helper");
    expect(parentIdOf(second)).toBeUndefined();
    expect(second.spanContext().traceId).not.toBe(first.spanContext().traceId);
    expect(second.attributes[GEN_AI.conversationId]).toBe(first.attributes[GEN_AI.conversationId]);
    expect(second.attributes[GROUNDWORK.responseId]).toBe(continued.id);
    expect(first.attributes[GROUNDWORK.responseId]).toBe(paused.id);
  });
});
