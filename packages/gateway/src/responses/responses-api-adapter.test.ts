/**
 * HOSTED_A's `useResponsesApi`: the OpenAI-compatible adapter sends chat
 * requests through the vendor's responses protocol when forced or when the
 * rule calls for it, and answers in the chat shape either way, streamed or not.
 */
import type { ChatCompletionChunk, ChatRequest } from "@groundwork/core";
import { GroundworkError } from "@groundwork/core";
import { type JsonObject, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createProviderAdapter } from "../adapters/create-provider-adapter.js";
import { createOpenAICompatibleAdapter } from "../adapters/openai-compatible-adapter.js";

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ apiKey: "sk-a" });
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const adapterWith = (responsesApi: "never" | "auto" | "always") =>
  createOpenAICompatibleAdapter({
    provider: "hosted-a",
    baseUrl: upstream.url,
    apiKey: "sk-a",
    responsesApi,
  });

const lookupTool = {
  type: "function" as const,
  function: { name: "lookup_invoice", parameters: { type: "object", properties: { n: { type: "string" } } } },
};
const ask = (request: Partial<ChatRequest> = {}): ChatRequest => ({
  model: "gpt-4o",
  messages: [{ role: "user", content: "hello" }],
  ...request,
});

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function sent(index = 0): Record<string, unknown> {
  return upstream.requests[index]?.body as Record<string, unknown>;
}

describe("forced (useResponsesApi: true)", () => {
  const adapter = () => adapterWith("always");

  it("sends a plain request to /v1/responses and answers a chat completion", async () => {
    upstream.enqueue({ text: "Hi!", usage: { inputTokens: 6, outputTokens: 2, cachedInputTokens: 4 } });
    const completion = await adapter().complete(
      ask({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hello" },
        ],
        temperature: 0.3,
        max_tokens: 50,
        response_format: { type: "json_object" },
        prompt_cache_key: "pck",
      }),
    );
    expect(upstream.requests[0]?.path).toBe("/v1/responses");
    expect(sent()).toEqual({
      model: "gpt-4o",
      input: [
        { type: "message", role: "system", content: "Be brief." },
        { type: "message", role: "user", content: "hello" },
      ],
      store: false,
      stream: false,
      temperature: 0.3,
      max_output_tokens: 50,
      text: { format: { type: "json_object" } },
      prompt_cache_key: "pck",
    });
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "gpt-4o",
      choices: [{ index: 0, message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: 6,
        completion_tokens: 2,
        total_tokens: 8,
        prompt_tokens_details: { cached_tokens: 4 },
      },
    });
    expect(completion.id).toMatch(/^resp_/);
    expect(completion.choices[0]?.message).not.toHaveProperty("tool_calls");
  });

  it("translates tools, tool results and images, and answers tool calls", async () => {
    upstream.enqueue({ toolCalls: [{ id: "call_9", name: "lookup_invoice", arguments: { n: "2" } }] });
    const completion = await adapter().complete(
      ask({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Look at" },
              { type: "image_url", image_url: { url: "https://example.com/i.png", detail: "high" } },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "lookup_invoice", arguments: '{"n":"1"}' },
              },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "not found" },
        ],
        tools: [lookupTool],
        tool_choice: { type: "function", function: { name: "lookup_invoice" } },
      }),
    );
    expect(sent()).toMatchObject({
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "Look at" },
            { type: "input_image", image_url: "https://example.com/i.png", detail: "high" },
          ],
        },
        { type: "function_call", call_id: "call_1", name: "lookup_invoice", arguments: '{"n":"1"}' },
        { type: "function_call_output", call_id: "call_1", output: "not found" },
      ],
      tools: [
        {
          type: "function",
          name: "lookup_invoice",
          parameters: lookupTool.function.parameters,
          strict: false,
        },
      ],
      tool_choice: { type: "function", name: "lookup_invoice" },
    });
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_9", type: "function", function: { name: "lookup_invoice", arguments: '{"n":"2"}' } },
        ],
      },
      finish_reason: "tool_calls",
    });
  });

  it("streams the vendor's typed events back as chat chunks with a usage chunk", async () => {
    upstream.enqueue({
      text: "Looking it up now",
      toolCalls: [{ id: "call_s", name: "lookup_invoice", arguments: { n: "a fairly long argument value" } }],
      usage: { inputTokens: 7, outputTokens: 9 },
    });
    const chunks = await collect(adapter().stream(ask({ tools: [lookupTool] })));
    expect(upstream.requests[0]?.path).toBe("/v1/responses");
    expect(sent().stream).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Looking it up now");
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: "call_s",
      type: "function",
      function: { name: "lookup_invoice", arguments: "" },
    });
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas.map((d) => d.function?.arguments ?? "").join("")).toBe(
      '{"n":"a fairly long argument value"}',
    );
    const finish = chunks.find((c) => c.choices[0]?.finish_reason != null);
    expect(finish?.choices[0]?.finish_reason).toBe("tool_calls");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    // The vendor's responses protocol always reports the cached share (here 0), so it is passed on.
    expect(last?.usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 9,
      total_tokens: 16,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.id.startsWith("resp_"))).toBe(true);
  });

  it("reports an incomplete response as finish_reason length", async () => {
    upstream.enqueue({ text: "cut", finishReason: "length" }, { text: "cut", finishReason: "length" });
    const completion = await adapter().complete(ask());
    expect(completion.choices[0]?.finish_reason).toBe("length");
    const chunks = await collect(adapter().stream(ask()));
    expect(chunks.find((c) => c.choices[0]?.finish_reason != null)?.choices[0]?.finish_reason).toBe("length");
  });

  it("maps vendor errors like the chat path, before and after the first event", async () => {
    upstream.enqueue({ kind: "error", status: 400, message: "bad input" });
    const refused = await adapter()
      .complete(ask())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GroundworkError);
    expect((refused as GroundworkError).status).toBe(400);
    expect((refused as GroundworkError).message).toMatch(/hosted-a answered 400: .*bad input/);

    upstream.enqueue({ text: "one two three four five six seven", hangUpAfterEvents: 4 });
    const failed = await collect(adapter().stream(ask())).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(GroundworkError);
    expect((failed as GroundworkError).status).toBe(502);
  });

  it("turns a response.failed event into a 502", async () => {
    upstream.enqueue({
      kind: "sse",
      events: [
        {
          event: "response.created",
          data: { type: "response.created", sequence_number: 0, response: vendorResponse("in_progress") },
        },
        {
          event: "response.failed",
          data: {
            type: "response.failed",
            sequence_number: 1,
            response: {
              ...vendorResponse("failed"),
              error: { code: "server_error", message: "model crashed" },
            },
          },
        },
      ],
    });
    const error = await collect(adapter().stream(ask())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GroundworkError);
    expect((error as GroundworkError).status).toBe(502);
    expect((error as GroundworkError).message).toMatch(/model crashed/);
  });

  it("refuses stop, which the responses protocol cannot honour, before calling", async () => {
    const error = await adapter()
      .complete(ask({ stop: ["END"] }))
      .catch((e: unknown) => e);
    expect((error as GroundworkError).status).toBe(400);
    expect((error as GroundworkError).param).toBe("stop");
    expect(upstream.requests).toHaveLength(0);
  });
});

function vendorResponse(status: string): JsonObject {
  return {
    id: "resp_x",
    object: "response",
    created_at: 1,
    model: "gpt-4o",
    status,
    output: [],
    error: null,
  };
}

describe("automatic (useResponsesApi unset)", () => {
  const adapter = () => adapterWith("auto");

  it.each([
    [
      "a reasoning model with function tools",
      ask({ model: "o3-mini", tools: [lookupTool] }),
      "/v1/responses",
    ],
    ["gpt-5 with function tools", ask({ model: "gpt-5-mini", tools: [lookupTool] }), "/v1/responses"],
    ["a model served only there, without tools", ask({ model: "o3-pro" }), "/v1/responses"],
    ["a reasoning model without tools", ask({ model: "o3-mini" }), "/v1/chat/completions"],
    [
      "a non-reasoning model with tools",
      ask({ model: "gpt-4o", tools: [lookupTool] }),
      "/v1/chat/completions",
    ],
  ])("%s goes to %s", async (_, request, path) => {
    await adapter().complete(request);
    await collect(adapter().stream(request));
    expect(upstream.requests.map((r) => r.path)).toEqual([path, path]);
  });
});

describe("never", () => {
  it("keeps reasoning models with tools on chat completions (other kinds, built-in)", async () => {
    await adapterWith("never").complete(ask({ model: "o3", tools: [lookupTool] }));
    expect(upstream.requests[0]?.path).toBe("/v1/chat/completions");
  });
});

describe("createProviderAdapter", () => {
  const account = (config: Record<string, unknown>) => ({
    id: "p1",
    name: "a",
    type: "HOSTED_A" as const,
    config: { baseUrl: upstream.url, ...config },
    apiKey: "sk-a",
  });

  it("forces the responses protocol for HOSTED_A with useResponsesApi, and applies the rule without it", async () => {
    await createProviderAdapter(account({ useResponsesApi: true }), undefined).complete(ask());
    await createProviderAdapter(account({}), undefined).complete(ask());
    await createProviderAdapter(account({ useResponsesApi: false }), undefined).complete(
      ask({ model: "o4-mini", tools: [lookupTool] }),
    );
    expect(upstream.requests.map((r) => r.path)).toEqual([
      "/v1/responses",
      "/v1/chat/completions",
      "/v1/responses",
    ]);
  });

  it("never uses it for other OpenAI-compatible kinds", async () => {
    await createProviderAdapter(
      { id: "p2", name: "s", type: "SELF_HOSTED", config: { baseUrl: upstream.url }, apiKey: null },
      undefined,
    )
      .complete(ask({ model: "o3-pro" }))
      .catch(() => undefined);
    expect(upstream.requests[0]?.path).toBe("/v1/chat/completions");
  });
});
