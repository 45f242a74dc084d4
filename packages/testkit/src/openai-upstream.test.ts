import OpenAI, { toFile } from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deterministicEmbedding } from "./deterministic-embedding.js";
import { startOpenAIUpstream } from "./openai-upstream.js";
import type { Upstream } from "./scripted-upstream.js";

let upstream: Upstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gpt-test", "embed-test"] });
  client = new OpenAI({ apiKey: "sk-test", baseURL: upstream.url, maxRetries: 0 });
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const weather = { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } };

describe("chat completions", () => {
  it("echoes the last user message and records the request", async () => {
    const completion = await client.chat.completions.create({
      model: "gpt-test",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hello there" }] },
      ],
      temperature: 0.2,
    });
    expect(upstream.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("gpt-test");
    expect(completion.choices[0]?.message).toMatchObject({ role: "assistant", content: "Echo: hello there" });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(completion.usage?.prompt_tokens_details).toBeUndefined();
    const [request] = upstream.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      body: { model: "gpt-test", temperature: 0.2 },
      outcome: "completed",
    });
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.headers["content-type"]).toContain("application/json");
    expect(request?.receivedAt).toBeInstanceOf(Date);
    expect(request?.raw.text).toContain('"hello there"');
  });

  it("renders scripted text, usage with cached tokens and finish reason", async () => {
    upstream.enqueue({
      text: "cut",
      usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 8 },
      finishReason: "length",
    });
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
    });
    expect(completion.choices[0]?.message.content).toBe("cut");
    expect(completion.choices[0]?.finish_reason).toBe("length");
    expect(completion.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 2,
      total_tokens: 12,
      prompt_tokens_details: { cached_tokens: 8 },
    });
  });

  it("streams deltas, a usage chunk with empty choices, then [DONE]", async () => {
    upstream.enqueue({
      text: "one two three",
      usage: { inputTokens: 5, outputTokens: 3, cachedInputTokens: 1 },
    });
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "count" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("one two three");
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: 5,
      completion_tokens: 3,
      total_tokens: 8,
      prompt_tokens_details: { cached_tokens: 1 },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(upstream.requests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(upstream.requests[0]?.outcome).toBe("completed");
  });

  it("sends no usage chunk without include_usage, nor when usage is scripted as unknown", async () => {
    for (const includeUsage of [false, true]) {
      upstream.enqueue({ text: "hi", usage: includeUsage ? null : { inputTokens: 1, outputTokens: 1 } });
      const stream = await client.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "x" }],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.every((chunk) => chunk.choices.length === 1 && chunk.usage == null)).toBe(true);
    }
  });

  it("answers tool calls and records the tool results sent back", async () => {
    upstream.enqueue({ toolCalls: [weather, { name: "noop", arguments: "{}", id: "call_fixed" }] });
    const tools = [
      { type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } },
    ];
    const first = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "weather?" }],
      tools,
    });
    const message = first.choices[0]?.message;
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(message?.content).toBeNull();
    const calls = message?.tool_calls ?? [];
    expect(calls).toHaveLength(2);
    const [call, second] = calls;
    expect(call?.type).toBe("function");
    if (call?.type !== "function" || second?.type !== "function") throw new Error("expected function calls");
    expect(call.id).toMatch(/^call_/);
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual(weather.arguments);
    expect(second.id).toBe("call_fixed");

    const followUp = await client.chat.completions.create({
      model: "m",
      tools,
      messages: [
        { role: "user", content: "weather?" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: call.id, content: "18 degrees" },
      ],
    });
    expect(followUp.choices[0]?.message.content).toBe("Echo: weather?");
    expect(upstream.requests[1]?.body).toMatchObject({
      tools,
      messages: [
        {},
        { tool_calls: [{ id: call.id }] },
        { role: "tool", tool_call_id: call.id, content: "18 degrees" },
      ],
    });
  });

  it("streams tool calls as OpenAI does: id, type and name first, then argument fragments", async () => {
    upstream.enqueue({ text: "Checking.", toolCalls: [weather] });
    const stream = client.chat.completions.stream({
      model: "m",
      messages: [{ role: "user", content: "weather?" }],
    });
    const raw: OpenAI.ChatCompletionChunk[] = [];
    stream.on("chunk", (chunk) => raw.push(chunk));
    const final = await stream.finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(message?.content).toBe("Checking.");
    const call = message?.tool_calls?.[0];
    if (call?.type !== "function") throw new Error("expected a function call");
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual(weather.arguments);
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");

    const toolDeltas = raw.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas[0]).toMatchObject({
      index: 0,
      id: call.id,
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    for (const delta of toolDeltas.slice(1)) {
      expect(delta.id).toBeUndefined();
      expect(delta.function?.name).toBeUndefined();
      expect(delta.function?.arguments?.length).toBeGreaterThan(0);
    }
  });
});

describe("recording", () => {
  it("records the query, lower-case headers and a non-JSON body as text only", async () => {
    await fetch(`${upstream.url}/models?api-version=2024-08-01&tag=a&tag=b`, {
      headers: { "X-Custom-Header": "Value" },
    });
    await fetch(`${upstream.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "not json",
    });
    const [list, text] = upstream.requests;
    expect(list?.query).toEqual({ "api-version": "2024-08-01", tag: "b" });
    expect(list?.headers["x-custom-header"]).toBe("Value");
    expect(list?.raw.size).toBe(0);
    expect(text?.body).toBeUndefined();
    expect(text?.raw).toMatchObject({ contentType: "text/plain", size: 8, text: "not json" });
  });
});

describe("embeddings", () => {
  it("returns deterministic unit vectors as floats, 1536 wide or `dimensions` wide", async () => {
    const result = await client.embeddings.create({
      model: "embed-test",
      input: ["alpha", "beta", "alpha"],
      encoding_format: "float",
    });
    expect(result.object).toBe("list");
    expect(result.model).toBe("embed-test");
    expect(result.data.map((item) => item.index)).toEqual([0, 1, 2]);
    const [alpha, beta, again] = result.data.map((item) => item.embedding);
    expect(alpha).toHaveLength(1536);
    expect(alpha).toEqual(deterministicEmbedding("alpha"));
    expect(again).toEqual(alpha);
    expect(beta).not.toEqual(alpha);
    expect(Math.hypot(...(alpha ?? []))).toBeCloseTo(1, 5);
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);

    const short = await client.embeddings.create({
      model: "embed-test",
      input: "alpha",
      dimensions: 64,
      encoding_format: "float",
    });
    expect(short.data[0]?.embedding).toEqual(deterministicEmbedding("alpha", 64));
  });

  it("sends little-endian float32 base64 that the SDK decodes to the same vector", async () => {
    // Without encoding_format the SDK asks for base64 itself and decodes the answer.
    const decoded = await client.embeddings.create({ model: "embed-test", input: "gamma" });
    expect(upstream.requests[0]?.body).toMatchObject({ encoding_format: "base64" });
    expect(decoded.data[0]?.embedding).toEqual(deterministicEmbedding("gamma"));

    const raw = await client.embeddings.create({
      model: "embed-test",
      input: "gamma",
      encoding_format: "base64",
    });
    const text = raw.data[0]?.embedding as unknown as string;
    expect(typeof text).toBe("string");
    const bytes = Buffer.from(text, "base64");
    expect(bytes.length).toBe(1536 * 4);
    expect(bytes.readFloatLE(4)).toBe(deterministicEmbedding("gamma")[1]);
  });

  it("rejects an empty input the way the vendor does", async () => {
    await expect(client.embeddings.create({ model: "embed-test", input: "" })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    expect(upstream.queued).toBe(0);
  });

  it("refuses a width above maxEmbeddingDimensions with the vendor's 400", async () => {
    const narrow = await startOpenAIUpstream({ maxEmbeddingDimensions: 3072 });
    try {
      const sdk = new OpenAI({ apiKey: "k", baseURL: narrow.url, maxRetries: 0 });
      const refused = await sdk.embeddings
        .create({ model: "embed-test", input: "x", dimensions: 3073 })
        .catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(refused).toMatchObject({ param: "dimensions", code: "integer_above_max_value" });
      const served = await sdk.embeddings.create({ model: "embed-test", input: "x", dimensions: 3072 });
      expect(served.data[0]?.embedding).toHaveLength(3072);
    } finally {
      await narrow.close();
    }
  });
});

describe("models", () => {
  it("lists the configured models, and a changed list", async () => {
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(["gpt-test", "embed-test"]);
    upstream.models = ["other"];
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(["other"]);
    expect(page.data[0]).toMatchObject({ object: "model", owned_by: "testkit" });
  });
});

describe("responses", () => {
  it("answers a response object with message and function_call items", async () => {
    upstream.enqueue({
      text: "Let me look.",
      toolCalls: [weather],
      usage: { inputTokens: 7, outputTokens: 4 },
    });
    const response = await client.responses.create({
      model: "gpt-test",
      input: [{ role: "user", content: [{ type: "input_text", text: "weather?" }] }],
      instructions: "be kind",
    });
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      model: "gpt-test",
      instructions: "be kind",
    });
    expect(response.output_text).toBe("Let me look.");
    const [message, call] = response.output;
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Let me look." }],
    });
    expect(call).toMatchObject({ type: "function_call", name: "get_weather", status: "completed" });
    if (call?.type !== "function_call") throw new Error("expected a function call");
    expect(call.call_id).toMatch(/^call_/);
    expect(JSON.parse(call.arguments)).toEqual(weather.arguments);
    expect(response.usage).toMatchObject({ input_tokens: 7, output_tokens: 4, total_tokens: 11 });
  });

  it("echoes a string input and records function_call_output items sent back", async () => {
    const response = await client.responses.create({
      model: "m",
      previous_response_id: "resp_1",
      input: [{ type: "function_call_output", call_id: "call_1", output: "18 degrees" }],
    });
    expect(response.previous_response_id).toBe("resp_1");
    expect(upstream.requests[0]?.body).toMatchObject({
      input: [{ type: "function_call_output", call_id: "call_1" }],
    });
    const plain = await client.responses.create({ model: "m", input: "ping" });
    expect(plain.output_text).toBe("Echo: ping");
  });

  it("marks a length finish as incomplete", async () => {
    upstream.enqueue({ text: "trunc", finishReason: "length" });
    const response = await client.responses.create({ model: "m", input: "x" });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  it("streams typed events that the SDK's stream helper assembles", async () => {
    upstream.enqueue({ text: "It is sunny.", toolCalls: [weather] });
    const stream = client.responses.stream({ model: "m", input: "weather?" });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(final.status).toBe("completed");
    expect(final.output_text).toBe("It is sunny.");
    expect(deltas.join("")).toBe("It is sunny.");
    const call = final.output.find((item) => item.type === "function_call");
    if (call?.type !== "function_call") throw new Error("expected a function call");
    expect(JSON.parse(call.arguments)).toEqual(weather.arguments);
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("sends every event as `event: <type>` with matching data.type, in protocol order", async () => {
    upstream.enqueue({ text: "a b", toolCalls: [weather] });
    const response = await fetch(`${upstream.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", input: "x", stream: true }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const frames = (await response.text()).split("\n\n").filter((frame) => frame.length > 0);
    const parsed = frames.map((frame) => {
      const [eventLine, dataLine] = frame.split("\n");
      return {
        event: eventLine?.replace(/^event: /, ""),
        data: JSON.parse(dataLine?.replace(/^data: /, "") ?? ""),
      };
    });
    for (const [index, frame] of parsed.entries()) {
      expect(frame.data.type).toBe(frame.event);
      expect(frame.data.sequence_number).toBe(index);
    }
    expect(parsed.map((frame) => frame.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      ...Array(Math.ceil(JSON.stringify(weather.arguments).length / 8)).fill(
        "response.function_call_arguments.delta",
      ),
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
  });
});

describe("audio transcriptions", () => {
  it("answers multipart uploads with {text} and records the form", async () => {
    const audio = Buffer.alloc(321, 7);
    const result = await client.audio.transcriptions.create({
      file: await toFile(audio, "clip.wav", { type: "audio/wav" }),
      model: "whisper-1",
      language: "en",
    });
    expect(result.text).toBe("Transcript of clip.wav (321 bytes)");
    const form = upstream.requests[0]?.raw.form;
    expect(form?.fields).toMatchObject({ model: "whisper-1", language: "en" });
    expect(form?.files).toEqual([
      { field: "file", filename: "clip.wav", contentType: "audio/wav", size: 321 },
    ]);
    expect(upstream.requests[0]?.body).toBeUndefined();

    upstream.enqueue({ text: "scripted words" });
    const scripted = await client.audio.transcriptions.create({
      file: await toFile(audio, "clip.wav"),
      model: "whisper-1",
      response_format: "text",
    });
    expect(scripted).toBe("scripted words");
  });
});

describe("scripted errors and failures", () => {
  it.each([
    [400, OpenAI.BadRequestError, "invalid_request_error", null],
    [401, OpenAI.AuthenticationError, "invalid_request_error", "invalid_api_key"],
    [429, OpenAI.RateLimitError, "requests", "rate_limit_exceeded"],
    [500, OpenAI.InternalServerError, "server_error", null],
  ] as const)("status %i surfaces as the SDK's error class", async (status, errorClass, type, code) => {
    upstream.enqueue({ kind: "error", status, message: `boom ${status}`, headers: { "retry-after": "3" } });
    const error = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.message).toContain(`boom ${status}`);
    expect(apiError.type).toBe(type);
    expect(apiError.code).toBe(code);
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.headers?.get("retry-after")).toBe("3");
  });

  it("serves raw JSON and raw SSE replies as scripted, including an error mid-stream", async () => {
    upstream.enqueue(
      { kind: "json", status: 200, body: { object: "list", data: [] } },
      {
        kind: "sse",
        events: [
          {
            data: {
              id: "x",
              object: "chat.completion.chunk",
              created: 1,
              model: "m",
              choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }],
            },
          },
          { data: { error: { message: "overloaded mid-stream", type: "server_error" } } },
        ],
      },
    );
    expect((await client.models.list()).data).toEqual([]);
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
      })(),
    ).rejects.toThrow(/overloaded mid-stream/);
    expect(seen).toEqual(["par"]);
  });

  it("refuses a wrong key with the vendor's 401 when an apiKey is configured, without consuming the script", async () => {
    const guarded = await startOpenAIUpstream({ apiKey: "sk-right", script: [{ text: "secret" }] });
    try {
      const wrong = new OpenAI({ apiKey: "sk-wrong", baseURL: guarded.url, maxRetries: 0 });
      const error = await wrong.chat.completions
        .create({ model: "m", messages: [{ role: "user", content: "x" }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(guarded.queued).toBe(1);
      const right = new OpenAI({ apiKey: "sk-right", baseURL: guarded.url, maxRetries: 0 });
      const ok = await right.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "x" }],
      });
      expect(ok.choices[0]?.message.content).toBe("secret");
    } finally {
      await guarded.close();
    }
  });

  it("quotes the wrong key in its 401, whole or masked, when asked to", async () => {
    const key = "sk-live-0123456789abcdefARY";
    for (const [echoKey, shown] of [
      ["whole", key],
      ["masked", "sk-li****ARY"],
    ] as const) {
      const guarded = await startOpenAIUpstream({ apiKey: "sk-right", echoKey });
      try {
        const wrong = new OpenAI({ apiKey: key, baseURL: guarded.url, maxRetries: 0 });
        const error = await wrong.models.list().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
        expect((error as Error).message).toContain(`Incorrect API key provided: ${shown}.`);
      } finally {
        await guarded.close();
      }
    }
  });

  it("answers an unknown path with 404 and a malformed body with 400", async () => {
    await expect(client.get("/nope")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const response = await fetch(`${upstream.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: "invalid_request_error", param: "messages" },
    });
    expect(upstream.requests.map((request) => request.path)).toEqual(["/v1/nope", "/v1/chat/completions"]);
  });

  it("records a client that aborts during a delayed reply as aborted", async () => {
    upstream.enqueue({ text: "too late", delayMs: 10_000 });
    const controller = new AbortController();
    const pending = client.chat.completions.create(
      { model: "m", messages: [{ role: "user", content: "x" }] },
      { signal: controller.signal },
    );
    await upstream.waitFor((requests) => requests.length === 1);
    expect(upstream.requests[0]?.outcome).toBe("pending");
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });

  it("records a client that stops reading a slow stream as aborted", async () => {
    upstream.enqueue({ text: "a b c d e f g h", chunkDelayMs: 200 });
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break; // leaving the loop aborts the request
    }
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });

  it("trips the client's timeout with a delay", async () => {
    upstream.enqueue({ delayMs: 2_000 });
    const impatient = new OpenAI({ apiKey: "k", baseURL: upstream.url, maxRetries: 0, timeout: 200 });
    await expect(
      impatient.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await upstream.waitFor((requests) => requests[0]?.outcome === "aborted");
  });

  it("hangs up mid-stream after the first bytes, or before any byte", async () => {
    upstream.enqueue(
      { text: "one two three four", hangUpAfterEvents: 2 },
      { kind: "hang-up" },
      { text: "whole", hangUpAfterEvents: 0 },
    );
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
      })(),
    ).rejects.toThrow();
    expect(seen).toEqual(["", "one"]);
    expect(upstream.requests[0]?.outcome).toBe("hung-up");

    await expect(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    expect(upstream.requests[1]?.outcome).toBe("hung-up");

    // A JSON answer cut half-way: status 200 and headers arrive, the body never completes.
    await expect(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toThrow();
    expect(upstream.requests[2]?.outcome).toBe("hung-up");
  });
});

describe("scripting", () => {
  it("takes queued replies first, then the handler, then the default; reset restores the start state", async () => {
    upstream.handler = (request) =>
      request.path.endsWith("/chat/completions")
        ? { text: `handled ${upstream.requests.length}` }
        : undefined;
    upstream.enqueue({ text: "queued" });
    const ask = async () =>
      (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "q" }] }))
        .choices[0]?.message.content;
    expect(await ask()).toBe("queued");
    expect(await ask()).toBe("handled 2");
    upstream.handler = async () => undefined;
    expect(await ask()).toBe("Echo: q");
    upstream.enqueue({ text: "left over" });
    upstream.reset();
    expect(upstream.requests).toHaveLength(0);
    expect(upstream.queued).toBe(0);
    expect(upstream.handler).toBeUndefined();
  });

  it("answers a throwing handler with a 500 that names the script error", async () => {
    upstream.handler = () => {
      throw new Error("no reply for this");
    };
    const error = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toContain("testkit script error: no reply for this");
  });

  it("serves routes under a configured base path", async () => {
    const custom = await startOpenAIUpstream({ basePath: "/openai/v1" });
    try {
      expect(custom.url).toMatch(/\/openai\/v1$/);
      const sdk = new OpenAI({ apiKey: "k", baseURL: custom.url, maxRetries: 0 });
      const completion = await sdk.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(completion.choices[0]?.message.content).toBe("Echo: hi");
      const wrong = new OpenAI({ apiKey: "k", baseURL: `${custom.origin}/v1`, maxRetries: 0 });
      await expect(wrong.models.list()).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    } finally {
      await custom.close();
    }
  });

  it("closes while a stream is still being written, failing the client instead of hanging", async () => {
    const closing = await startOpenAIUpstream({ script: [{ text: "a b c d e f", chunkDelayMs: 5_000 }] });
    const sdk = new OpenAI({ apiKey: "k", baseURL: closing.url, maxRetries: 0 });
    const stream = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    const reading = (async () => {
      for await (const _chunk of stream) {
        // drain
      }
    })();
    await closing.waitFor((requests) => requests.length === 1);
    const started = Date.now();
    await closing.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(reading).rejects.toThrow();
  });
});
