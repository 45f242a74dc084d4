/** The engine's connector hooks (PLATFORM.md §5.3): pre-flight pauses, offered tools, held calls. */
import { describe, expect, it } from "vitest";
import { firstTurn, quietEngine, type ScriptedReply, scriptedModel } from "../test/scripted-model.js";
import type { AgentContext, ToolExecutor } from "./run-engine.js";
import type { PendingConnection, RunState } from "./run-state.js";
import type { ResolvedTool } from "./tools.js";

type Reply = ScriptedReply;
const scripted = (replies: Reply[]) => scriptedModel(replies, { whenDone: { text: "" } });

const remote: ResolvedTool = {
  name: "files__ask",
  definition: { type: "connector", name: "files__ask" },
  gate: {
    name: "files__ask",
    runs: "server",
    runnable: true,
    annotations: { readOnlyHint: true, destructiveHint: false },
  },
  chat: { type: "function", function: { name: "files__ask", parameters: { type: "object" } } },
  connector: { connectorId: "cnr_1", serverLabel: "files", toolName: "ask" },
};

function setup(replies: Reply[], executor: ToolExecutor, pending: () => PendingConnection[]) {
  const model = scripted(replies);
  const engine = quietEngine(model, executor);
  const context: AgentContext = {
    agentId: "agt_1",
    agentVersionId: "agv_1",
    instructions: null,
    tools: [],
    policy: undefined,
    remembered: new Set(),
    connectors: async () => {
      const entries = pending();
      return { pending: entries, tools: entries.length > 0 ? [] : [remote] };
    },
  };
  const start = () => engine.start(firstTurn(), context);
  return { engine, context, model, start };
}

describe("RunEngine connectors", () => {
  it("pauses before the first model call while connections are missing, then offers the connector tools", async () => {
    let missing: PendingConnection[] = [{ serverLabel: "files", host: "h", reason: "connect" }];
    const { engine, context, model, start } = setup(
      [{ text: "done" }],
      { execute: async () => ({ output: "x" }) },
      () => missing,
    );
    const paused = await start();
    expect(paused).toMatchObject({ status: "requires_tool_output", pendingConnections: missing, steps: 0 });
    expect(model.requests).toHaveLength(0);
    const again = engine.prepareContinuation(paused, { decisions: [], outputs: [] });
    const stillPaused = await engine.continue(again, context);
    expect(stillPaused.status).toBe("requires_tool_output");
    missing = [];
    const done = await engine.continue(
      engine.prepareContinuation(stillPaused, { decisions: [], outputs: [] }),
      context,
    );
    expect(done.status).toBe("completed");
    expect(model.requests[0]?.tools?.map((t) => t.function.name)).toEqual(["files__ask"]);
    expect(model.requests[0]?.messages.filter((m) => m.role === "user")).toHaveLength(1);
  });

  it("a held call pauses with pendingInputs and the continuation resumes it (never starts a new one)", async () => {
    const seen: Array<{ callId: string; held: boolean }> = [];
    const executor: ToolExecutor = {
      async execute(call) {
        seen.push({ callId: call.callId, held: call.held === true });
        if (call.held !== true) {
          return {
            output: "",
            pause: {
              input: {
                inputRequestId: "inp_1",
                serverLabel: "files",
                tool: call.tool.name,
                mode: "form",
                callId: call.callId,
                arguments: call.arguments,
              },
            },
          };
        }
        return { output: "colour: blue" };
      },
    };
    const { engine, context, start } = setup(
      [{ calls: [{ id: "c1", name: "files__ask" }] }, { text: "blue it is" }],
      executor,
      () => [],
    );
    const paused: RunState = await start();
    expect(paused.status).toBe("requires_tool_output");
    expect(paused.pendingInputs).toEqual([
      expect.objectContaining({ inputRequestId: "inp_1", callId: "c1" }),
    ]);
    expect(paused.toolCalls[0]).toMatchObject({ callId: "c1", status: "started" });
    const done = await engine.continue(
      engine.prepareContinuation(paused, { decisions: [], outputs: [] }),
      context,
    );
    expect(done.status).toBe("completed");
    expect(done.toolCalls[0]).toMatchObject({ callId: "c1", status: "completed", output: "colour: blue" });
    expect(seen).toEqual([
      { callId: "c1", held: false },
      { callId: "c1", held: true },
    ]);
  });

  it("an interrupted call (expired sign-in) is recorded interrupted and pauses with reconnect", async () => {
    const { start } = setup(
      [{ calls: [{ id: "c1", name: "files__ask" }] }],
      {
        execute: async () => ({
          output: "expired",
          interrupted: true,
          pause: { connections: [{ serverLabel: "files", host: "h", reason: "reconnect" }] },
        }),
      },
      () => [],
    );
    const paused = await start();
    expect(paused.status).toBe("requires_tool_output");
    expect(paused.toolCalls[0]?.status).toBe("interrupted");
    expect(paused.pendingConnections?.[0]?.reason).toBe("reconnect");
  });
});
