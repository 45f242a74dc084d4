import type { ChatRequest } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ScriptedReply, scriptedModel } from "../test/scripted-model.js";
import {
  buildJudgeRequest,
  cutText,
  JUDGE_REASON_MAX_CHARS,
  JUDGE_RUBRIC,
  type JudgeInput,
  latestUserMessage,
  modelJudge,
  parseJudgeAnswer,
  type ToolJudge,
  UNPARSABLE_JUDGE_ANSWER,
} from "./judge.js";
import { type AgentContext, RunEngine } from "./run-engine.js";
import { resolveTools } from "./tools.js";

const input = (over: Partial<JudgeInput> = {}): JudgeInput => ({
  tool: {
    name: "refund",
    class: "write",
    description: "Refund an order",
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  arguments: '{"order":7,"amount":12.5}',
  latestUserMessage: "please refund order 7",
  instructions: "You are the support agent.",
  mode: "auto",
  ...over,
});

const userPayload = (request: ChatRequest) =>
  JSON.parse(request.messages[1]?.content as string) as Record<string, unknown>;

describe("buildJudgeRequest", () => {
  it("puts the five-point rubric verbatim in the system prompt, at temperature 0 with JSON output", () => {
    const request = buildJudgeRequest(input(), "gw-judge");
    expect(request.model).toBe("gw-judge");
    expect(request.temperature).toBe(0);
    expect(request.response_format).toEqual({ type: "json_object" });
    expect(request.messages[0]?.role).toBe("system");
    const system = request.messages[0]?.content as string;
    expect(system).toContain(
      "approve only if (1) the call does what the user asked or is directly needed for it, (2) its effect is reversible and not destructive, (3) it sends no data to a destination the user or instructions did not name, (4) its arguments carry no credentials or secrets, (5) it stays within the agent's instructions; otherwise `needs_human`.",
    );
    expect(system).toContain(JUDGE_RUBRIC);
    expect(system).toMatch(/"decision": "approve" \| "needs_human"/);
    expect(request.tools).toBeUndefined();
  });

  it("shows the tool, its arguments (parsed), the latest user message, the mode and the instructions", () => {
    const payload = userPayload(buildJudgeRequest(input(), "m"));
    expect(payload).toEqual({
      tool: {
        name: "refund",
        class: "write",
        description: "Refund an order",
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      arguments: { order: 7, amount: 12.5 },
      latestUserMessage: "please refund order 7",
      instructions: "You are the support agent.",
      mode: "auto",
    });
  });

  it("shows malformed arguments as the string the model sent", () => {
    expect(userPayload(buildJudgeRequest(input({ arguments: "{not json" }), "m")).arguments).toBe(
      "{not json",
    );
  });

  it("cuts the instructions to their first 2,000 characters", () => {
    const long = `${"a".repeat(1999)}b${"c".repeat(3000)}`;
    const payload = userPayload(buildJudgeRequest(input({ instructions: long }), "m"));
    expect(payload.instructions).toBe(`${"a".repeat(1999)}b`);
    expect(userPayload(buildJudgeRequest(input({ instructions: null }), "m")).instructions).toBeNull();
  });
});

describe("parseJudgeAnswer", () => {
  it("reads the decision and reason, also in a code fence or with text around", () => {
    expect(parseJudgeAnswer('{"decision":"approve","reason":"asked for"}')).toEqual({
      decision: "approve",
      reason: "asked for",
    });
    expect(parseJudgeAnswer('```json\n{"decision":"needs_human","reason":"sends mail"}\n```')).toEqual({
      decision: "needs_human",
      reason: "sends mail",
    });
    expect(parseJudgeAnswer('Verdict: {"decision":"approve","reason":"ok"} done')).toMatchObject({
      decision: "approve",
    });
  });

  it("anything else is needs_human with `unparsable judge answer`", () => {
    const unparsable = { decision: "needs_human", reason: UNPARSABLE_JUDGE_ANSWER };
    for (const answer of [
      "",
      "approve",
      "[]",
      '{"decision":"yes","reason":"x"}',
      '{"decision":"approve"}',
      '{"decision":"approve","reason":5}',
      '{"decision":"APPROVE","reason":"x"}',
      null,
      undefined,
      42,
    ]) {
      expect(parseJudgeAnswer(answer)).toEqual(unparsable);
    }
  });

  it("cuts a reason longer than 500 characters", () => {
    const parsed = parseJudgeAnswer(JSON.stringify({ decision: "approve", reason: "x".repeat(900) }));
    expect(parsed.reason).toBe("x".repeat(JUDGE_REASON_MAX_CHARS));
  });

  it("property: any answer yields approve or needs_human, never throws, reason ≤ 500", () => {
    const answers = fc.oneof(
      fc.string(),
      fc.string({ unit: "grapheme", maxLength: 2000 }),
      fc.json(),
      fc
        .record({
          decision: fc.oneof(fc.constantFrom("approve", "needs_human"), fc.string()),
          reason: fc.oneof(fc.string({ unit: "binary", maxLength: 1200 }), fc.integer()),
        })
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(answers, (answer) => {
        const parsed = parseJudgeAnswer(answer);
        expect(["approve", "needs_human"]).toContain(parsed.decision);
        expect(parsed.reason.length).toBeLessThanOrEqual(JUDGE_REASON_MAX_CHARS);
        // A cut never leaves half a surrogate pair behind.
        expect(
          /[\uD800-\uDBFF]$/.test(parsed.reason) && parsed.reason.length === JUDGE_REASON_MAX_CHARS,
        ).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("cutText keeps surrogate pairs whole", () => {
    expect(cutText("ab😀", 3)).toBe("ab");
    expect(cutText("ab😀", 4)).toBe("ab😀");
  });
});

describe("latestUserMessage", () => {
  it("is the newest user message's text, or null", () => {
    expect(
      latestUserMessage([
        { role: "user", content: "first" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "second" },
        { role: "tool", tool_call_id: "c", content: "out" },
      ]),
    ).toBe("second");
    expect(latestUserMessage([{ role: "system", content: "x" }])).toBeNull();
  });
});

type Reply = ScriptedReply;
const scripted = (replies: Reply[]) => scriptedModel(replies);

/** An engine whose run model and judge model share one script (calls are sequential). */
function auto(replies: Reply[], options: { judge?: ToolJudge | null; judgeModel?: string } = {}) {
  let counter = 0;
  const executed: string[] = [];
  const model = scripted(replies);
  const engine = new RunEngine({
    model,
    tools: {
      async execute(call) {
        executed.push(call.callId);
        return { output: `ran ${call.tool.name}` };
      },
    },
    store: { save: () => undefined },
    clock: { now: () => 1_000 },
    ids: (prefix) => `${prefix}_${++counter}`,
    ...(options.judge === null
      ? {}
      : {
          judge:
            options.judge ??
            modelJudge(model, {
              ...(options.judgeModel === undefined ? {} : { model: options.judgeModel }),
              modelSetting: "JUDGE_SETTING",
            }),
        }),
  });
  const context: AgentContext = {
    agentId: "agt_1",
    agentVersionId: "agv_1",
    instructions: "Help with orders.",
    tools: resolveTools([
      {
        type: "function",
        name: "lookup",
        endpoint: "https://x",
        annotations: { readOnlyHint: true, destructiveHint: false },
      },
      {
        type: "function",
        name: "pay",
        description: "Pay an invoice",
        endpoint: "https://x",
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      { name: "client_tool", annotations: { readOnlyHint: false, destructiveHint: false } },
      {
        type: "function",
        name: "wipe",
        endpoint: "https://x",
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
    ]),
    policy: { classes: { read: "auto", write: "approve" } },
    remembered: new Set(),
  };
  const start = (remembered: string[] = []) =>
    engine.start(
      {
        agentRef: "agent/a",
        model: "run-model",
        mode: "auto",
        conversationId: "conv_1",
        history: [],
        input: [{ role: "user", content: "pay invoice 3" }],
        previousResponseId: null,
      },
      { ...context, remembered: new Set(remembered) },
    );
  return { engine, context, executed, model, start };
}

const verdict = (decision: string, reason: string) => ({ text: JSON.stringify({ decision, reason }) });

describe("the judge in the run engine", () => {
  it("approve executes the call and records the verdict; the judge's tokens count in the usage", async () => {
    const { start, executed, model } = auto([
      { calls: [{ id: "p1", name: "pay", arguments: '{"invoice":3}' }] },
      verdict("approve", "the user asked to pay invoice 3"),
      { text: "paid" },
    ]);
    const state = await start();
    expect(state.status).toBe("completed");
    expect(executed).toEqual(["p1"]);
    expect(state.toolCalls[0]).toMatchObject({
      verdict: "EXECUTE",
      status: "completed",
      judge: { decision: "approve", reason: "the user asked to pay invoice 3", model: "run-model" },
    });
    const judgeRequest = model.requests[1] as ChatRequest;
    expect(judgeRequest).toMatchObject({ model: "run-model", temperature: 0 });
    expect(userPayload(judgeRequest)).toMatchObject({
      tool: { name: "pay", class: "write", description: "Pay an invoice" },
      arguments: { invoice: 3 },
      latestUserMessage: "pay invoice 3",
      instructions: "Help with orders.",
      mode: "auto",
    });
    expect(state.usage).toEqual({ inputTokens: 9, outputTokens: 6 });
    expect(state.judgeUsage).toEqual([{ model: "run-model", inputTokens: 3, outputTokens: 2 }]);
  });

  it("needs_human pauses with `judge: <reason>` and the verdict, carried onto the approved call", async () => {
    const { start, engine, context, executed } = auto([
      { calls: [{ id: "p1", name: "pay" }] },
      verdict("needs_human", "no invoice named"),
      { text: "paid" },
    ]);
    const paused = await start();
    expect(paused.status).toBe("requires_approval");
    expect(paused.pendingApprovals[0]).toMatchObject({
      tool: "pay",
      reason: "judge: no invoice named",
      judge: { decision: "needs_human", reason: "no invoice named", model: "run-model" },
    });
    const next = engine.prepareContinuation(paused, {
      decisions: [{ approvalId: paused.pendingApprovals[0]?.id as string, approve: true }],
      outputs: [],
    });
    expect(next.judgeUsage).toBeUndefined();
    const done = await engine.continue(next, context);
    expect(executed).toEqual(["p1"]);
    expect(done.toolCalls[0]).toMatchObject({
      verdict: "PAUSE_APPROVAL",
      status: "completed",
      judge: { decision: "needs_human" },
    });
  });

  it("a relayed (client) tool the judge approves is relayed with the verdict", async () => {
    const { start } = auto([{ calls: [{ id: "c1", name: "client_tool" }] }, verdict("approve", "fine")]);
    const state = await start();
    expect(state.status).toBe("requires_tool_output");
    expect(state.pendingToolCalls[0]).toMatchObject({ callId: "c1", judge: { decision: "approve" } });
  });

  it("a read tool behind `auto` runs without a judge call", async () => {
    const { start, executed, model } = auto([{ calls: [{ id: "l1", name: "lookup" }] }, { text: "found" }]);
    const state = await start();
    expect(executed).toEqual(["l1"]);
    expect(model.requests).toHaveLength(2);
    expect(state.toolCalls[0]?.judge).toBeUndefined();
  });

  it("a remembered tool skips the judge; a destructive one goes to a human without a judge call", async () => {
    const { start, model } = auto([
      {
        calls: [
          { id: "p1", name: "pay" },
          { id: "w1", name: "wipe" },
        ],
      },
    ]);
    const state = await start(["pay"]);
    expect(model.requests).toHaveLength(1);
    expect(state.toolCalls[0]).toMatchObject({ callId: "p1", verdict: "EXECUTE" });
    expect(state.toolCalls[0]?.judge).toBeUndefined();
    expect(state.pendingApprovals.map((a) => [a.tool, a.judge])).toEqual([["wipe", undefined]]);
  });

  it("a failed judge call and an unparsable answer pause for a human", async () => {
    const failing = auto([{ calls: [{ id: "p1", name: "pay" }] }, new Error("upstream answered 500: boom")], {
      judgeModel: "judge-model",
    });
    const failed = await failing.start();
    expect(failed.pendingApprovals[0]).toMatchObject({
      reason:
        'judge: judge call failed: upstream answered 500: boom (the judge model "judge-model" is set by JUDGE_SETTING)',
      judge: { decision: "needs_human", model: "judge-model" },
    });
    expect(failing.model.requests[1]?.model).toBe("judge-model");
    const garbled = auto([{ calls: [{ id: "p1", name: "pay" }] }, { text: "I think it is fine" }]);
    const unparsable = await garbled.start();
    expect(unparsable.pendingApprovals[0]).toMatchObject({
      reason: "judge: unparsable judge answer",
      judge: { decision: "needs_human", reason: "unparsable judge answer" },
    });
  });

  it("without a judge, JUDGE on a non-read tool pauses for a human (A4); a bare-action judge still works", async () => {
    const none = auto([{ calls: [{ id: "p1", name: "pay" }] }], { judge: null });
    const paused = await none.start();
    expect(paused.pendingApprovals[0]?.tool).toBe("pay");
    const legacy = auto([{ calls: [{ id: "p1", name: "pay" }] }, { text: "done" }], {
      judge: { judge: async () => "allow" },
    });
    const ran = await legacy.start();
    expect(legacy.executed).toEqual(["p1"]);
    expect(ran.toolCalls[0]?.judge).toBeUndefined();
  });
});
