import { describe, expect, it } from "vitest";
import { firstTurn, type ScriptedReply, scriptedModel } from "../test/scripted-model.js";
import { parseAgentRef } from "./agent-ref.js";
import { type AgentContext, RunEngine, type ToolExecutor } from "./run-engine.js";
import type { RunState } from "./run-state.js";
import { resolveTools } from "./tools.js";

type Reply = ScriptedReply;
const scripted = (replies: Reply[]) => scriptedModel(replies);

function setup(replies: Reply[], executor?: ToolExecutor) {
  let counter = 0;
  const saved: RunState[] = [];
  const executed: string[] = [];
  const model = scripted(replies);
  const clock = { value: 1_000 };
  const engine = new RunEngine({
    model,
    tools: executor ?? {
      async execute(call) {
        executed.push(call.callId);
        return { output: `ran ${call.tool.name}` };
      },
    },
    store: { save: (state) => void saved.push(structuredClone(state)) },
    clock: { now: () => clock.value },
    ids: (prefix) => `${prefix}_${++counter}`,
  });
  const context: AgentContext = {
    agentId: "agt_1",
    agentVersionId: "agv_1",
    instructions: "be nice",
    tools: resolveTools([
      { type: "platform.todo" },
      { name: "client_tool" },
      {
        type: "function",
        name: "pay",
        endpoint: "https://x",
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
    ]),
    policy: { classes: { write: "approve" } },
    remembered: new Set(),
  };
  const start = () => engine.start(firstTurn(), context);
  return { engine, context, saved, executed, model, clock, start };
}

describe("RunEngine", () => {
  it("sends the instructions first and only offered tools; counts usage", async () => {
    const { start, model } = setup([{ text: "hello" }]);
    const state = await start();
    expect(state).toMatchObject({
      status: "completed",
      text: "hello",
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    expect(model.requests[0]?.messages[0]).toEqual({ role: "system", content: "be nice" });
    expect(model.requests[0]?.tools?.map((t) => t.function.name)).toEqual([
      "platform_todo",
      "client_tool",
      "pay",
    ]);
  });

  it("records a server call as started before it runs", async () => {
    const { start, saved } = setup([{ calls: [{ id: "t1", name: "platform_todo" }] }, { text: "ok" }]);
    await start();
    const startedSnapshot = saved.find((s) =>
      s.toolCalls.some((c) => c.callId === "t1" && c.status === "started"),
    );
    expect(startedSnapshot).toBeDefined();
  });

  it("a resume never re-runs a started call and runs queued ones", async () => {
    const { engine, context, executed, model } = setup([{ text: "recovered" }]);
    const interrupted: RunState = {
      id: "resp_9",
      conversationId: "conv_1",
      previousResponseId: null,
      agentId: "agt_1",
      agentVersionId: "agv_1",
      agentRef: "agent/a",
      model: "m",
      mode: "ask",
      status: "in_progress",
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "pay", arguments: "{}" } },
            { id: "b", type: "function", function: { name: "platform_todo", arguments: "{}" } },
          ],
        },
      ],
      toolCalls: [
        { callId: "a", tool: "pay", arguments: "{}", verdict: "EXECUTE", status: "started", output: null },
        {
          callId: "b",
          tool: "platform_todo",
          arguments: "{}",
          verdict: "EXECUTE",
          status: "queued",
          output: null,
        },
      ],
      pendingApprovals: [],
      pendingToolCalls: [],
      pausedAt: null,
      text: "",
      citations: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      steps: 1,
      error: null,
      incompleteReason: null,
      createdAt: 0,
      updatedAt: 0,
    };
    const state = await engine.resume(interrupted, context);
    expect(executed).toEqual(["b"]);
    expect(state.toolCalls.map((c) => [c.callId, c.status])).toEqual([
      ["a", "interrupted"],
      ["b", "completed"],
    ]);
    const toolMessages = model.requests[0]?.messages.filter((m) => m.role === "tool");
    expect(toolMessages?.map((m) => m.tool_call_id)).toEqual(["a", "b"]);
    expect(state.text).toBe("recovered");
  });

  it("pauses for approval, and a continuation after the window records a timeout", async () => {
    const { start, engine, context, clock, executed, model } = setup([
      {
        calls: [
          { id: "p1", name: "pay" },
          { id: "c1", name: "client_tool" },
        ],
      },
      { text: "timed out, sorry" },
    ]);
    const paused = await start();
    expect(paused.status).toBe("requires_approval");
    expect(paused.pendingToolCalls.map((p) => p.callId)).toEqual(["c1"]);
    expect(paused.pausedAt).toBe(1_000);
    clock.value += 60 * 60 * 1000 + 1;
    expect(engine.isTimedOut(paused)).toBe(true);
    const next = engine.prepareContinuation(paused, { decisions: [], outputs: [] });
    const done = await engine.continue(next, context);
    expect(executed).toEqual([]);
    expect(done.toolCalls.map((c) => c.status)).toEqual(["timed_out", "timed_out"]);
    expect(model.requests[1]?.messages.filter((m) => m.role === "tool")).toHaveLength(2);
  });

  it("refuses to continue a response that is not paused, and partial answers within the window", async () => {
    const { start, engine } = setup([{ calls: [{ id: "p1", name: "pay" }] }]);
    const paused = await start();
    expect(() => engine.prepareContinuation(paused, { decisions: [], outputs: [] })).toThrow(
      /missing: approval/,
    );
    expect(() =>
      engine.prepareContinuation(paused, {
        decisions: [{ approvalId: "apr_x", approve: true }],
        outputs: [],
      }),
    ).toThrow(/No pending approval/);
    expect(() =>
      engine.prepareContinuation({ ...paused, status: "completed" }, { decisions: [], outputs: [] }),
    ).toThrow(/only a paused run/);
  });

  it("stops as incomplete after the step limit", async () => {
    const replies = Array.from({ length: 20 }, (_, i) => ({
      calls: [{ id: `t${i}`, name: "platform_todo" }],
    }));
    const { start } = setup(replies);
    const state = await start();
    expect(state).toMatchObject({ status: "incomplete", incompleteReason: "max_steps", steps: 12 });
  });

  it("a model failure leaves the run failed (resumable) and rethrows", async () => {
    const { start, saved } = setup([]);
    await expect(start()).rejects.toThrow(/no scripted reply/);
    expect(saved.at(-1)?.status).toBe("failed");
  });
});

describe("parseAgentRef", () => {
  it("splits name, label or version, and model switch", () => {
    expect(parseAgentRef("agent/support")).toEqual({ raw: "agent/support", name: "support" });
    expect(parseAgentRef("agent/support@production#hosted-a/gpt-x")).toEqual({
      raw: "agent/support@production#hosted-a/gpt-x",
      name: "support",
      selector: "production",
      model: "hosted-a/gpt-x",
    });
    expect(parseAgentRef("agent/a b#m@1")).toMatchObject({ name: "a b", model: "m@1" });
    expect(() => parseAgentRef("agent/")).toThrow(/no agent name/);
    expect(() => parseAgentRef("agent/x@")).toThrow(/empty/);
    expect(() => parseAgentRef("agent/x#")).toThrow(/empty/);
  });
});
