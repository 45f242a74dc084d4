import type { ChatCompletionChunk, ChatRequest } from "@groundwork/core";
import { GroundworkError } from "@groundwork/core";
import { deterministicEmbedding, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProviderAdapter } from "../adapter.js";
import { AZURE_DEFAULT_API_VERSION, createAzureAdapter } from "./azure-adapter.js";
import { AZURE_CHAT_API_VERSION } from "./azure-translate.js";

// The testkit routes everything under one base path, so the upstream stands for one deployment.
const DEPLOYMENT = "gpt-4o-prod";
let upstream: Upstream;
let adapter: ProviderAdapter;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ basePath: `/openai/deployments/${DEPLOYMENT}` });
  adapter = createAzureAdapter({ apiKey: "az-key", endpoint: `${upstream.origin}/` });
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const ask = (request: Partial<ChatRequest> = {}): ChatRequest => ({
  model: DEPLOYMENT,
  messages: [{ role: "user", content: "hello there" }],
  ...request,
});
const weatherTool = {
  type: "function" as const,
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};
const weather = { name: "get_weather", arguments: { city: "Paris" } };

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
  it("calls the deployment path with the api-key header and the chat api-version", async () => {
    upstream.enqueue({ text: "Hi!", usage: { inputTokens: 4, outputTokens: 2 } });
    const completion = await adapter.complete(ask());
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: DEPLOYMENT,
      choices: [{ index: 0, message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    });
    expect(completion.usage).not.toHaveProperty("prompt_tokens_details");
    expect(completion).not.toHaveProperty("system_fingerprint");
    const [request] = upstream.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: `/openai/deployments/${DEPLOYMENT}/chat/completions`,
      query: { "api-version": AZURE_CHAT_API_VERSION },
    });
    expect(request?.headers["api-key"]).toBe("az-key");
    expect(request?.headers.authorization).toBeUndefined();
    expect(body()).toEqual({
      model: DEPLOYMENT,
      stream: false,
      messages: [{ role: "user", content: "hello there" }],
    });
  });

  it("forwards the chat fields, sends developer as system and drops prompt_cache_key", async () => {
    const schema = { type: "object", properties: { total: { type: "number" } } };
    await adapter.complete(
      ask({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "developer", content: [{ type: "text", text: "Metric units." }] },
          {
            role: "user",
            name: "ana",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: "https://example.com/cat.jpg", detail: "low" } },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            ],
          },
        ],
        temperature: 1.5,
        max_tokens: 10,
        max_completion_tokens: 20,
        top_p: 0.5,
        frequency_penalty: 0.1,
        presence_penalty: -0.1,
        stop: ["END"],
        response_format: { type: "json_schema", json_schema: { name: "invoice", schema, strict: true } },
        prompt_cache_key: "cache-me",
      }),
    );
    expect(body()).toEqual({
      model: DEPLOYMENT,
      stream: false,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "system", content: [{ type: "text", text: "Metric units." }] },
        {
          role: "user",
          name: "ana",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg", detail: "low" } },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
      temperature: 1.5,
      max_tokens: 10,
      max_completion_tokens: 20,
      top_p: 0.5,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      stop: ["END"],
      response_format: { type: "json_schema", json_schema: { name: "invoice", schema, strict: true } },
    });
  });

  it("round-trips tool calls and tool results", async () => {
    upstream.enqueue({ toolCalls: [weather] });
    const first = await adapter.complete(ask({ tools: [weatherTool], tool_choice: "required" }));
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: "function", function: { name: "get_weather" } });
    expect(JSON.parse(call?.function.arguments ?? "")).toEqual(weather.arguments);
    expect(body()).toMatchObject({ tools: [weatherTool], tool_choice: "required" });

    await adapter.complete(
      ask({
        tools: [weatherTool],
        tool_choice: { type: "function", function: { name: "get_weather" } },
        messages: [
          { role: "user", content: "weather?" },
          { role: "assistant", content: null, tool_calls: call === undefined ? [] : [call] },
          { role: "tool", tool_call_id: call?.id ?? "", content: "18 degrees" },
        ],
      }),
    );
    expect(body(1)).toMatchObject({
      tool_choice: { type: "function", function: { name: "get_weather" } },
      messages: [
        { role: "user", content: "weather?" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: call?.id, content: "18 degrees" },
      ],
    });
  });

  it("reports cached tokens when the vendor does", async () => {
    upstream.enqueue({ text: "ok", usage: { inputTokens: 120, outputTokens: 3, cachedInputTokens: 100 } });
    expect((await adapter.complete(ask())).usage).toEqual({
      prompt_tokens: 120,
      completion_tokens: 3,
      total_tokens: 123,
      prompt_tokens_details: { cached_tokens: 100 },
    });
  });

  it("refuses a model name that is not a deployment name, before calling the vendor", async () => {
    const error = await rejection(adapter.complete(ask({ model: "../../other/chat" })));
    expect(error).toMatchObject({ status: 400, type: "invalid_request_error", param: "model" });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("stream", () => {
  it("passes chunks through, always asking for usage", async () => {
    upstream.enqueue({
      text: "one two three",
      usage: { inputTokens: 5, outputTokens: 3, cachedInputTokens: 2 },
    });
    const chunks = await collect(adapter.stream(ask()));
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("one two three");
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({
      object: "chat.completion.chunk",
      choices: [],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 3,
        total_tokens: 8,
        prompt_tokens_details: { cached_tokens: 2 },
      },
    });
    expect(chunks.slice(0, -1).every((chunk) => !("usage" in chunk))).toBe(true);
    expect(body()).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(upstream.requests[0]?.path).toBe(`/openai/deployments/${DEPLOYMENT}/chat/completions`);
  });

  it("streams tool calls with usage", async () => {
    upstream.enqueue({ toolCalls: [weather], usage: { inputTokens: 9, outputTokens: 4 } });
    const chunks = await collect(adapter.stream(ask({ tools: [weatherTool] })));
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({ index: 0, type: "function", function: { name: "get_weather" } });
    expect(deltas[0]?.id).toMatch(/^call_/);
    expect(JSON.parse(deltas.map((delta) => delta.function?.arguments ?? "").join(""))).toEqual(
      weather.arguments,
    );
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 });
  });

  it("drops the vendor's prompt-filter chunk and content-filter extras", async () => {
    const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o" };
    upstream.enqueue({
      kind: "sse",
      events: [
        { data: { id: "", object: "", created: 0, model: "", choices: [], prompt_filter_results: [] } },
        {
          data: {
            ...base,
            choices: [
              {
                index: 0,
                delta: { role: "assistant", content: "Hi" },
                finish_reason: null,
                content_filter_results: {},
              },
            ],
          },
        },
        { data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] } },
        { data: "[DONE]" },
      ],
    });
    const chunks = await collect(adapter.stream(ask()));
    expect(chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    ]);
  });

  it("fails after the first chunk when the upstream hangs up mid-stream", async () => {
    upstream.enqueue({ text: "one two three four", hangUpAfterEvents: 2 });
    const seen: ChatCompletionChunk[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of adapter.stream(ask())) seen.push(chunk);
      })(),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(GroundworkError);
    expect(error).toMatchObject({ status: 502, type: "upstream_error" });
    expect(upstream.requests[0]?.outcome).toBe("hung-up");
  });

  it("fails when the stream ends cleanly but without a finish_reason", async () => {
    const base = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
    upstream.enqueue({
      kind: "sse",
      events: [{ data: { ...base, choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] } }],
    });
    expect(await rejection(collect(adapter.stream(ask())))).toMatchObject({
      status: 502,
      type: "upstream_error",
    });
  });

  it("cancels the upstream request when the signal aborts", async () => {
    upstream.enqueue({ text: "one two three four five six", chunkDelayMs: 300 });
    const controller = new AbortController();
    const error = await rejection(
      (async () => {
        for await (const _chunk of adapter.stream(ask(), { signal: controller.signal })) controller.abort();
      })(),
    );
    expect(error).toMatchObject({ name: "AbortError" });
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });
});

describe("embeddings", () => {
  it("asks for floats, forwards dimensions and returns vectors in input order", async () => {
    const result = await adapter.embed?.({
      model: DEPLOYMENT,
      input: ["alpha", "beta"],
      dimensions: 8,
      user: "u1",
    });
    expect(result?.vectors).toEqual([deterministicEmbedding("alpha", 8), deterministicEmbedding("beta", 8)]);
    expect(result?.promptTokens).toBeGreaterThan(0);
    expect(upstream.requests[0]).toMatchObject({
      path: `/openai/deployments/${DEPLOYMENT}/embeddings`,
      query: { "api-version": AZURE_CHAT_API_VERSION },
      body: { model: DEPLOYMENT, input: ["alpha", "beta"], encoding_format: "float", dimensions: 8 },
    });
    expect(body()).not.toHaveProperty("user");
  });

  it("reorders data the vendor answered out of order", async () => {
    upstream.enqueue({
      kind: "json",
      body: {
        object: "list",
        model: DEPLOYMENT,
        data: [
          { object: "embedding", index: 1, embedding: [0, 1] },
          { object: "embedding", index: 0, embedding: [1, 0] },
        ],
        usage: { prompt_tokens: 2, total_tokens: 2 },
      },
    });
    expect(await adapter.embed?.({ model: DEPLOYMENT, input: ["a", "b"] })).toEqual({
      vectors: [
        [1, 0],
        [0, 1],
      ],
      promptTokens: 2,
    });
  });

  it("maps the vendor refusing the input to 400 upstream_error", async () => {
    const error = await rejection(adapter.embed?.({ model: DEPLOYMENT, input: [""] }) ?? Promise.resolve());
    expect(error).toMatchObject({ status: 400, type: "upstream_error" });
  });
});

describe("errors", () => {
  it.each([
    [400, 400, "upstream_error"],
    [404, 400, "upstream_error"],
    [500, 502, "upstream_error"],
  ] as const)("maps a vendor %i to %i %s, without retrying", async (status, expected, type) => {
    upstream.enqueue({ kind: "error", status });
    const error = await rejection(adapter.complete(ask()));
    expect(error).toBeInstanceOf(GroundworkError);
    expect(error).toMatchObject({ status: expected, type });
    expect(upstream.requests).toHaveLength(1);
  });

  it("maps a vendor 429 to 429 with retryAfter", async () => {
    upstream.enqueue({ kind: "error", status: 429, headers: { "retry-after": "3" } });
    expect(await rejection(adapter.complete(ask()))).toMatchObject({
      status: 429,
      type: "rate_limit_error",
      retryAfter: 3,
    });
  });

  it("refuses to be created without a key", () => {
    expect(() => createAzureAdapter({ apiKey: "", endpoint: upstream.origin })).toThrow(
      expect.objectContaining({ status: 400, param: "apiKey" }),
    );
  });

  it("times out per timeoutMs as a 502", async () => {
    upstream.enqueue({ text: "late", delayMs: 1000 });
    const hasty = createAzureAdapter({ apiKey: "az-key", endpoint: upstream.origin, timeoutMs: 100 });
    expect(await rejection(hasty.complete(ask()))).toMatchObject({ status: 502, type: "upstream_error" });
  });
});

describe("listModels", () => {
  // The testkit upstream has no `GET /openai/deployments` route (it answers 404 before any
  // script runs), so the wire request is checked against it, and the parsing of a deployment
  // list through the adapter's `fetch` option.
  it("requests the deployment list with the listing api-version, default and configured", async () => {
    const error = await rejection(adapter.listModels());
    expect(error).toMatchObject({ status: 400, type: "upstream_error" });
    const configured = createAzureAdapter({
      apiKey: "az-key",
      endpoint: upstream.origin,
      apiVersion: "2023-05-15",
    });
    await rejection(configured.listModels());
    expect(upstream.requests.map((request) => [request.method, request.path, request.query])).toEqual([
      ["GET", "/openai/deployments", { "api-version": AZURE_DEFAULT_API_VERSION }],
      ["GET", "/openai/deployments", { "api-version": "2023-05-15" }],
    ]);
    expect(upstream.requests[0]?.headers["api-key"]).toBe("az-key");
  });

  it("returns the deployment ids", async () => {
    const seen: string[] = [];
    const listing: typeof fetch = async (input) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return Response.json({
        object: "list",
        data: [
          { id: "gpt-4o-prod", model: "gpt-4o", object: "deployment", status: "succeeded" },
          { id: "embed-small", model: "text-embedding-3-small", object: "deployment", status: "succeeded" },
        ],
      });
    };
    const listed = createAzureAdapter({
      apiKey: "az-key",
      endpoint: "https://res.example.com",
      fetch: listing,
    });
    expect(await listed.listModels()).toEqual(["gpt-4o-prod", "embed-small"]);
    expect(seen).toEqual([
      `https://res.example.com/openai/deployments?api-version=${AZURE_DEFAULT_API_VERSION}`,
    ]);
  });

  it("fails on an answer without a data array", async () => {
    const odd: typeof fetch = async () => Response.json({ value: [] });
    const listed = createAzureAdapter({ apiKey: "az-key", endpoint: "https://res.example.com", fetch: odd });
    expect(await rejection(listed.listModels())).toMatchObject({ status: 502, type: "upstream_error" });
  });
});
