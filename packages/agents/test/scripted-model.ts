/**
 * A chat model that answers from a script, for the engine's tests (run engine, judge,
 * connectors, platform tools): one place that builds a `ChatCompletion` the way the
 * gateway does, so the tests do not each carry a copy.
 */
import type { ChatCompletion, ChatModel, ChatRequest } from "@groundwork/core";
import { RunEngine, type StartInput, type ToolExecutor } from "../src/run-engine.js";

/** A scripted answer: text and/or tool calls, or an error the model throws. */
export type ScriptedReply =
  | { text?: string; calls?: Array<{ id: string; name: string; arguments?: string }> }
  | Error;

/**
 * Answers each `complete` with the next reply (recording the request); when the script is
 * used up it answers `whenDone`, or throws when there is none. Every answer reports usage
 * 3 + 2 tokens. Not streamed: these tests do not ask for streams.
 */
export function scriptedModel(
  replies: ScriptedReply[],
  options: { whenDone?: ScriptedReply } = {},
): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(structuredClone(request));
      const reply = replies.shift() ?? options.whenDone;
      if (reply === undefined) throw new Error("no scripted reply left");
      if (reply instanceof Error) throw reply;
      const completion: ChatCompletion = {
        id: "c",
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: reply.text ?? null,
              ...(reply.calls === undefined
                ? {}
                : {
                    tool_calls: reply.calls.map((c) => ({
                      id: c.id,
                      type: "function" as const,
                      function: { name: c.name, arguments: c.arguments ?? "{}" },
                    })),
                  }),
            },
            finish_reason: reply.calls === undefined ? "stop" : "tool_calls",
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      };
      return completion;
    },
    // biome-ignore lint/correctness/useYield: not streamed in these tests
    async *stream() {
      throw new Error("not used");
    },
  };
}

/** The first turn the engine tests start with: `agent/a` in ask mode, the user saying "hi". */
export function firstTurn(): StartInput {
  return {
    agentRef: "agent/a",
    model: "m",
    mode: "ask",
    conversationId: "conv_1",
    history: [],
    input: [{ role: "user", content: "hi" }],
    previousResponseId: null,
  };
}

/** A run engine over `model` and `tools` with counting ids, a fixed clock and no persistence. */
export function quietEngine(model: ChatModel, tools: ToolExecutor): RunEngine {
  let counter = 0;
  return new RunEngine({
    model,
    tools,
    store: { save: () => {} },
    clock: { now: () => 1000 },
    ids: (prefix) => `${prefix}_${++counter}`,
  });
}
