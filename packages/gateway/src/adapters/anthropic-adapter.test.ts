import type { ChatCompletionChunk, ChatRequest } from "@groundwork/core";
import { GroundworkError } from "@groundwork/core";
import { startAnthropicUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProviderAdapter } from "../adapter.js";
import { createAnthropicAdapter } from "./anthropic-adapter.js";

let upstream: Upstream;
let adapter: ProviderAdapter;

beforeAll(async () => {
  upstream = await startAnthropicUpstream({ apiKey: "sk-ant-test", models: ["claude-a", "claude-b"] });
  adapter = createAnthropicAdapter({ apiKey: "sk-ant-test", baseUrl: upstream.url });
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const ask = (request: Partial<ChatRequest> = {}): ChatRequest => ({
  model: "claude-test",
  messages: [{ role: "user", content: "hello there" }],
  ...request,
});
const lookupTool = {
  type: "function" as const,
  function: {
    name: "lookup_invoice",
    parameters: { type: "object", properties: { number: { type: "string" } } },
  },
};
const lookup = { name: "lookup_invoice", arguments: { number: "INV-2024-001" } };

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

function body(index = 0): Record<string, unknown> {
  return upstream.requests[index]?.body as Record<string, unknown>;
}

describe("complete", () => {
  it("answers plain text with usage, sending key, default version and default max_tokens", async () => {
    upstream.enqueue({ text: "Hi!", usage: { inputTokens: 4, outputTokens: 2 } });
    const completion = await adapter.complete(ask());
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "claude-test",
      choices: [{ index: 0, message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    });
    expect(completion.id).toMatch(/^msg_/);
    expect(completion.usage).not.toHaveProperty("prompt_tokens_details");
    const [request] = upstream.requests;
    expect(request?.path).toBe("/v1/messages");
    expect(request?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request?.headers.authorization).toBeUndefined();
    expect(body()).toEqual({
      model: "claude-test",
      stream: false,
      max_tokens: 4096,
      messages: [{ role: "user", content: [{ type: "text", text: "hello there" }] }],
    });
  });

  it("sends a configured version header", async () => {
    const configured = createAnthropicAdapter({
      apiKey: "sk-ant-test",
      baseUrl: upstream.url,
      version: "2024-01-01",
    });
    await configured.complete(ask());
    expect(upstream.requests[0]?.headers["anthropic-version"]).toBe("2024-01-01");
  });

  it("places system and developer messages in `system` and forwards sampling fields", async () => {
    await adapter.complete(
      ask({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "one" },
          { role: "developer", content: "Use metric units." },
          { role: "user", content: "two" },
        ],
        temperature: 1.5,
        top_p: 0.5,
        max_tokens: 64,
        stop: ["END"],
        frequency_penalty: 1,
        prompt_cache_key: "cache-me",
      }),
    );
    expect(body()).toEqual({
      model: "claude-test",
      stream: false,
      system: "Be brief.\n\nUse metric units.",
      max_tokens: 64,
      temperature: 1,
      top_p: 0.5,
      stop_sequences: ["END"],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "one" },
            { type: "text", text: "two" },
          ],
        },
      ],
    });
  });

  it("sends https and data URL images", async () => {
    await adapter.complete(
      ask({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is in these?" },
              { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
              { type: "image_url", image_url: { url: "data:image/webp;base64,UklGRg==" } },
            ],
          },
        ],
      }),
    );
    expect(body().messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in these?" },
          { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
          { type: "image", source: { type: "base64", media_type: "image/webp", data: "UklGRg==" } },
        ],
      },
    ]);
  });

  it("round-trips tool calls and tool results", async () => {
    upstream.enqueue({
      text: "Looking it up.",
      toolCalls: [lookup, { name: "now", arguments: {}, id: "toolu_fixed" }],
    });
    const first = await adapter.complete(ask({ tools: [lookupTool], tool_choice: "auto" }));
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBe("Looking it up.");
    const calls = choice?.message.tool_calls ?? [];
    expect(calls).toHaveLength(2);
    expect(calls[0]?.id).toMatch(/^toolu_/);
    expect(calls[0]?.function.name).toBe("lookup_invoice");
    expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual(lookup.arguments);
    expect(calls[1]).toEqual({
      id: "toolu_fixed",
      type: "function",
      function: { name: "now", arguments: "{}" },
    });
    expect(body()).toMatchObject({
      tools: [
        {
          name: "lookup_invoice",
          input_schema: { type: "object", properties: { number: { type: "string" } } },
        },
      ],
      tool_choice: { type: "auto" },
    });

    await adapter.complete(
      ask({
        tools: [lookupTool],
        messages: [
          { role: "user", content: "hello there" },
          { role: "assistant", content: choice?.message.content ?? null, tool_calls: calls },
          { role: "tool", tool_call_id: calls[0]?.id ?? "", content: "paid" },
          { role: "tool", tool_call_id: "toolu_fixed", content: "noon" },
        ],
      }),
    );
    expect(body(1).messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hello there" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking it up." },
          { type: "tool_use", id: calls[0]?.id, name: "lookup_invoice", input: lookup.arguments },
          { type: "tool_use", id: "toolu_fixed", name: "now", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: calls[0]?.id, content: "paid" },
          { type: "tool_result", tool_use_id: "toolu_fixed", content: "noon" },
        ],
      },
    ]);
  });

  it.each([
    ["auto", { type: "auto" }],
    ["none", { type: "none" }],
    ["required", { type: "any" }],
    [
      { type: "function", function: { name: "lookup_invoice" } },
      { type: "tool", name: "lookup_invoice" },
    ],
  ] as const)("sends tool_choice %j as %j", async (choice, expected) => {
    await adapter.complete(ask({ tools: [lookupTool], tool_choice: choice }));
    expect(body().tool_choice).toEqual(expected);
  });

  it("sends response_format as system text", async () => {
    const schema = { type: "object", properties: { total: { type: "number" } }, required: ["total"] };
    await adapter.complete(
      ask({ response_format: { type: "json_schema", json_schema: { name: "invoice", schema } } }),
    );
    expect(body().system).toContain(JSON.stringify(schema));
    expect(body()).not.toHaveProperty("response_format");
  });

  it("reports cached tokens when the vendor does, counted into prompt_tokens", async () => {
    upstream.enqueue({ text: "ok", usage: { inputTokens: 12, outputTokens: 9, cachedInputTokens: 100 } });
    const completion = await adapter.complete(ask());
    expect(completion.usage).toEqual({
      prompt_tokens: 112,
      completion_tokens: 9,
      total_tokens: 121,
      prompt_tokens_details: { cached_tokens: 100 },
    });
  });

  it("maps max_tokens to length", async () => {
    upstream.enqueue({ text: "cut", finishReason: "length" });
    expect((await adapter.complete(ask())).choices[0]?.finish_reason).toBe("length");
  });
});

describe("stream", () => {
  it("streams role, text deltas, finish reason and a usage chunk", async () => {
    upstream.enqueue({ text: "one two three", usage: { inputTokens: 5, outputTokens: 3 } });
    const chunks = await collect(adapter.stream(ask()));
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("one two three");
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(1);
    expect(chunks.at(-2)?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    expect(chunks.at(-1)).toMatchObject({
      object: "chat.completion.chunk",
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
    expect(chunks.at(-1)?.usage).not.toHaveProperty("prompt_tokens_details");
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(body()).toMatchObject({ stream: true, max_tokens: 4096 });
    expect(upstream.requests[0]?.outcome).toBe("completed");
  });

  it("streams tool calls: id, type and name first, then argument fragments; cached tokens in usage", async () => {
    upstream.enqueue({
      text: "Checking.",
      toolCalls: [lookup],
      usage: { inputTokens: 20, outputTokens: 11, cachedInputTokens: 7 },
    });
    const chunks = await collect(adapter.stream(ask({ tools: [lookupTool] })));
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      type: "function",
      function: { name: "lookup_invoice", arguments: "" },
    });
    expect(deltas[0]?.id).toMatch(/^toolu_/);
    expect(deltas.length).toBeGreaterThan(2);
    for (const delta of deltas.slice(1)) {
      expect(delta).toEqual({ index: 0, function: { arguments: expect.any(String) } });
    }
    const json = deltas.map((delta) => delta.function?.arguments ?? "").join("");
    expect(JSON.parse(json)).toEqual(lookup.arguments);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 27,
      completion_tokens: 11,
      total_tokens: 38,
      prompt_tokens_details: { cached_tokens: 7 },
    });
  });

  it("fails after the first chunk when the upstream hangs up mid-stream", async () => {
    upstream.enqueue({ text: "one two three four", hangUpAfterEvents: 4 });
    const seen: ChatCompletionChunk[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of adapter.stream(ask())) seen.push(chunk);
      })(),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(error).toBeInstanceOf(GroundworkError);
    expect(error).toMatchObject({ status: 502, type: "upstream_error" });
    expect(upstream.requests[0]?.outcome).toBe("hung-up");
  });

  it("fails with the mapped error when the vendor refuses the streaming request", async () => {
    upstream.enqueue({ kind: "error", status: 429, headers: { "retry-after": "4" } });
    const error = await rejection(collect(adapter.stream(ask())));
    expect(error).toMatchObject({ status: 429, type: "rate_limit_error", retryAfter: 4 });
  });

  it("cancels the upstream request when the signal aborts", async () => {
    upstream.enqueue({ text: "one two three four five six", chunkDelayMs: 300 });
    const controller = new AbortController();
    const error = await rejection(
      (async () => {
        for await (const _chunk of adapter.stream(ask(), { signal: controller.signal })) controller.abort();
      })(),
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("AbortError");
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });

  it("cancels the upstream request when the caller stops reading", async () => {
    upstream.enqueue({ text: "one two three four five six", chunkDelayMs: 300 });
    for await (const _chunk of adapter.stream(ask())) break;
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });
});

describe("errors", () => {
  it("maps a vendor 400 to 400 upstream_error", async () => {
    upstream.enqueue({ kind: "error", status: 400, message: "messages: roles must alternate" });
    const error = await rejection(adapter.complete(ask()));
    expect(error).toBeInstanceOf(GroundworkError);
    expect(error).toMatchObject({ status: 400, type: "upstream_error" });
    expect((error as Error).message).toContain("roles must alternate");
  });

  it("maps a vendor 500 to 502 upstream_error, without retrying", async () => {
    upstream.enqueue({ kind: "error", status: 500 });
    const error = await rejection(adapter.complete(ask()));
    expect(error).toMatchObject({ status: 502, type: "upstream_error" });
    expect(upstream.requests).toHaveLength(1);
  });

  it("maps a vendor 429 to 429 with retryAfter", async () => {
    upstream.enqueue({ kind: "error", status: 429, headers: { "retry-after": "7" } });
    const error = await rejection(adapter.complete(ask()));
    expect(error).toMatchObject({ status: 429, type: "rate_limit_error", retryAfter: 7 });
  });

  it("maps a wrong key (401) to 400 upstream_error", async () => {
    const wrong = createAnthropicAdapter({ apiKey: "nope", baseUrl: upstream.url });
    expect(await rejection(wrong.complete(ask()))).toMatchObject({ status: 400, type: "upstream_error" });
  });

  it("refuses to be created without a key", () => {
    expect(() => createAnthropicAdapter({ apiKey: "", baseUrl: upstream.url })).toThrow(
      expect.objectContaining({ status: 400, param: "apiKey" }),
    );
  });

  it("maps an unreachable endpoint to 502", async () => {
    const closed = await startAnthropicUpstream();
    const url = closed.url;
    await closed.close();
    const gone = createAnthropicAdapter({ apiKey: "k", baseUrl: url });
    expect(await rejection(gone.complete(ask()))).toMatchObject({ status: 502, type: "upstream_error" });
  });

  it("times out per timeoutMs as a 502", async () => {
    upstream.enqueue({ text: "late", delayMs: 1000 });
    const hasty = createAnthropicAdapter({ apiKey: "sk-ant-test", baseUrl: upstream.url, timeoutMs: 100 });
    expect(await rejection(hasty.complete(ask()))).toMatchObject({ status: 502, type: "upstream_error" });
  });

  it("refuses a bad data URL before calling the vendor", async () => {
    const error = await rejection(
      adapter.complete(
        ask({
          messages: [
            {
              role: "user",
              content: [{ type: "image_url", image_url: { url: "data:image/bmp;base64,Qk0=" } }],
            },
          ],
        }),
      ),
    );
    expect(error).toMatchObject({ status: 400, type: "invalid_request_error" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("passes an abort of a non-streaming call through as an AbortError", async () => {
    upstream.enqueue({ text: "late", delayMs: 2000 });
    const controller = new AbortController();
    const pending = adapter.complete(ask(), { signal: controller.signal });
    await upstream.waitFor((requests) => requests.length === 1);
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ name: "AbortError" });
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });
});

describe("listModels", () => {
  it("lists the account's models through the SDK", async () => {
    expect(await adapter.listModels()).toEqual(["claude-a", "claude-b"]);
    expect(upstream.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
    expect(upstream.requests[0]?.headers["anthropic-version"]).toBe("2023-06-01");
  });

  it("maps a failure", async () => {
    upstream.enqueue({ kind: "error", status: 503 });
    expect(await rejection(adapter.listModels())).toMatchObject({ status: 502, type: "upstream_error" });
  });

  it("has no embeddings", () => {
    expect(adapter.embed).toBeUndefined();
  });
});
