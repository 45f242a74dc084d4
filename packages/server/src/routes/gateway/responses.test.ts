/**
 * `POST /v1/responses` over a real socket, read by the real `openai` SDK
 * (`responses.create()` and `responses.stream()`), with the gateway's real
 * adapters calling scripted upstreams on 127.0.0.1.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startAnthropicUpstream, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { listen, type RunningHttpServer } from "../../http-server.js";

let builtin: Upstream;
let byok: Upstream;
let anthropic: Upstream;
let tenant: TestTenant;
let app: App;
let server: RunningHttpServer;
let client: OpenAI;

beforeAll(async () => {
  builtin = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  byok = await startOpenAIUpstream({ models: ["gpt-x"] });
  anthropic = await startAnthropicUpstream({ models: ["claude-x"] });
});
afterAll(async () => {
  await Promise.all([builtin.close(), byok.close(), anthropic.close()]);
});

async function serve(options: { byokConcurrency?: number } = {}): Promise<void> {
  await server?.close(0);
  const gateway = createStoreGateway(tenant.store, {
    builtin: { baseUrl: builtin.url, apiKey: "builtin-secret" },
    fetch: createFastFetch(),
    byokConcurrency: options.byokConcurrency ?? 4,
  });
  app = createApp({ store: tenant.store, gateway, builtinConfigured: true });
  server = await listen(app, { host: "127.0.0.1", port: 0 });
  client = sdk(tenant.keys.member);
}

function sdk(key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
}

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  builtin.reset();
  byok.reset();
  anthropic.reset();
  await serve();
});
afterEach(async () => {
  await server.close(0);
  await tenant.store.close();
});

const post = (body: unknown, key = tenant.keys.member) =>
  app.request("/v1/responses", {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { ...bearer(key), "content-type": "application/json" },
  });

async function addProvider(provider: string, config: Record<string, unknown>, apiKey?: string) {
  const response = await app.request("/v1/providers", {
    method: "POST",
    body: JSON.stringify({
      name: `${provider} account`,
      provider,
      config,
      ...(apiKey === undefined ? {} : { apiKey }),
    }),
    headers: { ...bearer(tenant.keys.admin), "content-type": "application/json" },
  });
  expect(response.status).toBe(201);
}

async function rejection(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAI.APIError);
    return error as InstanceType<typeof OpenAI.APIError>;
  }
  throw new Error("expected the call to fail");
}

function sentBody(upstream: Upstream, index = 0): Record<string, unknown> {
  return upstream.requests[index]?.body as Record<string, unknown>;
}

const lookupTool = {
  type: "function" as const,
  name: "lookup_invoice",
  description: "Finds an invoice",
  parameters: { type: "object", properties: { number: { type: "string" } }, required: ["number"] },
  strict: false,
};

describe("POST /v1/responses (direct calls) with responses.create()", () => {
  it("answers a built-in model in the responses shape and meters it under RESPONSES", async () => {
    builtin.enqueue({ text: "Hi there", usage: { inputTokens: 5, outputTokens: 2 } });
    const response = await client.responses.create({
      model: "gw-chat-1",
      instructions: "Be brief.",
      input: "hello",
      metadata: { ticket: "T-1" },
      user: "end-user-9",
    });
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      model: "gw-chat-1",
      instructions: "Be brief.",
      metadata: { ticket: "T-1" },
      store: false,
      output: [
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Hi there" }],
        },
      ],
      usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe("Hi there");
    // Built-in calls report no cached share without the organization-scoped cache key (chat rule 2).
    expect(response.usage).not.toHaveProperty("input_tokens_details");

    expect(builtin.requests[0]?.path).toBe("/v1/chat/completions");
    expect(sentBody(builtin)).toMatchObject({
      model: "gw-chat-1",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hello" },
      ],
    });
    expect((await tenant.store.usage.list(tenant.organizationId))[0]).toMatchObject({
      surface: "RESPONSES",
      model: "gw-chat-1",
      byok: false,
      promptTokens: 5,
      completionTokens: 2,
      endUser: "end-user-9",
      outcome: "ok",
    });
  });

  it("translates sampling, limits, text.format and image parts for the chat path", async () => {
    builtin.enqueue({ text: '{"ok":true}' });
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    await client.responses.create({
      model: "gw-chat-1",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is this?" },
            { type: "input_image", image_url: "https://example.com/a.png", detail: "low" },
          ],
        },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 64,
      text: { format: { type: "json_schema", name: "answer", schema, strict: true } },
      parallel_tool_calls: false,
      store: true,
    });
    const sent = sentBody(builtin);
    expect(sent).toMatchObject({
      temperature: 0.2,
      top_p: 0.9,
      max_completion_tokens: 64,
      response_format: { type: "json_schema", json_schema: { name: "answer", schema, strict: true } },
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
          ],
        },
      ],
    });
    expect(sent).not.toHaveProperty("parallel_tool_calls");
    expect(sent).not.toHaveProperty("store");
    // An image call is still a responses call in analytics.
    expect((await tenant.store.usage.list(tenant.organizationId))[0]?.surface).toBe("RESPONSES");
  });

  it("returns function_call items for hosted-a, and continues with function_call_output items", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk-customer");
    byok.enqueue({
      text: "Let me look.",
      toolCalls: [{ id: "call_abc", name: "lookup_invoice", arguments: { number: "INV-1" } }],
      usage: { inputTokens: 9, outputTokens: 4, cachedInputTokens: 2 },
    });
    const first = await client.responses.create({
      model: "hosted-a/gpt-x",
      input: "Find invoice INV-1",
      tools: [lookupTool],
      tool_choice: "auto",
    });
    expect(first.output.map((item) => item.type)).toEqual(["message", "function_call"]);
    expect(first.output[1]).toMatchObject({
      type: "function_call",
      call_id: "call_abc",
      name: "lookup_invoice",
      arguments: '{"number":"INV-1"}',
      status: "completed",
    });
    expect(first.usage).toMatchObject({ input_tokens_details: { cached_tokens: 2 } });
    expect(first.model).toBe("hosted-a/gpt-x");
    expect(byok.requests[0]?.headers.authorization).toBe("Bearer sk-customer");
    expect(sentBody(byok)).toMatchObject({
      model: "gpt-x",
      tool_choice: "auto",
      tools: [
        {
          type: "function",
          function: {
            name: "lookup_invoice",
            description: "Finds an invoice",
            parameters: lookupTool.parameters,
            strict: false,
          },
        },
      ],
    });

    byok.enqueue({ text: "INV-1 is paid." });
    const second = await client.responses.create({
      model: "hosted-a/gpt-x",
      tools: [lookupTool],
      input: [
        { role: "user", content: "Find invoice INV-1" },
        // The SDK types every output item, not only the ones that can be sent back.
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: "function_call_output", call_id: "call_abc", output: '{"status":"paid"}' },
      ],
    });
    expect(second.output_text).toBe("INV-1 is paid.");
    expect(sentBody(byok, 1).messages).toEqual([
      { role: "user", content: "Find invoice INV-1" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          {
            id: "call_abc",
            type: "function",
            function: { name: "lookup_invoice", arguments: '{"number":"INV-1"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_abc", content: '{"status":"paid"}' },
    ]);
    const records = await tenant.store.usage.list(tenant.organizationId);
    expect(records.every((r) => r.surface === "RESPONSES" && r.byok && r.costEur === 0)).toBe(true);
  });

  it("names a forced function for hosted-a", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    await client.responses.create({
      model: "hosted-a/gpt-x",
      input: "x",
      tools: [lookupTool],
      tool_choice: { type: "function", name: "lookup_invoice" },
    });
    expect(sentBody(byok).tool_choice).toEqual({ type: "function", function: { name: "lookup_invoice" } });
  });

  it("runs hosted-b (anthropic) through its chat translation", async () => {
    await addProvider("HOSTED_B", { baseUrl: anthropic.url }, "sk-ant");
    anthropic.enqueue({ toolCalls: [{ id: "toolu_1", name: "lookup_invoice", arguments: { number: "7" } }] });
    const response = await client.responses.create({
      model: "hosted-b/claude-x",
      instructions: "You are careful.",
      input: "Invoice 7?",
      tools: [lookupTool],
    });
    expect(response.output).toMatchObject([
      { type: "function_call", call_id: "toolu_1", name: "lookup_invoice", arguments: '{"number":"7"}' },
    ]);
    expect(response.output_text).toBe("");
    expect(anthropic.requests[0]?.path).toBe("/v1/messages");
    expect(sentBody(anthropic)).toMatchObject({
      model: "claude-x",
      system: "You are careful.",
      tools: [{ name: "lookup_invoice" }],
    });
  });

  it("reports a length stop as an incomplete response", async () => {
    builtin.enqueue({ text: "cut", finishReason: "length" });
    const response = await client.responses.create({ model: "gw-chat-1", input: "x", max_output_tokens: 1 });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });
});

describe("streaming with responses.stream()", () => {
  it("emits the typed events the SDK accumulates, ending with response.completed and no [DONE]", async () => {
    builtin.enqueue({ text: "Hello streaming world", usage: { inputTokens: 4, outputTokens: 3 } });
    const stream = client.responses.stream({ model: "gw-chat-1", input: "hi" });
    const events: Array<{ type: string; sequence_number: number }> = [];
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();

    expect(final.output_text).toBe("Hello streaming world");
    expect(final.status).toBe("completed");
    expect(final.usage).toMatchObject({ input_tokens: 4, output_tokens: 3, total_tokens: 7 });
    expect(deltas.join("")).toBe("Hello streaming world");
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect((await tenant.store.usage.list(tenant.organizationId))[0]).toMatchObject({
      surface: "RESPONSES",
      promptTokens: 4,
      completionTokens: 3,
      outcome: "ok",
    });
  });

  it("writes each event with its name and ends without a [DONE] line", async () => {
    const response = await post({ model: "gw-chat-1", input: "hi", stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const blocks = (await response.text()).split("\n\n").filter((b) => b !== "");
    expect(blocks.every((b) => /^event: response\.[a-z_.]+\ndata: \{/.test(b))).toBe(true);
    for (const block of blocks) {
      const [eventLine, dataLine] = block.split("\n");
      expect(JSON.parse(dataLine?.slice(6) ?? "{}").type).toBe(eventLine?.slice(7));
    }
    expect(blocks.at(-1)).toMatch(/^event: response\.completed\n/);
    expect(blocks.some((b) => b.includes("[DONE]"))).toBe(false);
  });

  it("streams function calls from hosted-a and from hosted-b", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    await addProvider("HOSTED_B", { baseUrl: anthropic.url }, "sk-ant");
    const args = { number: "INV-2024-001", include: ["lines", "payments"] };
    for (const [upstream, model] of [
      [byok, "hosted-a/gpt-x"],
      [anthropic, "hosted-b/claude-x"],
    ] as const) {
      upstream.enqueue({
        text: "Checking.",
        toolCalls: [{ id: "call_s1", name: "lookup_invoice", arguments: args }],
      });
      const stream = client.responses.stream({ model, input: "Find it", tools: [lookupTool] });
      const argDeltas: string[] = [];
      stream.on("response.function_call_arguments.delta", (event) => argDeltas.push(event.delta));
      const final = await stream.finalResponse();
      expect(final.output_text).toBe("Checking.");
      expect(final.output[1]).toMatchObject({
        type: "function_call",
        call_id: "call_s1",
        name: "lookup_invoice",
        status: "completed",
      });
      const call = final.output[1];
      expect(call?.type === "function_call" ? JSON.parse(call.arguments) : undefined).toEqual(args);
      expect(argDeltas.length).toBeGreaterThan(0);
    }
  });

  it("aborts the upstream call when the client disconnects", async () => {
    builtin.enqueue({ text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 100 });
    const controller = new AbortController();
    const stream = client.responses.stream({ model: "gw-chat-1", input: "x" }, { signal: controller.signal });
    stream.on("response.output_text.delta", () => controller.abort());
    await stream.finalResponse().catch(() => undefined);
    await builtin.waitFor((requests) => requests[0]?.outcome === "aborted", 5_000);
    expect(builtin.requests[0]?.outcome).toBe("aborted");
  });

  it("answers an upstream refusal before the first event with a status", async () => {
    builtin.enqueue({ kind: "error", status: 400, message: "context too long" });
    const error = await rejection(
      client.responses.stream({ model: "gw-chat-1", input: "x" }).finalResponse(),
    );
    expect(error.status).toBe(400);
    expect(error.type).toBe("upstream_error");
  });

  it("ends the stream with an error the SDK raises when the upstream fails mid-stream", async () => {
    builtin.enqueue({ text: "one two three four five six", hangUpAfterEvents: 3 });
    const stream = client.responses.stream({ model: "gw-chat-1", input: "x" });
    const error = await rejection(stream.finalResponse());
    expect(error.type).toBe("upstream_error");
    expect((await tenant.store.usage.list(tenant.organizationId))[0]?.outcome).toBe("error");
  });
});

describe("errors", () => {
  it("answers 402 to direct BYOK calls on a free plan", async () => {
    const error = await rejection(
      sdk(await tenant.keyFor("member", "free")).responses.create({ model: "hosted-a/gpt-x", input: "x" }),
    );
    expect(error.status).toBe(402);
    expect(error.type).toBe("billing_error");
  });

  it.each([
    ["an unknown prefix lists the valid ones", "nope/x", 400, /hosted-a, cloud-a, hosted-b/],
    ["cloud-b always fails", "cloud-b/x", 400, /cloud-b/],
    ["no provider configured for the prefix", "hosted-c/x", 404, /HOSTED_C/],
  ])("%s", async (_, model, status, message) => {
    const error = await rejection(client.responses.create({ model, input: "x" }));
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
  });

  it("limits concurrent BYOK calls with 429 and Retry-After", async () => {
    await serve({ byokConcurrency: 1 });
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    byok.enqueue({ text: "slow", delayMs: 400 });
    const first = client.responses.create({ model: "hosted-a/gpt-x", input: "x" });
    await byok.waitFor((requests) => requests.length === 1);
    const second = await post({ model: "hosted-a/gpt-x", input: "x" });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await bodyOf(second)).error.type).toBe("rate_limit_error");
    expect((await first).output_text).toBe("slow");
  });

  it("hands agent models to the agent runner (404 for an agent that does not exist)", async () => {
    for (const model of ["agent/support", "agent/support@production#hosted-a/gpt-x"]) {
      const error = await rejection(client.responses.create({ model, input: "x" }));
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/No agent named "support"/);
    }
    expect(builtin.requests).toHaveLength(0);
  });

  it("refuses previous_response_id on direct calls with a clear 400", async () => {
    const error = await rejection(
      client.responses.create({ model: "gw-chat-1", input: "x", previous_response_id: "resp_123" }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("previous_response_id");
    expect(error.message).toMatch(/stores no responses/);
    expect(builtin.requests).toHaveLength(0);
  });

  it.each([
    [{ input: "x" }, "model"],
    [{ model: "m" }, "input"],
    [{ model: "m", input: [] }, "input"],
    [{ model: "m", input: "x", temperature: 3 }, "temperature"],
    [{ model: "m", input: "x", top_p: 1.5 }, "top_p"],
    [{ model: "m", input: "x", max_output_tokens: 0 }, "max_output_tokens"],
    [{ model: "m", input: "x", stream: "yes" }, "stream"],
    [{ model: "m", input: "x", tools: [{ type: "web_search" }] }, "tools[0].type"],
    [{ model: "m", input: "x", tool_choice: "sometimes" }, "tool_choice"],
    [{ model: "m", input: [{ role: "wizard", content: "x" }] }, "input[0].role"],
    [
      { model: "m", input: [{ role: "user", content: [{ type: "input_image", file_id: "f" }] }] },
      "input[0].content[0].image_url",
    ],
    [
      {
        model: "m",
        input: [{ role: "system", content: [{ type: "input_image", image_url: "https://a/b.png" }] }],
      },
      "input[0].content[0]",
    ],
    [{ model: "m", input: [{ type: "item_reference", id: "msg_1" }] }, "input[0].type"],
    [{ model: "m", input: [{ type: "function_call_output", output: "x" }] }, "input[0].call_id"],
    [{ model: "m", input: "x", text: { format: { type: "json_schema", schema: {} } } }, "text.format.name"],
    [{ model: "m", input: "x", metadata: { k: 1 } }, "metadata.k"],
    [{ model: "m", input: "x", prompt_cache_key: "k".repeat(257) }, "prompt_cache_key"],
    [{ model: "m", input: "x", background: true }, "background"],
    [
      {
        model: "gw-chat-1",
        input: [{ role: "user", content: [{ type: "input_image", image_url: "http://a/b.png" }] }],
      },
      "input",
    ],
  ])("answers 400 for %j naming %s", async (body, param) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error).toMatchObject({ type: "invalid_request_error", param });
    expect(builtin.requests).toHaveLength(0);
  });

  it("refuses a Viewer (403)", async () => {
    expect((await post({ model: "gw-chat-1", input: "x" }, tenant.keys.viewer)).status).toBe(403);
  });

  it("never answers 5xx to malformed bodies (fuzzed)", async () => {
    const field = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const item = fc.oneof(
      fc.jsonValue(),
      fc.record({ role: field, content: field }),
      fc.record({
        type: fc.constantFrom("function_call", "function_call_output", "message"),
        call_id: field,
        name: field,
        arguments: field,
        output: field,
        role: field,
        content: field,
      }),
    );
    const bodies = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          model: fc.oneof(field, fc.constantFrom("gw-chat-1", "agent/x", "hosted-a/m", "nope/m")),
          input: fc.oneof(field, fc.array(item, { maxLength: 3 })),
          instructions: field,
          tools: field,
          tool_choice: field,
          text: field,
          stream: fc.oneof(field, fc.boolean()),
          previous_response_id: field,
        })
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await post(body);
        const status = response.status;
        expect(status === 501 || status < 500).toBe(true);
        if (status !== 200) expect((await bodyOf(response)).error).toBeDefined();
        else await response.text();
      }),
      { numRuns: 150 },
    );
  });
});

describe("hosted-a with useResponsesApi, end to end", () => {
  it("sends the call through the vendor's responses protocol and answers both ways", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url, useResponsesApi: "true" }, "sk");
    byok.enqueue(
      { toolCalls: [{ id: "call_v1", name: "lookup_invoice", arguments: { number: "9" } }] },
      { text: "Streamed via responses", usage: { inputTokens: 3, outputTokens: 3 } },
    );
    const created = await client.responses.create({
      model: "hosted-a/gpt-x",
      input: "x",
      tools: [lookupTool],
    });
    expect(created.output).toMatchObject([
      { type: "function_call", call_id: "call_v1", arguments: '{"number":"9"}' },
    ]);
    const final = await client.responses.stream({ model: "hosted-a/gpt-x", input: "y" }).finalResponse();
    expect(final.output_text).toBe("Streamed via responses");
    expect(byok.requests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses"]);
    expect(sentBody(byok)).toMatchObject({
      model: "gpt-x",
      store: false,
      input: [{ type: "message", role: "user", content: "x" }],
      tools: [{ type: "function", name: "lookup_invoice", strict: false }],
    });
  });
});
