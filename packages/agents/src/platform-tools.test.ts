/** The engine's share of the platform tools: held outputs, attached images, deliverables, tool search. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstTurn, quietEngine, type ScriptedReply, scriptedModel } from "../test/scripted-model.js";
import { platformTools, searchTools } from "./platform-tools.js";
import type { AgentContext, ToolExecutor } from "./run-engine.js";
import { type ResolvedTool, resolveTools } from "./tools.js";

type Reply = ScriptedReply;
const scripted = (replies: Reply[]) => scriptedModel(replies, { whenDone: { text: "end" } });

function run(replies: Reply[], tools: ResolvedTool[], executor: ToolExecutor) {
  const model = scripted(replies);
  const engine = quietEngine(model, executor);
  const context: AgentContext = {
    agentId: "agt_1",
    agentVersionId: "agv_1",
    instructions: null,
    tools,
    policy: undefined,
    remembered: new Set(),
  };
  const start = () => engine.start(firstTurn(), context);
  return { engine, context, model, start };
}

describe("platform tools in the run engine", () => {
  it("a held result pauses with an outputs_held approval; approval runs the call again to release it", async () => {
    const seen: string[] = [];
    const tools = resolveTools([{ type: "platform.bash", outputs: "held" }]);
    const { engine, context, model, start } = run(
      [{ calls: [{ id: "b1", name: "platform_bash", arguments: '{"command":"ls"}' }] }, { text: "done" }],
      tools,
      {
        async execute(call) {
          seen.push(call.callId);
          return seen.length === 1
            ? { output: "", held: { stdout: "a\n", stderr: "", exitCode: 0 } }
            : { output: '{"stdout":"a\\n"}' };
        },
      },
    );
    const paused = await start();
    expect(paused.status).toBe("requires_approval");
    expect(paused.pendingApprovals[0]).toMatchObject({
      callId: "b1",
      reason: "outputs_held",
      preview: null,
      heldOutput: { stdout: "a\n", stderr: "", exitCode: 0 },
    });
    expect(paused.toolCalls).toEqual([]);
    expect(model.requests).toHaveLength(1);
    const next = engine.prepareContinuation(paused, {
      decisions: [{ approvalId: paused.pendingApprovals[0]?.id as string, approve: true }],
      outputs: [],
    });
    const done = await engine.continue(next, context);
    expect(done.status).toBe("completed");
    expect(done.toolCalls[0]).toMatchObject({
      callId: "b1",
      status: "completed",
      output: '{"stdout":"a\\n"}',
    });
    expect(seen).toEqual(["b1", "b1"]);
  });

  it("attaches images to the next model call only, and collects deliverables", async () => {
    const { start, model } = run(
      [
        {
          calls: [
            { id: "v1", name: "platform_view_image", arguments: '{"fileId":"file_1"}' },
            { id: "d1", name: "platform_deliver", arguments: '{"text":"x"}' },
          ],
        },
        { calls: [{ id: "d2", name: "platform_deliver", arguments: '{"text":"y"}' }] },
        { text: "done" },
      ],
      platformTools(),
      {
        async execute(call) {
          if (call.tool.name === "platform_view_image") {
            return {
              output: "Image attached (image/png, 1×1)",
              images: [{ mime: "image/png", url: "data:image/png;base64,AA==" }],
            };
          }
          const text = (JSON.parse(call.arguments) as { text: string }).text;
          return { output: '{"delivered":1}', deliverables: [{ type: "text", title: null, text }] };
        },
      },
    );
    const state = await start();
    const last = (i: number) => model.requests[i]?.messages.at(-1);
    expect(JSON.stringify(last(1)?.content)).toContain("data:image/png;base64,AA==");
    expect(JSON.stringify(model.requests[2]?.messages)).not.toContain("base64");
    expect(state.pendingImages).toEqual([]);
    expect(state.deliverables).toEqual([
      { type: "text", title: null, text: "x" },
      { type: "text", title: null, text: "y" },
    ]);
  });

  it("offers platform_tool_search only above 20 offerable tools and the found tools afterwards", async () => {
    const many = resolveTools(
      Array.from({ length: 22 }, (_, i) => ({
        type: "function" as const,
        name: `t${i}`,
        endpoint: "https://x",
        description: i === 21 ? "convert currency" : "other",
        annotations: { readOnlyHint: true, destructiveHint: false },
      })),
    );
    const { start, model } = run(
      [
        { calls: [{ id: "s1", name: "platform_tool_search", arguments: '{"query":"currency","limit":1}' }] },
        { text: "ok" },
      ],
      many,
      { execute: async () => ({ output: "ran" }) },
    );
    const state = await start();
    const names = (i: number) => (model.requests[i]?.tools ?? []).map((t) => t.function.name);
    expect(names(0)).toHaveLength(21);
    expect(names(0)).not.toContain("t21");
    expect(names(0)).toContain("platform_tool_search");
    expect(JSON.parse(state.toolCalls[0]?.output ?? "[]")).toEqual([
      { name: "t21", description: "convert currency", catalog: "definition" },
    ]);
    expect(names(1)).toContain("t21");
    expect(state.discoveredTools).toEqual(["t21"]);

    const few = run([{ text: "hi" }], many.slice(0, 20), { execute: async () => ({ output: "" }) });
    await few.start();
    expect((few.model.requests[0]?.tools ?? []).map((t) => t.function.name)).not.toContain(
      "platform_tool_search",
    );
  });

  it("searchTools returns at most `limit` matching tools, each matching a query term", () => {
    const tools = resolveTools(
      Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, description: `does thing ${i % 7}` })),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.integer({ min: 1, max: 10 }), (query, limit) => {
        const found = searchTools(tools, query, limit);
        expect(found.length).toBeLessThanOrEqual(limit);
        const terms = query
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean);
        for (const hit of found) {
          const text = `${hit.name} ${hit.description}`.toLowerCase();
          expect(terms.some((t) => text.includes(t))).toBe(true);
        }
      }),
    );
  });
});
