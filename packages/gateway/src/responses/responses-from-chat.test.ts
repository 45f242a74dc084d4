import type { ChatCompletion, ChatCompletionChunk } from "@groundwork/core";
import fc from "fast-check";
import { ResponseStream } from "openai/lib/responses/ResponseStream";
import { describe, expect, it } from "vitest";
import {
  RESPONSE_STREAM_EVENT_TYPES,
  type ResponseStreamEvent,
  responseEventsFromChat,
  responseFromChat,
} from "./responses-from-chat.js";
import { parseResponsesBody } from "./responses-request.js";

let counter = 0;
const ids = (prefix: string) => `${prefix}_${++counter}`;
const meta = { createdAt: 1_700_000_000, ids };
const body = parseResponsesBody({ model: "hosted-a/gpt-x", input: "hi", temperature: 0.5 });

const chunk = (
  delta: ChatCompletionChunk["choices"][number]["delta"],
  finish: string | null = null,
): ChatCompletionChunk => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk: ChatCompletionChunk = {
  id: "c",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [],
  usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
};

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function events(chunks: readonly ChatCompletionChunk[]): Promise<ResponseStreamEvent[]> {
  const out: ResponseStreamEvent[] = [];
  for await (const event of responseEventsFromChat(from(chunks), body, meta)) out.push(event);
  return out;
}

/** What the `openai` SDK's stream helper makes of our events. */
async function sdkFinal(list: readonly ResponseStreamEvent[]) {
  const bytes = new TextEncoder().encode(list.map((e) => `${JSON.stringify(e)}\n`).join(""));
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return ResponseStream.fromReadableStream(readable).finalResponse();
}

describe("responseFromChat", () => {
  const completion = (
    message: ChatCompletion["choices"][number]["message"],
    finish = "stop",
  ): ChatCompletion => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-x",
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: {
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
      prompt_tokens_details: { cached_tokens: 1 },
    },
  });

  it("turns text and tool calls into message and function_call items, echoing the request", () => {
    const response = responseFromChat(
      completion(
        {
          role: "assistant",
          content: "Looking",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        "tool_calls",
      ),
      body,
      meta,
    );
    expect(response).toMatchObject({
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      model: "hosted-a/gpt-x",
      temperature: 0.5,
      top_p: null,
      store: false,
      tool_choice: "auto",
      text: { format: { type: "text" } },
      output: [
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Looking", annotations: [] }],
        },
        { type: "function_call", call_id: "call_1", name: "f", arguments: "{}", status: "completed" },
      ],
      usage: {
        input_tokens: 5,
        output_tokens: 2,
        total_tokens: 7,
        input_tokens_details: { cached_tokens: 1 },
      },
    });
  });

  it("leaves out the message item when an answer is only tool calls, and keeps an empty one otherwise", () => {
    const onlyTools = responseFromChat(
      completion({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "" } }],
      }),
      body,
      meta,
    );
    expect(onlyTools.output.map((i) => i.type)).toEqual(["function_call"]);
    const empty = responseFromChat(completion({ role: "assistant", content: null }), body, meta);
    expect(empty.output).toMatchObject([{ type: "message", content: [{ text: "" }] }]);
  });

  it.each([
    ["length", "max_output_tokens"],
    ["content_filter", "content_filter"],
  ])("reports finish_reason %s as incomplete (%s)", (finish, reason) => {
    const response = responseFromChat(completion({ role: "assistant", content: "x" }, finish), body, meta);
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason });
    expect(response.output[0]?.status).toBe("incomplete");
  });
});

describe("responseEventsFromChat", () => {
  it("numbers events from 0 and closes each item before the next one opens", async () => {
    const list = await events([
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "Hel" }),
      chunk({ content: "lo" }),
      chunk({
        tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "f", arguments: "" } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] }),
      chunk({
        tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "g", arguments: "{}" } }],
      }),
      chunk({}, "tool_calls"),
      usageChunk,
    ]);
    expect(list.map((e) => e.sequence_number)).toEqual(list.map((_, i) => i));
    expect(list.map((e) => `${e.type}${"output_index" in e ? `@${e.output_index}` : ""}`)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added@0",
      "response.content_part.added@0",
      "response.output_text.delta@0",
      "response.output_text.delta@0",
      "response.output_text.done@0",
      "response.content_part.done@0",
      "response.output_item.done@0",
      "response.output_item.added@1",
      "response.function_call_arguments.delta@1",
      "response.function_call_arguments.delta@1",
      "response.function_call_arguments.done@1",
      "response.output_item.done@1",
      "response.output_item.added@2",
      "response.function_call_arguments.delta@2",
      "response.function_call_arguments.done@2",
      "response.output_item.done@2",
      "response.completed",
    ]);
    expect(list.every((e) => (RESPONSE_STREAM_EVENT_TYPES as readonly string[]).includes(e.type))).toBe(true);
    const final = await sdkFinal(list);
    expect(final.output_text).toBe("Hello");
    expect(final.output).toMatchObject([
      { type: "message", status: "completed" },
      { type: "function_call", call_id: "call_a", name: "f", arguments: '{"a":1}' },
      { type: "function_call", call_id: "call_b", name: "g", arguments: "{}" },
    ]);
    expect(final.usage).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });

  it("sends an empty message for an empty answer, and response.incomplete on a length stop", async () => {
    const list = await events([chunk({ role: "assistant", content: "" }), chunk({}, "length")]);
    expect(list.at(-1)?.type).toBe("response.incomplete");
    const final = await sdkFinal(list);
    expect(final.status).toBe("incomplete");
    expect(final.output).toMatchObject([{ type: "message", content: [{ type: "output_text", text: "" }] }]);
    expect(final.usage).toBeNull();
  });

  it("keeps fragments of interleaved tool calls in the final response", async () => {
    const list = await events([
      chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{" } }] }),
      chunk({ tool_calls: [{ index: 1, id: "b", function: { name: "g", arguments: "{" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "}" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: "}" } }] }),
    ]);
    const completed = list.at(-1);
    expect(completed?.type).toBe("response.completed");
    const final = await sdkFinal(list);
    expect(final.output).toMatchObject([
      { call_id: "a", arguments: "{}" },
      { call_id: "b", arguments: "{}" },
    ]);
  });

  it("produces, for any chunk stream, events the SDK accumulates into the non-streamed answer", async () => {
    const piece = fc.oneof(
      fc.record({ kind: fc.constant("text" as const), text: fc.string({ maxLength: 6 }) }),
      fc.record({
        kind: fc.constant("tool" as const),
        index: fc.integer({ min: 0, max: 2 }),
        args: fc.string({ maxLength: 6 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const started = new Set<number>();
        const chunks = pieces.map((p) => {
          if (p.kind === "text") return chunk({ content: p.text });
          const first = !started.has(p.index);
          started.add(p.index);
          return chunk({
            tool_calls: [
              first
                ? {
                    index: p.index,
                    id: `call_${p.index}`,
                    function: { name: `f${p.index}`, arguments: p.args },
                  }
                : { index: p.index, function: { arguments: p.args } },
            ],
          });
        });
        const list = await events(chunks);
        const final = await sdkFinal(list);
        const text = pieces.map((p) => (p.kind === "text" ? p.text : "")).join("");
        expect(final.output_text).toBe(text);
        for (const index of started) {
          const args = pieces.map((p) => (p.kind === "tool" && p.index === index ? p.args : "")).join("");
          expect(final.output).toContainEqual(
            expect.objectContaining({ type: "function_call", call_id: `call_${index}`, arguments: args }),
          );
        }
        expect(list.map((e) => e.sequence_number)).toEqual(list.map((_, i) => i));
      }),
      { numRuns: 200 },
    );
  });
});
