import Anthropic from "@anthropic-ai/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicUpstream } from "./anthropic-upstream.js";
import type { Upstream } from "./scripted-upstream.js";

let upstream: Upstream;
let client: Anthropic;

beforeAll(async () => {
  upstream = await startAnthropicUpstream();
  client = new Anthropic({ apiKey: "sk-ant-test", baseURL: upstream.url, maxRetries: 0 });
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const lookup = { name: "lookup_invoice", arguments: { number: "INV-2024-001", include_lines: true } };
const ask = {
  model: "claude-test",
  max_tokens: 256,
  messages: [{ role: "user" as const, content: "hello there" }],
};

describe("messages", () => {
  it("echoes the last user message and records key and version headers", async () => {
    const message = await client.messages.create({ ...ask, system: "be brief" });
    expect(upstream.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "text", text: "Echo: hello there" }],
      stop_reason: "end_turn",
      stop_sequence: null,
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message.usage.cache_read_input_tokens).toBeUndefined();
    const [request] = upstream.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/messages",
      body: { model: "claude-test", max_tokens: 256, system: "be brief" },
      outcome: "completed",
    });
    expect(request?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(request?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("answers tool_use blocks with parsed input, usage with cache reads, and records tool results", async () => {
    upstream.enqueue({
      text: "Looking it up.",
      toolCalls: [lookup],
      usage: { inputTokens: 12, outputTokens: 9, cachedInputTokens: 100 },
    });
    const tools = [{ name: "lookup_invoice", input_schema: { type: "object" as const } }];
    const message = await client.messages.create({ ...ask, tools });
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toEqual({ input_tokens: 12, output_tokens: 9, cache_read_input_tokens: 100 });
    const [text, toolUse] = message.content;
    expect(text).toEqual({ type: "text", text: "Looking it up." });
    if (toolUse?.type !== "tool_use") throw new Error("expected a tool_use block");
    expect(toolUse.id).toMatch(/^toolu_/);
    expect(toolUse.name).toBe("lookup_invoice");
    expect(toolUse.input).toEqual(lookup.arguments);

    await client.messages.create({
      ...ask,
      tools,
      messages: [
        ...ask.messages,
        { role: "assistant", content: message.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "paid" }] },
      ],
    });
    expect(upstream.requests[1]?.body).toMatchObject({
      messages: [{}, { role: "assistant" }, { content: [{ type: "tool_result", tool_use_id: toolUse.id }] }],
    });
  });

  it("maps finish reasons to stop reasons and keeps reporting usage when the script says unknown", async () => {
    upstream.enqueue({ text: "cut", finishReason: "length", usage: null });
    const message = await client.messages.create(ask);
    expect(message.stop_reason).toBe("max_tokens");
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it("streams events that the SDK's message stream assembles, text and tool_use alike", async () => {
    upstream.enqueue({
      text: "Looking it up.",
      toolCalls: [lookup],
      usage: { inputTokens: 20, outputTokens: 11 },
    });
    const stream = client.messages.stream(ask);
    const texts: string[] = [];
    stream.on("text", (delta) => texts.push(delta));
    const final = await stream.finalMessage();
    expect(texts.join("")).toBe("Looking it up.");
    expect(texts.length).toBeGreaterThan(1);
    expect(final.stop_reason).toBe("tool_use");
    expect(final.usage).toMatchObject({ input_tokens: 20, output_tokens: 11 });
    const toolUse = final.content[1];
    if (toolUse?.type !== "tool_use") throw new Error("expected a tool_use block");
    expect(toolUse.input).toEqual(lookup.arguments);
    expect(upstream.requests[0]?.body).toMatchObject({ stream: true });
  });

  it("sends the vendor's event sequence", async () => {
    upstream.enqueue({
      text: "a b",
      toolCalls: [lookup],
      usage: { inputTokens: 3, outputTokens: 5, cachedInputTokens: 2 },
    });
    const stream = await client.messages.create({ ...ask, stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const json = JSON.stringify(lookup.arguments);
    const inputDeltas = 1 + Math.ceil(json.length / 8);
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      ...Array(inputDeltas).fill("content_block_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const start = events[0];
    if (start?.type !== "message_start") throw new Error("expected message_start");
    expect(start.message.usage).toMatchObject({
      input_tokens: 3,
      output_tokens: 1,
      cache_read_input_tokens: 2,
    });
    const partials = events.flatMap((event) =>
      event.type === "content_block_delta" && event.delta.type === "input_json_delta"
        ? [event.delta.partial_json]
        : [],
    );
    expect(partials[0]).toBe("");
    expect(partials.join("")).toBe(json);
    const delta = events.at(-2);
    if (delta?.type !== "message_delta") throw new Error("expected message_delta");
    expect(delta.delta.stop_reason).toBe("tool_use");
    expect(delta.usage.output_tokens).toBe(5);
  });

  it("sends a ping after message_start on the wire (the SDK skips it)", async () => {
    const response = await fetch(`${upstream.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ ...ask, stream: true }),
    });
    const frames = (await response.text()).split("\n\n").filter((frame) => frame.length > 0);
    expect(frames[0]).toMatch(/^event: message_start\ndata: \{"type":"message_start"/);
    expect(frames[1]).toBe('event: ping\ndata: {"type":"ping"}');
    expect(frames.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}');
  });
});

describe("models", () => {
  it("lists the configured models", async () => {
    const custom = await startAnthropicUpstream({ models: ["claude-a", "claude-b"] });
    try {
      const sdk = new Anthropic({ apiKey: "k", baseURL: custom.url, maxRetries: 0 });
      const ids = [];
      for await (const model of sdk.models.list()) ids.push(model.id);
      expect(ids).toEqual(["claude-a", "claude-b"]);
    } finally {
      await custom.close();
    }
  });
});

describe("errors and failures", () => {
  it.each([
    [400, Anthropic.BadRequestError, "invalid_request_error"],
    [401, Anthropic.AuthenticationError, "authentication_error"],
    [429, Anthropic.RateLimitError, "rate_limit_error"],
    [500, Anthropic.InternalServerError, "api_error"],
    [529, Anthropic.InternalServerError, "overloaded_error"],
  ] as const)(
    "status %i surfaces as the SDK's error class in the vendor's shape",
    async (status, errorClass, type) => {
      upstream.enqueue({ kind: "error", status, message: `boom ${status}` });
      const error = await client.messages.create(ask).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(errorClass);
      const apiError = error as InstanceType<typeof Anthropic.APIError>;
      expect(apiError.status).toBe(status);
      expect(apiError.error).toMatchObject({ type: "error", error: { type, message: `boom ${status}` } });
      expect(apiError.requestID).toMatch(/^req_/);
    },
  );

  it("refuses a request without anthropic-version or max_tokens, like the vendor", async () => {
    const noVersion = await fetch(`${upstream.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ask),
    });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const { max_tokens: _omitted, ...withoutMax } = ask;
    const noMax = await fetch(`${upstream.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
      body: JSON.stringify(withoutMax),
    });
    expect(noMax.status).toBe(400);
    expect(JSON.stringify(await noMax.json())).toContain("max_tokens");
  });

  it("checks x-api-key when an apiKey is configured", async () => {
    const guarded = await startAnthropicUpstream({ apiKey: "right" });
    try {
      const wrong = new Anthropic({ apiKey: "wrong", baseURL: guarded.url, maxRetries: 0 });
      await expect(wrong.messages.create(ask)).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
      const right = new Anthropic({ apiKey: "right", baseURL: guarded.url, maxRetries: 0 });
      expect((await right.messages.create(ask)).content[0]).toMatchObject({ text: "Echo: hello there" });
    } finally {
      await guarded.close();
    }
  });

  it("quotes the wrong x-api-key in its 401 when echoKey is set", async () => {
    const guarded = await startAnthropicUpstream({ apiKey: "right", echoKey: "masked" });
    try {
      const wrong = new Anthropic({
        apiKey: "sk-ant-api03-abcdefghijXYZ",
        baseURL: guarded.url,
        maxRetries: 0,
      });
      await expect(wrong.messages.create(ask)).rejects.toThrow("Incorrect API key provided: sk-an****XYZ.");
    } finally {
      await guarded.close();
    }
  });

  it("surfaces a scripted mid-stream error event as an APIError", async () => {
    upstream.enqueue({
      kind: "sse",
      events: [
        {
          event: "message_start",
          data: {
            type: "message_start",
            message: {
              id: "msg_1",
              type: "message",
              role: "assistant",
              model: "m",
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          },
        },
        {
          event: "error",
          data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        },
      ],
    });
    const stream = await client.messages.create({ ...ask, stream: true });
    await expect(
      (async () => {
        for await (const _event of stream) {
          // drain
        }
      })(),
    ).rejects.toBeInstanceOf(Anthropic.APIError);
  });

  it("records a client that aborts a slow stream as aborted", async () => {
    upstream.enqueue({ text: "one two three four five six", chunkDelayMs: 300 });
    const controller = new AbortController();
    const stream = client.messages.stream(ask, { signal: controller.signal });
    stream.on("text", () => controller.abort());
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });

  it("hangs up mid-stream so the client fails after the first events", async () => {
    upstream.enqueue({ text: "one two three", hangUpAfterEvents: 3 });
    const stream = client.messages.stream(ask);
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(upstream.requests[0]?.outcome).toBe("hung-up");
  });
});
