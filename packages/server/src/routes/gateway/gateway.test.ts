/**
 * The gateway over HTTP: requests go through `app.request()` into the real
 * `openai` / `@anthropic-ai/sdk` adapters and out to scripted upstreams on
 * 127.0.0.1, which record what they received.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startAnthropicUpstream, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { SERVER_SETTING_NAMES } from "../../config.js";
import { listen } from "../../http-server.js";

let builtin: Upstream;
let byok: Upstream;
let anthropic: Upstream;
let tenant: TestTenant;
let app: App;

beforeAll(async () => {
  builtin = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  byok = await startOpenAIUpstream({ models: ["gpt-x", "gpt-y"] });
  anthropic = await startAnthropicUpstream({ models: ["claude-x"] });
});
afterAll(async () => {
  await Promise.all([builtin.close(), byok.close(), anthropic.close()]);
});

function makeApp(options: { builtin?: boolean; byokConcurrency?: number } = {}): App {
  const gateway = createStoreGateway(tenant.store, {
    builtin: options.builtin === false ? null : { baseUrl: builtin.url, apiKey: "builtin-secret" },
    fetch: createFastFetch(),
    byokConcurrency: options.byokConcurrency ?? 4,
    builtinSetting: SERVER_SETTING_NAMES.builtin,
  });
  return createApp({ store: tenant.store, gateway, builtinConfigured: options.builtin !== false });
}

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  builtin.reset();
  byok.reset();
  anthropic.reset();
  app = makeApp();
});
afterEach(async () => await tenant.store.close());

const post = (path: string, body: unknown, key = tenant.keys.member, headers: Record<string, string> = {}) =>
  app.request(path, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { ...bearer(key), "content-type": "application/json", ...headers },
  });

async function addProvider(provider: string, config: Record<string, unknown>, apiKey?: string) {
  const response = await post(
    "/v1/providers",
    { name: `${provider} account`, provider, config, ...(apiKey === undefined ? {} : { apiKey }) },
    tenant.keys.admin,
  );
  expect(response.status).toBe(201);
  return bodyOf(response);
}

const hello = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: "user", content: "hello" }],
  ...extra,
});

describe("POST /v1/chat/completions on built-in models", () => {
  it("answers the chat-completions shape with the model as sent", async () => {
    builtin.enqueue({ text: "Hi there", usage: { inputTokens: 5, outputTokens: 2, cachedInputTokens: 3 } });
    const response = await post("/v1/chat/completions", hello("gw-chat-1"));
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "gw-chat-1",
      choices: [{ index: 0, message: { role: "assistant", content: "Hi there" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
    // Rule 2: without the organization-scoped cache key, cached tokens are not reported on built-in models.
    expect((body.usage as Record<string, unknown>).prompt_tokens_details).toBeUndefined();
    expect(builtin.requests[0]?.headers.authorization).toBe("Bearer builtin-secret");
    expect(builtin.requests[0]?.body).toMatchObject({
      model: "gw-chat-1",
      messages: [{ role: "user", content: "hello" }],
    });
  });

  it("replaces prompt_cache_key by an organization-scoped hash and then reports cached tokens", async () => {
    builtin.enqueue({ text: "ok", usage: { inputTokens: 50, outputTokens: 1, cachedInputTokens: 40 } });
    const response = await post("/v1/chat/completions", hello("gw-chat-1", { prompt_cache_key: "my-key" }));
    const body = await bodyOf(response);
    expect(body.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 40 } });
    const sent = (builtin.requests[0]?.body as Record<string, unknown> | undefined)?.prompt_cache_key;
    expect(sent).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(builtin.requests[0]?.body)).not.toContain("my-key");

    const other = await createTestTenant("enterprise");
    try {
      const otherApp = createApp({
        store: other.store,
        gateway: createStoreGateway(other.store, { builtin: { baseUrl: builtin.url, apiKey: "k" } }),
      });
      await otherApp.request("/v1/chat/completions", {
        method: "POST",
        body: JSON.stringify(hello("gw-chat-1", { prompt_cache_key: "my-key" })),
        headers: { ...bearer(other.keys.member), "content-type": "application/json" },
      });
      expect((builtin.requests[1]?.body as Record<string, unknown> | undefined)?.prompt_cache_key).not.toBe(
        sent,
      );
    } finally {
      await other.store.close();
    }
  });

  it("does not forward parallel_tool_calls or unknown fields", async () => {
    await post(
      "/v1/chat/completions",
      hello("gw-chat-1", { parallel_tool_calls: false, vendor_extension: 1 }),
    );
    const sent = builtin.requests[0]?.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty("parallel_tool_calls");
    expect(sent).not.toHaveProperty("vendor_extension");
  });

  it("answers 503 naming the missing configuration when no built-in service is configured", async () => {
    app = makeApp({ builtin: false });
    const response = await post("/v1/chat/completions", hello("gw-chat-1"));
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).error.message).toMatch(/GROUNDWORK_BUILTIN_BASE_URL/);
  });

  it("records usage per call, with the VISION surface for image calls", async () => {
    builtin.enqueue({ text: "a", usage: { inputTokens: 3, outputTokens: 1 } }, { text: "b" });
    await post("/v1/chat/completions", hello("gw-chat-1", { user: "end-user-7" }));
    await post("/v1/chat/completions", {
      model: "gw-chat-1",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }] },
      ],
    });
    const records = (await tenant.store.usage.list(tenant.organizationId)).reverse();
    expect(records.map((r) => r.surface)).toEqual(["CHAT", "VISION"]);
    expect(records[0]).toMatchObject({
      model: "gw-chat-1",
      byok: false,
      promptTokens: 3,
      completionTokens: 1,
      endUser: "end-user-7",
      outcome: "ok",
    });
  });
});

describe("streaming", () => {
  async function readSse(response: Response): Promise<string[]> {
    const text = await response.text();
    return text
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => block.slice(6));
  }

  it("streams chunks and ends with data: [DONE], without usage by default", async () => {
    builtin.enqueue({ text: "Hello streaming world", usage: { inputTokens: 4, outputTokens: 3 } });
    const response = await post("/v1/chat/completions", hello("gw-chat-1", { stream: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(response);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e) as {
          choices: Array<{ delta: { content?: string } }>;
          usage?: unknown;
          model: string;
        },
    );
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello streaming world");
    expect(chunks.every((c) => c.usage === undefined && c.model === "gw-chat-1")).toBe(true);
    // Usage is still metered: the gateway always asks the upstream for it.
    expect((await tenant.store.usage.list(tenant.organizationId))[0]).toMatchObject({
      promptTokens: 4,
      completionTokens: 3,
    });
  });

  it("adds a final usage chunk with empty choices when include_usage is set", async () => {
    builtin.enqueue({ text: "Hi", usage: { inputTokens: 4, outputTokens: 1 } });
    const events = await readSse(
      await post(
        "/v1/chat/completions",
        hello("gw-chat-1", { stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(events.at(-1)).toBe("[DONE]");
    const last = JSON.parse(events.at(-2) ?? "{}") as { choices: unknown[]; usage: unknown };
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 });
  });

  it("answers an upstream refusal before the first byte with a status", async () => {
    builtin.enqueue({ kind: "error", status: 400, message: "context too long" });
    const response = await post("/v1/chat/completions", hello("gw-chat-1", { stream: true }));
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error).toMatchObject({ type: "upstream_error" });
  });

  it("ends the stream with an error event when the upstream fails mid-stream", async () => {
    builtin.enqueue({ text: "one two three four five six", hangUpAfterEvents: 2 });
    const events = await readSse(await post("/v1/chat/completions", hello("gw-chat-1", { stream: true })));
    expect(events.at(-1)).not.toBe("[DONE]");
    expect(JSON.parse(events.at(-1) ?? "{}")).toMatchObject({ error: { type: "upstream_error" } });
  });

  it("aborts the upstream call when the client disconnects", async () => {
    builtin.enqueue({ text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 100 });
    const controller = new AbortController();
    const response = await app.request("/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify(hello("gw-chat-1", { stream: true })),
      headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await reader?.cancel();
    await builtin.waitFor((requests) => requests[0]?.outcome === "aborted", 5_000);
    expect(builtin.requests[0]?.outcome).toBe("aborted");
  });
});

describe("over a real socket (the Node request path)", () => {
  const withServer = async (run: (url: string) => Promise<void>) => {
    const server = await listen(app, { host: "127.0.0.1", port: 0 });
    try {
      await run(server.url);
    } finally {
      await server.close(1_000);
    }
  };
  const headers = () => ({ ...bearer(tenant.keys.member), "content-type": "application/json" });

  it("reads the body from the socket: JSON with a BOM, split across packets, and a clear 400 for bad JSON", async () => {
    await withServer(async (url) => {
      builtin.enqueue({ text: "over the wire" });
      const body = new TextEncoder().encode(`\uFEFF${JSON.stringify(hello("gw-chat-1"))}`);
      const ok = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: headers(), body });
      expect(ok.status).toBe(200);
      expect(
        ((await ok.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
          .content,
      ).toBe("over the wire");
      const bad = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: headers(),
        body: "{not json",
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/not valid JSON/);
    });
  });

  it("enforces the body limit on chunked bodies too", async () => {
    app = createApp({ store: tenant.store, maxBodyBytes: 64 });
    await withServer(async (url) => {
      const big = JSON.stringify(hello("gw-chat-1", { user: "x".repeat(200) }));
      const declared = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: headers(),
        body: big,
      });
      expect(declared.status).toBe(413);
      const chunked = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: headers(),
        body: new Blob([big]).stream(),
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);
    });
  });

  it("streams events straight to the socket, with the request id, [DONE], and an error event after a cut", async () => {
    await withServer(async (url) => {
      builtin.enqueue({ text: "one two three" });
      const ok = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { ...headers(), "x-request-id": "trace-42" },
        body: JSON.stringify(hello("gw-chat-1", { stream: true, stream_options: { include_usage: true } })),
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(ok.headers.get("x-request-id")).toBe("trace-42");
      const events = (await ok.text()).split("\n\n").filter((event) => event !== "");
      expect(events.at(-1)).toBe("data: [DONE]");
      const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice("data: ".length)));
      expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("one two three");
      expect(chunks.at(-1)?.usage).toBeDefined();

      builtin.enqueue({ text: "a b c d e f", hangUpAfterEvents: 2 });
      const cut = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify(hello("gw-chat-1", { stream: true })),
      });
      const text = await cut.text();
      expect(text).not.toContain("[DONE]");
      expect(text.trim().split("\n\n").at(-1)).toMatch(/^data: \{"error":/);
    });
  });

  it("aborts the upstream call when the client goes away, streaming or not", async () => {
    await withServer(async (url) => {
      builtin.enqueue({ text: "slow", delayMs: 2_000 });
      const waiting = new AbortController();
      const pending = fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify(hello("gw-chat-1")),
        signal: waiting.signal,
      }).catch(() => undefined);
      await builtin.waitFor((requests) => requests.length === 1, 5_000);
      waiting.abort();
      await pending;
      await builtin.waitFor((requests) => requests[0]?.outcome === "aborted", 5_000);

      builtin.enqueue({ text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 100 });
      const streaming = new AbortController();
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify(hello("gw-chat-1", { stream: true })),
        signal: streaming.signal,
      });
      const reader = response.body?.getReader();
      await reader?.read();
      streaming.abort();
      await builtin.waitFor((requests) => requests[1]?.outcome === "aborted", 5_000);
      expect(builtin.requests.map((request) => request.outcome)).toEqual(["aborted", "aborted"]);
    });
  });
});

describe("BYOK routing", () => {
  it("reuses a provider's client across calls and picks up a changed key or base URL at once", async () => {
    const id = String((await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk-first")).id);
    byok.enqueue({ text: "one" });
    byok.enqueue({ text: "two" });
    expect((await post("/v1/chat/completions", hello("hosted-a/gpt-x"))).status).toBe(200);
    expect((await post("/v1/chat/completions", hello("hosted-a/gpt-x"))).status).toBe(200);
    const patched = await app.request(`/v1/providers/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ apiKey: "sk-second" }),
      headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
    });
    expect(patched.status).toBe(200);
    byok.enqueue({ text: "three" });
    expect((await post("/v1/chat/completions", hello("hosted-a/gpt-x"))).status).toBe(200);
    expect(byok.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-first",
      "Bearer sk-first",
      "Bearer sk-second",
    ]);
  });

  it("routes <prefix>/<model> to the organization's provider with the model id unchanged", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url, organizationId: "org-42" }, "sk-customer");
    byok.enqueue({ text: "from byok", usage: { inputTokens: 2, outputTokens: 2, cachedInputTokens: 1 } });
    const response = await post("/v1/chat/completions", hello("hosted-a/ft:gpt-x/v2"));
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.model).toBe("hosted-a/ft:gpt-x/v2");
    // BYOK calls report cached tokens whenever the provider does.
    expect(body.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 1 } });
    const sent = byok.requests[0];
    expect(sent?.body).toMatchObject({ model: "ft:gpt-x/v2" });
    expect(sent?.headers.authorization).toBe("Bearer sk-customer");
    expect(sent?.headers["openai-organization"]).toBe("org-42");
    expect((await tenant.store.usage.list(tenant.organizationId))[0]).toMatchObject({
      byok: true,
      costEur: 0,
    });
  });

  it("translates to hosted-b (anthropic) with its version header", async () => {
    await addProvider("HOSTED_B", { baseUrl: anthropic.url, version: "2023-06-01" }, "sk-ant");
    anthropic.enqueue({ text: "from b" });
    const response = await post("/v1/chat/completions", hello("hosted-b/claude-x"));
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).choices).toMatchObject([{ message: { content: "from b" } }]);
    expect(anthropic.requests[0]?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(anthropic.requests[0]?.headers["x-api-key"]).toBe("sk-ant");
  });

  it("does not forward a named tool_choice to hosted-d (rule 6)", async () => {
    await addProvider("HOSTED_D", { baseUrl: byok.url }, "sk-d");
    const tools = [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }];
    await post(
      "/v1/chat/completions",
      hello("hosted-d/m", { tools, tool_choice: { type: "function", function: { name: "lookup" } } }),
    );
    await post("/v1/chat/completions", hello("hosted-d/m", { tools, tool_choice: "required" }));
    expect(byok.requests[0]?.body).not.toHaveProperty("tool_choice");
    expect(byok.requests[1]?.body).toMatchObject({ tool_choice: "required" });
  });

  it.each([
    ["an unknown prefix lists the valid ones", "nope/x", 400, /hosted-a, cloud-a, hosted-b/],
    ["cloud-b always fails", "cloud-b/x", 400, /cloud-b/],
    ["no provider configured for the prefix", "hosted-c/x", 404, /HOSTED_C/],
  ])("%s", async (_, model, status, message) => {
    const response = await post("/v1/chat/completions", hello(model));
    expect(response.status).toBe(status);
    expect((await bodyOf(response)).error.message).toMatch(message);
  });

  it("answers 402 to BYOK on a free plan", async () => {
    const response = await post(
      "/v1/chat/completions",
      hello("hosted-a/gpt-x"),
      await tenant.keyFor("member", "free"),
    );
    expect(response.status).toBe(402);
    expect((await bodyOf(response)).error.type).toBe("billing_error");
  });

  it("enforces the image rules (3–5)", async () => {
    await addProvider("SELF_HOSTED", { baseUrl: byok.url });
    const withImage = (model: string, url: string) => ({
      model,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what" },
            { type: "image_url", image_url: { url } },
          ],
        },
      ],
    });
    const data = "data:image/png;base64,iVBORw0KGgo=";
    expect(
      (await post("/v1/chat/completions", withImage("gw-chat-1", "http://example.com/a.png"))).status,
    ).toBe(400);
    expect(
      (await post("/v1/chat/completions", withImage("self-hosted/llava", "https://example.com/a.png")))
        .status,
    ).toBe(400);
    expect((await post("/v1/chat/completions", withImage("self-hosted/llava", data))).status).toBe(200);
    expect(
      (await post("/v1/chat/completions", withImage("gw-chat-1", "https://example.com/a.png"))).status,
    ).toBe(200);
    // Self-hosted needs no key: none is sent as a real credential.
    expect(byok.requests[0]?.headers.authorization).toBe("Bearer no-key");
  });

  it("maps upstream refusal to 400 and failure to 502", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    byok.enqueue(
      { kind: "error", status: 400, message: "bad request upstream" },
      { kind: "error", status: 500 },
    );
    const refused = await post("/v1/chat/completions", hello("hosted-a/gpt-x"));
    expect(refused.status).toBe(400);
    expect((await bodyOf(refused)).error).toMatchObject({ type: "upstream_error", code: "upstream_error" });
    const failed = await post("/v1/chat/completions", hello("hosted-a/gpt-x"));
    expect(failed.status).toBe(502);
  });

  it("retries only where safe: a 503 is retried, a 500 is not, a stream is retried only before its first byte", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    byok.enqueue({ kind: "error", status: 503 }, { text: "second try" });
    const retried = await post("/v1/chat/completions", hello("hosted-a/gpt-x"));
    expect(retried.status).toBe(200);
    expect(byok.requests).toHaveLength(2);

    byok.reset();
    byok.enqueue({ kind: "error", status: 503 }, { text: "streamed after retry" });
    const stream = await post("/v1/chat/completions", hello("hosted-a/gpt-x", { stream: true }));
    expect(await stream.text()).toContain("streamed");
    expect(byok.requests).toHaveLength(2);

    byok.reset();
    byok.enqueue({ text: "one two three four", hangUpAfterEvents: 2 });
    await (await post("/v1/chat/completions", hello("hosted-a/gpt-x", { stream: true }))).text();
    expect(byok.requests).toHaveLength(1);
  });

  it("limits concurrent BYOK calls per organization with 429 and Retry-After", async () => {
    app = makeApp({ byokConcurrency: 1 });
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    byok.enqueue({ text: "slow", delayMs: 400 });
    const first = post("/v1/chat/completions", hello("hosted-a/gpt-x"));
    await byok.waitFor((requests) => requests.length === 1);
    const second = await post("/v1/chat/completions", hello("hosted-a/gpt-x"));
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await bodyOf(second)).error.type).toBe("rate_limit_error");
    expect((await first).status).toBe(200);
    // The slot is free again once the first call finished; built-in calls never count.
    expect((await post("/v1/chat/completions", hello("hosted-a/gpt-x"))).status).toBe(200);
  });
});

describe("chat request validation", () => {
  it.each([
    [{ messages: [] }, "model"],
    [{ model: "m" }, "messages"],
    [hello("m", { temperature: 2.5 }), "temperature"],
    [hello("m", { top_p: -0.1 }), "top_p"],
    [hello("m", { frequency_penalty: 3 }), "frequency_penalty"],
    [hello("m", { presence_penalty: -2.1 }), "presence_penalty"],
    [hello("m", { max_tokens: 0 }), "max_tokens"],
    [hello("m", { stream: "yes" }), "stream"],
    [hello("m", { prompt_cache_key: "k".repeat(257) }), "prompt_cache_key"],
    [hello("m", { tool_choice: "sometimes" }), "tool_choice"],
    [{ model: "m", messages: [{ role: "wizard", content: "x" }] }, "messages[0].role"],
  ])("answers 400 for %j naming %s", async (body, param) => {
    const response = await post("/v1/chat/completions", body);
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error).toMatchObject({ type: "invalid_request_error", param });
    expect(builtin.requests).toHaveLength(0);
  });

  it("accepts a prompt_cache_key of exactly 256 characters", async () => {
    expect(
      (await post("/v1/chat/completions", hello("gw-chat-1", { prompt_cache_key: "k".repeat(256) }))).status,
    ).toBe(200);
  });

  it("never answers 5xx to malformed bodies (fuzzed)", async () => {
    const field = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const bodies = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          model: field,
          messages: field,
          temperature: field,
          stream: field,
          tools: field,
          stop: field,
        })
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await post("/v1/chat/completions", body);
        expect(response.status).toBeLessThan(500);
        if (response.status !== 200) expect((await bodyOf(response)).error).toBeDefined();
        else await response.text();
      }),
      { numRuns: 150 },
    );
  });

  it("refuses a Viewer (403)", async () => {
    expect((await post("/v1/chat/completions", hello("gw-chat-1"), tenant.keys.viewer)).status).toBe(403);
  });
});

describe("POST /v1/embeddings", () => {
  it("runs hash-embedding-1536 in-process, deterministic and in input order", async () => {
    const response = await post("/v1/embeddings", {
      model: "hash-embedding-1536",
      input: ["invoice total", "cat"],
    });
    expect(response.status).toBe(200);
    const body = (await bodyOf(response)) as unknown as {
      data: Array<{ index: number; embedding: number[] }>;
      model: string;
      usage: { prompt_tokens: number };
    };
    expect(body.model).toBe("hash-embedding-1536");
    expect(body.data.map((d) => d.index)).toEqual([0, 1]);
    expect(body.data[0]?.embedding).toHaveLength(1536);
    const again = (await bodyOf(
      await post("/v1/embeddings", { model: "hash-embedding-1536", input: "invoice total" }),
    )) as unknown as typeof body;
    expect(again.data[0]?.embedding).toEqual(body.data[0]?.embedding);
    expect(builtin.requests).toHaveLength(0);
  });

  it("encodes base64 as little-endian float32", async () => {
    const floats = (await bodyOf(
      await post("/v1/embeddings", { model: "hash-embedding-1536", input: "abc def" }),
    )) as unknown as {
      data: Array<{ embedding: number[] }>;
    };
    const encoded = (await bodyOf(
      await post("/v1/embeddings", {
        model: "hash-embedding-1536",
        input: "abc def",
        encoding_format: "base64",
      }),
    )) as unknown as { data: Array<{ embedding: string }> };
    const bytes = Buffer.from(encoded.data[0]?.embedding ?? "", "base64");
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(floats.data[0]?.embedding.map((v) => Math.fround(v)));
  });

  it("charges built-in text-embedding-3-small at 0.0825 EUR per million tokens and records the user", async () => {
    const response = await post("/v1/embeddings", {
      model: "text-embedding-3-small",
      input: ["a b c"],
      dimensions: 256,
      user: "u-1",
    });
    expect(response.status).toBe(200);
    expect(builtin.requests[0]?.body).toMatchObject({
      model: "text-embedding-3-small",
      dimensions: 256,
      encoding_format: "float",
    });
    const [record] = await tenant.store.usage.list(tenant.organizationId);
    expect(record).toMatchObject({ surface: "EMBEDDINGS", byok: false, endUser: "u-1" });
    expect(record?.costEur).toBeCloseTo(((record?.promptTokens ?? 0) * 0.0825) / 1e6, 12);
  });

  it("routes hosted-a embeddings to the provider without charging", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    const response = await post("/v1/embeddings", { model: "hosted-a/text-embedding-3-large", input: "x" });
    expect(response.status).toBe(200);
    expect(byok.requests[0]?.body).toMatchObject({ model: "text-embedding-3-large" });
    expect((await tenant.store.usage.list(tenant.organizationId))[0]).toMatchObject({
      byok: true,
      costEur: 0,
    });
  });

  it.each([
    ["not JSON", "{", 400, "invalid_request_error", undefined],
    [
      "input of another type",
      { model: "hash-embedding-1536", input: 5 },
      400,
      "invalid_request_error",
      undefined,
    ],
    [
      "a token-id array",
      { model: "hash-embedding-1536", input: [1, 2, 3] },
      400,
      "invalid_request_error",
      undefined,
    ],
    [
      "nested token-id arrays",
      { model: "hash-embedding-1536", input: [[1, 2]] },
      400,
      "invalid_request_error",
      undefined,
    ],
    [
      "an unknown encoding_format",
      { model: "hash-embedding-1536", input: "x", encoding_format: "hex" },
      400,
      "invalid_request_error",
      undefined,
    ],
    [
      "more than 2,048 inputs",
      { model: "hash-embedding-1536", input: Array(2049).fill("x") },
      400,
      "invalid_request_error",
      "too_many_inputs",
    ],
    [
      "an empty input",
      { model: "hash-embedding-1536", input: "" },
      400,
      "invalid_request_error",
      "empty_input",
    ],
    [
      "an empty array",
      { model: "hash-embedding-1536", input: [] },
      400,
      "invalid_request_error",
      "empty_input",
    ],
    [
      "more than 1 MiB",
      { model: "hash-embedding-1536", input: ["x".repeat(600_000), "y".repeat(600_000)] },
      400,
      "invalid_request_error",
      "input_too_large",
    ],
    [
      "a bare name that is no built-in embedding model",
      { model: "gw-chat-1", input: "x" },
      400,
      "invalid_request_error",
      undefined,
    ],
    [
      "a malformed provider/model",
      { model: "hosted-a/", input: "x" },
      400,
      "invalid_request_error",
      undefined,
    ],
    [
      "a provider that serves no embeddings",
      { model: "hosted-b/x", input: "x" },
      400,
      "invalid_request_error",
      "model_not_supported",
    ],
    [
      "no provider for the prefix",
      { model: "cloud-a/dep", input: "x" },
      404,
      "invalid_request_error",
      undefined,
    ],
  ])("%s → %s", async (_, body, status, type, code) => {
    const response = await post("/v1/embeddings", body);
    expect(response.status).toBe(status);
    const error = (await bodyOf(response)).error;
    expect(error.type).toBe(type);
    if (code !== undefined) expect(error.code).toBe(code);
  });

  it("answers 403 to a Viewer, 402 to BYOK on a free plan, 406 to an Accept that excludes JSON", async () => {
    expect(
      (await post("/v1/embeddings", { model: "hash-embedding-1536", input: "x" }, tenant.keys.viewer)).status,
    ).toBe(403);
    const free = await post(
      "/v1/embeddings",
      { model: "hosted-a/e", input: "x" },
      await tenant.keyFor("member", "free"),
    );
    expect(free.status).toBe(402);
    expect((await bodyOf(free)).error.type).toBe("billing_error");
    const xml = await post(
      "/v1/embeddings",
      { model: "hash-embedding-1536", input: "x" },
      tenant.keys.member,
      { accept: "application/xml" },
    );
    expect(xml.status).toBe(406);
    expect((await bodyOf(xml)).error.code).toBe("not_acceptable");
  });

  it("maps provider refusal to 400 upstream_error and failure to 502", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    byok.enqueue({ kind: "error", status: 400, message: "bad dimensions" }, { kind: "error", status: 500 });
    const refused = await post("/v1/embeddings", { model: "hosted-a/e", input: "x", dimensions: 9999 });
    expect(refused.status).toBe(400);
    expect((await bodyOf(refused)).error.type).toBe("upstream_error");
    expect((await post("/v1/embeddings", { model: "hosted-a/e", input: "x" })).status).toBe(502);
  });

  it("answers 402 when a free organization's included usage is used up", async () => {
    const key = await tenant.keyFor("member", "free");
    const free = await tenant.store.organizations.findByName("org-free");
    await tenant.store.usage.record({
      organizationId: free?.id ?? "",
      apiKeyId: null,
      model: "text-embedding-3-large",
      surface: "EMBEDDINGS",
      byok: false,
      promptTokens: 10_000_000_000,
      completionTokens: 0,
      cachedTokens: null,
      costEur: 5_362.5,
      latencyMs: 1,
      outcome: "ok",
      endUser: null,
    });
    const response = await post("/v1/embeddings", { model: "text-embedding-3-small", input: "x" }, key);
    expect(response.status).toBe(402);
    expect((await bodyOf(response)).error.code).toBe("usage_exhausted");
  });
});

describe("GET /v1/models", () => {
  it("lists built-in models and the models of configured providers", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    const response = await app.request("/v1/models", { headers: bearer(tenant.keys.viewer) });
    expect(response.status).toBe(200);
    const ids = ((await bodyOf(response)) as unknown as { data: Array<{ id: string }> }).data.map(
      (m) => m.id,
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        "hash-embedding-1536",
        "text-embedding-3-small",
        "gw-chat-1",
        "hosted-a/gpt-x",
        "hosted-a/gpt-y",
      ]),
    );
  });
});

describe("POST /v1/audio/transcriptions", () => {
  const transcribe = (model: string | null, extra: Record<string, string> = {}, key = tenant.keys.member) => {
    const form = new FormData();
    form.set("file", new File([new Uint8Array(64)], "meeting.wav", { type: "audio/wav" }));
    if (model !== null) form.set("model", model);
    for (const [name, value] of Object.entries(extra)) form.set(name, value);
    return app.request("/v1/audio/transcriptions", { method: "POST", body: form, headers: bearer(key) });
  };

  it("forwards the multipart request to hosted-a with the model id after the prefix", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    const response = await transcribe("hosted-a/whisper-x", { language: "de" });
    expect(response.status).toBe(200);
    expect(typeof ((await response.json()) as { text: unknown }).text).toBe("string");
    const sent = byok.requests[0];
    expect(sent?.path).toBe("/v1/audio/transcriptions");
    expect(sent?.raw.form?.fields).toMatchObject({ model: "whisper-x", language: "de" });
    expect(sent?.raw.form?.files[0]).toMatchObject({ field: "file", filename: "meeting.wav", size: 64 });
    expect((await tenant.store.usage.list(tenant.organizationId))[0]).toMatchObject({
      surface: "AUDIO",
      byok: true,
    });
  });

  it("answers text formats as text", async () => {
    await addProvider("HOSTED_A", { baseUrl: byok.url }, "sk");
    const response = await transcribe("hosted-a/whisper-x", { response_format: "text" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("forwards to a cloud-a deployment", async () => {
    const azure = await startOpenAIUpstream({ basePath: "/openai/deployments/speech" });
    try {
      const created = await post(
        "/v1/providers",
        {
          name: "azure",
          provider: "CLOUD_A",
          apiKey: "az-key",
          config: { endpoint: "https://res.example.com" },
        },
        tenant.keys.admin,
      );
      const id = (await bodyOf(created)).id as string;
      // The endpoint must be https to be saved; point the stored record at the loopback upstream for the test.
      await tenant.store.providers.update(tenant.organizationId, id, { config: { endpoint: azure.origin } });
      const response = await transcribe("cloud-a/speech");
      expect(response.status).toBe(200);
      expect(azure.requests[0]?.path).toBe("/openai/deployments/speech/audio/transcriptions");
      expect(azure.requests[0]?.headers["api-key"]).toBe("az-key");
    } finally {
      await azure.close();
    }
  });

  it.each([
    ["a provider kind that does not transcribe", "hosted-b/x", 400],
    ["a missing model", null, 400],
  ])("answers %s with %i", async (_, model, status) => {
    expect((await transcribe(model)).status).toBe(status);
  });

  it("requires multipart, a file, and the Member role", async () => {
    expect((await post("/v1/audio/transcriptions", { model: "hosted-a/x" })).status).toBe(400);
    const noFile = new FormData();
    noFile.set("model", "hosted-a/x");
    const response = await app.request("/v1/audio/transcriptions", {
      method: "POST",
      body: noFile,
      headers: bearer(tenant.keys.member),
    });
    expect((await bodyOf(response)).error.param).toBe("file");
    expect((await transcribe("hosted-a/x", {}, tenant.keys.viewer)).status).toBe(403);
  });
});
