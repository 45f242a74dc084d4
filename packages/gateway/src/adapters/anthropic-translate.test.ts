import type { Message, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { type ChatRequest, GroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import {
  createChunkTranslator,
  DEFAULT_MAX_TOKENS,
  fromMessage,
  toChatUsage,
  toFinishReason,
  toMessagesBody,
  toMessagesPrompt,
  toToolChoice,
} from "./anthropic-translate.js";

const ask = (request: Partial<ChatRequest>): ChatRequest => ({
  model: "claude-test",
  messages: [{ role: "user", content: "hi" }],
  ...request,
});

function thrown(fn: () => unknown): GroundworkError {
  try {
    fn();
  } catch (error) {
    if (error instanceof GroundworkError) return error;
    throw error;
  }
  throw new Error("expected a GroundworkError");
}

describe("toMessagesBody", () => {
  it("defaults max_tokens, prefers max_completion_tokens, clamps temperature, renames stop", () => {
    expect(toMessagesBody(ask({})).max_tokens).toBe(DEFAULT_MAX_TOKENS);
    expect(toMessagesBody(ask({ max_tokens: 100 })).max_tokens).toBe(100);
    expect(toMessagesBody(ask({ max_tokens: 100, max_completion_tokens: 50 })).max_tokens).toBe(50);
    expect(toMessagesBody(ask({ temperature: 1.7 })).temperature).toBe(1);
    expect(toMessagesBody(ask({ temperature: 0.3 })).temperature).toBe(0.3);
    expect(toMessagesBody(ask({ top_p: 0.9, stop: ["END"] }))).toMatchObject({
      top_p: 0.9,
      stop_sequences: ["END"],
    });
    expect(toMessagesBody(ask({ stop: [] }))).not.toHaveProperty("stop_sequences");
  });

  it("drops the fields the vendor lacks", () => {
    const body = toMessagesBody(ask({ frequency_penalty: 1, presence_penalty: -1, prompt_cache_key: "k" }));
    expect(Object.keys(body).sort()).toEqual(["max_tokens", "messages", "model"]);
  });

  it("maps tools, keeping strict and forcing an object schema", () => {
    const body = toMessagesBody(
      ask({
        tools: [
          {
            type: "function",
            function: {
              name: "lookup",
              description: "Find an invoice",
              parameters: { type: "object", properties: { n: { type: "string" } }, required: ["n"] },
              strict: true,
            },
          },
          { type: "function", function: { name: "ping" } },
        ],
      }),
    );
    expect(body.tools).toEqual([
      {
        name: "lookup",
        description: "Find an invoice",
        input_schema: { type: "object", properties: { n: { type: "string" } }, required: ["n"] },
        strict: true,
      },
      { name: "ping", input_schema: { type: "object" } },
    ]);
  });

  it("maps every tool_choice", () => {
    expect(toToolChoice("auto")).toEqual({ type: "auto" });
    expect(toToolChoice("none")).toEqual({ type: "none" });
    expect(toToolChoice("required")).toEqual({ type: "any" });
    expect(toToolChoice({ type: "function", function: { name: "lookup" } })).toEqual({
      type: "tool",
      name: "lookup",
    });
  });

  it("turns response_format into system text carrying the schema", () => {
    const schema = { type: "object", properties: { total: { type: "number" } } };
    const body = toMessagesBody(
      ask({
        messages: [
          { role: "system", content: "Be exact." },
          { role: "user", content: "total?" },
        ],
        response_format: { type: "json_schema", json_schema: { name: "invoice", schema } },
      }),
    );
    expect(body.system).toMatch(/^Be exact\.\n\nAnswer with one JSON object/);
    expect(body.system).toContain('"invoice"');
    expect(body.system).toContain(JSON.stringify(schema));
    expect(toMessagesBody(ask({ response_format: { type: "json_object" } })).system).toMatch(/JSON object/);
    expect(toMessagesBody(ask({ response_format: { type: "text" } }))).not.toHaveProperty("system");
  });
});

describe("toMessagesPrompt", () => {
  it("hoists system and developer messages from anywhere, in order", () => {
    const prompt = toMessagesPrompt([
      { role: "system", content: "one" },
      { role: "user", content: "a" },
      { role: "developer", content: [{ type: "text", text: "two" }] },
      { role: "user", content: "b" },
    ]);
    expect(prompt.system).toEqual(["one", "two"]);
    expect(prompt.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });

  it("translates https and data URL images", () => {
    const prompt = toMessagesPrompt([
      {
        role: "user",
        content: [
          { type: "text", text: "compare" },
          { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "high" } },
          { type: "image_url", image_url: { url: "data:image/PNG;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
    expect(prompt.messages[0]?.content).toEqual([
      { type: "text", text: "compare" },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ]);
  });

  it("refuses data URLs the vendor cannot take, and images outside user turns", () => {
    const tiff = thrown(() =>
      toMessagesPrompt([
        { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/tiff;base64,AAAA" } }] },
      ]),
    );
    expect(tiff).toMatchObject({ status: 400, param: "messages[0].content[0].image_url.url" });
    const notBase64 = thrown(() =>
      toMessagesPrompt([
        { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png,raw" } }] },
      ]),
    );
    expect(notBase64.status).toBe(400);
    const inSystem = thrown(() =>
      toMessagesPrompt([
        { role: "system", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }] },
      ]),
    );
    expect(inSystem).toMatchObject({ status: 400, param: "messages[0].content" });
    const inAssistant = thrown(() =>
      toMessagesPrompt([
        {
          role: "assistant",
          content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }],
        },
      ]),
    );
    expect(inAssistant).toMatchObject({ status: 400, param: "messages[0].content[0]" });
  });

  it("turns tool calls into tool_use and merges consecutive tool results into one user turn, first", () => {
    const prompt = toMessagesPrompt([
      { role: "user", content: "weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          { id: "t2", type: "function", function: { name: "now", arguments: "" } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "18C" },
      { role: "tool", tool_call_id: "t2", content: [{ type: "text", text: "noon" }] },
      { role: "user", content: "and?" },
    ]);
    expect(prompt.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "weather in Paris and Rome?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } },
          { type: "tool_use", id: "t2", name: "now", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "18C" },
          { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "noon" }] },
          { type: "text", text: "and?" },
        ],
      },
    ]);
  });

  it("puts tool results before text that came first in a merged user turn", () => {
    const prompt = toMessagesPrompt([
      { role: "user", content: "note" },
      { role: "tool", tool_call_id: "t1", content: "" },
    ]);
    expect(prompt.messages[0]?.content).toEqual([
      { type: "tool_result", tool_use_id: "t1" },
      { type: "text", text: "note" },
    ]);
  });

  it("refuses malformed tool arguments and tool messages without an id", () => {
    const call = (args: string) =>
      thrown(() =>
        toMessagesPrompt([
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: args } }],
          },
        ]),
      );
    expect(call("{oops")).toMatchObject({
      status: 400,
      param: "messages[0].tool_calls[0].function.arguments",
    });
    expect(call("[1]").status).toBe(400);
    expect(thrown(() => toMessagesPrompt([{ role: "tool", content: "x" }])).param).toBe(
      "messages[0].tool_call_id",
    );
  });

  it("drops empty text and the turns left empty by it", () => {
    const prompt = toMessagesPrompt([
      { role: "user", content: "a" },
      { role: "assistant", content: "" },
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "b" },
        ],
      },
    ]);
    expect(prompt.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });
});

describe("answers", () => {
  const message = (overrides: Partial<Message>): Message =>
    ({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: null },
      ...overrides,
    }) as Message;

  it("joins text, turns tool_use into tool_calls and maps the stop reason", () => {
    const completion = fromMessage(
      message({
        content: [
          { type: "text", text: "Hello ", citations: null },
          { type: "text", text: "there", citations: null },
          { type: "tool_use", id: "toolu_1", name: "lookup", input: { n: 1 }, caller: { type: "direct" } },
        ] as Message["content"],
        stop_reason: "tool_use",
      }),
      1234,
    );
    expect(completion).toEqual({
      id: "msg_1",
      object: "chat.completion",
      created: 1234,
      model: "claude-test",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Hello there",
            tool_calls: [
              { id: "toolu_1", type: "function", function: { name: "lookup", arguments: '{"n":1}' } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });

  it("answers content null with only tool calls, and an empty string with nothing", () => {
    const tools = fromMessage(
      message({
        content: [
          { type: "tool_use", id: "t", name: "f", input: {}, caller: { type: "direct" } },
        ] as Message["content"],
      }),
      0,
    );
    expect(tools.choices[0]?.message.content).toBeNull();
    expect(fromMessage(message({}), 0).choices[0]?.message).toEqual({ role: "assistant", content: "" });
  });

  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["pause_turn", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool_calls"],
    ["refusal", "content_filter"],
  ] as const)("stop_reason %s → %s", (reason, expected) => {
    expect(toFinishReason(reason)).toBe(expected);
  });

  it("counts cache reads and writes into prompt_tokens and reports cached_tokens only when known", () => {
    expect(
      toChatUsage({
        input_tokens: 12,
        output_tokens: 9,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 8,
      }),
    ).toEqual({
      prompt_tokens: 120,
      completion_tokens: 9,
      total_tokens: 129,
      prompt_tokens_details: { cached_tokens: 100 },
    });
    expect(toChatUsage({ input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 0 })).toHaveProperty(
      "prompt_tokens_details",
      { cached_tokens: 0 },
    );
    expect(
      toChatUsage({ input_tokens: 3, output_tokens: 1, cache_read_input_tokens: null }),
    ).not.toHaveProperty("prompt_tokens_details");
    expect(toChatUsage({ input_tokens: 3, output_tokens: 1 })).not.toHaveProperty("prompt_tokens_details");
  });
});

describe("createChunkTranslator", () => {
  const start: RawMessageStreamEvent = {
    type: "message_start",
    message: {
      id: "msg_9",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 7, output_tokens: 1, cache_read_input_tokens: 3 },
    } as unknown as Message,
  };
  const events = (...list: unknown[]) => list as RawMessageStreamEvent[];

  it("streams role, text, tool calls, finish reason and usage", () => {
    const translator = createChunkTranslator(42);
    const chunks = [
      start,
      ...events(
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
        },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"n":' } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "1}" } },
        { type: "content_block_stop", index: 1 },
        {
          type: "content_block_start",
          index: 2,
          content_block: { type: "tool_use", id: "toolu_2", name: "now", input: {} },
        },
        { type: "content_block_stop", index: 2 },
        {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: { output_tokens: 20 },
        },
        { type: "message_stop" },
      ),
    ].flatMap((event) => translator.accept(event));
    translator.end();
    expect(chunks.every((chunk) => chunk.id === "msg_9" && chunk.created === 42)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? { usage: chunk.usage })).toEqual([
      { role: "assistant", content: "" },
      { content: "Hi" },
      {
        tool_calls: [
          { index: 0, id: "toolu_1", type: "function", function: { name: "lookup", arguments: "" } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"n":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: "1}" } }] },
      {
        tool_calls: [{ index: 1, id: "toolu_2", type: "function", function: { name: "now", arguments: "" } }],
      },
      { tool_calls: [{ index: 1, function: { arguments: "{}" } }] },
      {},
      {
        usage: {
          prompt_tokens: 10,
          completion_tokens: 20,
          total_tokens: 30,
          prompt_tokens_details: { cached_tokens: 3 },
        },
      },
    ]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.slice(0, -1).every((chunk) => !("usage" in chunk))).toBe(true);
  });

  it("fails a stream that ends before message_stop, or starts without message_start", () => {
    const cut = createChunkTranslator(0);
    cut.accept(start);
    expect(thrown(() => cut.end())).toMatchObject({ status: 502, type: "upstream_error" });
    const headless = createChunkTranslator(0);
    expect(
      thrown(() => headless.accept(events({ type: "message_stop" })[0] as RawMessageStreamEvent)).status,
    ).toBe(502);
  });
});
