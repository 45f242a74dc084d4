/**
 * What the tracing instrumentation costs when tracing is off (PLATFORM.md §13; GLOBAL_TRACE_HOOKS
 * and no OpenTelemetry provider registered, the default of a library user): one agent response
 * with one server-side tool call and two model steps, run by the engine with `tracing` composed
 * (an `invoke_agent` root and an `execute_tool` child, both no-op spans), beside the same
 * response with no `tracing` at all (no span code runs) as the same-run baseline.
 * Run: npx vitest bench --run --project agents run-tracing
 */
import type { ChatModel } from "@groundwork/core";
import { GLOBAL_TRACE_HOOKS } from "@groundwork/observability";
import { bench, describe } from "vitest";
import { type AgentContext, RunEngine, type RunEngineOptions } from "../src/run-engine.js";
import { resolveTools } from "../src/tools.js";
import { firstTurn, scriptedModel } from "../test/scripted-model.js";

const context: AgentContext = {
  agentId: "agt_1",
  agentName: "bench",
  agentVersionId: "agv_1",
  instructions: "be quick",
  tools: resolveTools([{ type: "platform.todo" }]),
  policy: undefined,
  remembered: new Set(),
};

/** Calls the tool first, then answers once the tool's output is in the messages. */
const model: ChatModel = {
  complete: (request, options) =>
    scriptedModel([
      request.messages.at(-1)?.role === "tool"
        ? { text: "done" }
        : { calls: [{ id: "t1", name: "platform_todo" }] },
    ]).complete(request, options),
  stream: () => {
    throw new Error("not streamed");
  },
};

function engine(tracing: RunEngineOptions["tracing"]): RunEngine {
  let counter = 0;
  return new RunEngine({
    model,
    tools: { execute: async (call) => ({ output: `ran ${call.tool.name}` }) },
    store: { save: () => undefined },
    clock: { now: () => 0 },
    ids: (prefix) => `${prefix}_${++counter}`,
    ...(tracing === undefined ? {} : { tracing }),
  });
}

/** Long runs: the machine is shared, so compare medians (p50/p75), not the means spikes drag. */
const OPTIONS = { time: 3_000, warmupTime: 500 };

const untraced = engine(undefined);
const tracedOff = engine({ hooks: GLOBAL_TRACE_HOOKS, organizationId: "org_bench" });

describe("one agent response (a tool call, two model steps)", () => {
  bench(
    "baseline: no tracing composed",
    async () => {
      await untraced.start(firstTurn(), context);
    },
    OPTIONS,
  );

  bench(
    "tracing off: GLOBAL_TRACE_HOOKS, no provider",
    async () => {
      await tracedOff.start(firstTurn(), context);
    },
    OPTIONS,
  );
});
