/**
 * Issue #17: a provider that refuses a key often quotes it (`Incorrect API key provided:
 * sk-live-…`, or masked `sk-li****ARY`). No stored secret of the organization — its provider
 * keys, and the built-in upstream's key — may come back in a response, a log line or a usage
 * record, whole or as a fragment. Requests go through `app.request()` into the real `openai` /
 * `@anthropic-ai/sdk` adapters and out to scripted upstreams that echo the key they received.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startAnthropicUpstream, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { createLogger } from "../../logger.js";

const PROVIDER_KEY = "sk-live-9fQ2xL7mN4pR8tV1bY6wK3sJ0hARY";
const BUILTIN_KEY = "gw-builtin-7Hq2Lm9Xc4Rt8Vb1Nz6Kp3WsQ";
/** How the testkit's upstreams mask a key they quote: first five and last three characters. */
const masked = (key: string) => `${key.slice(0, 5)}****${key.slice(-3)}`;

/** Fails when `text` holds any run of 8+ characters of `secret`, or the provider's masked echo of it. */
function expectNoSecret(text: string, secret: string, where: string): void {
  for (let i = 0; i + 8 <= secret.length; i++) {
    const fragment = secret.slice(i, i + 8);
    if (text.includes(fragment)) throw new Error(`${where} holds "${fragment}" of a secret: ${text}`);
  }
  if (text.includes(masked(secret))) throw new Error(`${where} holds the masked key: ${text}`);
}

let tenant: TestTenant;
let app: App;
let logLines: string[];
// Upstreams without a key check, for errors scripted after the first byte.
let openUpstream: Upstream;
let openAnthropic: Upstream;

beforeAll(async () => {
  openUpstream = await startOpenAIUpstream({ models: ["gpt-x"] });
  openAnthropic = await startAnthropicUpstream({ models: ["claude-x"] });
});
afterAll(async () => {
  await Promise.all([openUpstream.close(), openAnthropic.close()]);
});

const post = (path: string, body: unknown, key = tenant.keys.member) =>
  app.request(path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { ...bearer(key), "content-type": "application/json" },
  });

async function addProvider(provider: string, config: Record<string, unknown>): Promise<void> {
  const response = await post(
    "/v1/providers",
    { name: `${provider} account`, provider, config, apiKey: PROVIDER_KEY },
    tenant.keys.admin,
  );
  expect(response.status).toBe(201);
}

const hello = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: "user", content: "hello" }],
  ...extra,
});

async function setUp(builtinUrl: string): Promise<void> {
  tenant = await createTestTenant("enterprise");
  logLines = [];
  const gateway = createStoreGateway(tenant.store, {
    builtin: { baseUrl: builtinUrl, apiKey: BUILTIN_KEY },
    fetch: createFastFetch(),
  });
  app = createApp({
    store: tenant.store,
    gateway,
    builtinConfigured: true,
    logger: createLogger({ level: "debug", write: (line) => logLines.push(line) }),
  });
}

/** Everything the organization's secrets must stay out of once the calls are made. */
async function expectNothingLeaked(answers: readonly string[]): Promise<void> {
  const usage = JSON.stringify(await tenant.store.usage.list(tenant.organizationId));
  for (const secret of [PROVIDER_KEY, BUILTIN_KEY]) {
    for (const [index, answer] of answers.entries()) expectNoSecret(answer, secret, `answer ${index}`);
    expectNoSecret(logLines.join("\n"), secret, "the log");
    expectNoSecret(usage, secret, "the usage records");
  }
}

describe.each(["whole", "masked"] as const)("a 401 that quotes the %s key", (echoKey) => {
  let openai: Upstream;
  let anthropic: Upstream;
  let builtin: Upstream;

  beforeAll(async () => {
    // Each upstream expects another key, so the organization's key is refused and quoted back.
    openai = await startOpenAIUpstream({ apiKey: "sk-rotated-key-000000000", echoKey, models: ["gpt-x"] });
    anthropic = await startAnthropicUpstream({ apiKey: "sk-rotated-key-000000000", echoKey });
    builtin = await startOpenAIUpstream({ apiKey: "gw-rotated-key-000000000", echoKey });
  });
  afterAll(async () => {
    await Promise.all([openai.close(), anthropic.close(), builtin.close()]);
  });
  beforeEach(async () => {
    await setUp(builtin.url);
    await addProvider("HOSTED_A", { baseUrl: openai.url });
    await addProvider("HOSTED_B", { baseUrl: anthropic.url });
  });
  afterEach(async () => await tenant.store.close());

  it("is relayed as a 400 upstream_error without the key on every gateway call", async () => {
    const calls: Array<[string, unknown]> = [
      ["/v1/chat/completions", hello("hosted-a/gpt-x")],
      ["/v1/chat/completions", hello("hosted-a/gpt-x", { stream: true })],
      // A `-pro` model goes through the vendor's responses protocol (spec useResponsesApi rules).
      ["/v1/chat/completions", hello("hosted-a/gpt-5-pro")],
      ["/v1/chat/completions", hello("hosted-a/gpt-5-pro", { stream: true })],
      ["/v1/chat/completions", hello("hosted-b/claude-x")],
      ["/v1/chat/completions", hello("hosted-b/claude-x", { stream: true })],
      ["/v1/chat/completions", hello("gw-chat-1")],
      ["/v1/chat/completions", hello("gw-chat-1", { stream: true })],
      ["/v1/embeddings", { model: "hosted-a/text-embedding-3-small", input: "x" }],
      ["/v1/embeddings", { model: "text-embedding-3-small", input: "x" }],
      ["/v1/responses", { model: "hosted-a/gpt-x", input: "hello" }],
      ["/v1/responses", { model: "hosted-a/gpt-x", input: "hello", stream: true }],
      ["/v1/responses", { model: "hosted-b/claude-x", input: "hello" }],
      ["/v1/responses", { model: "gw-chat-1", input: "hello", stream: true }],
    ];
    const answers: string[] = [];
    for (const [path, body] of calls) {
      const response = await post(path, body);
      const text = await response.text();
      answers.push(text);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const { error } = JSON.parse(text) as { error: { type: string; code: string; message: string } };
      expect(error).toMatchObject({ type: "upstream_error", code: "upstream_error" });
      // The refusal stays readable: who refused, and that a key was quoted.
      expect(error.message).toMatch(/answered 401: .*Incorrect API key provided: \[redacted\]/);
    }
    expect(openai.requests.length + anthropic.requests.length + builtin.requests.length).toBe(calls.length);
    await expectNothingLeaked(answers);
  });

  it("is answered by the provider test endpoint and the model lists without the key", async () => {
    const answers: string[] = [];
    for (const [provider, config] of [
      ["HOSTED_A", { baseUrl: openai.url }],
      ["HOSTED_B", { baseUrl: anthropic.url }],
    ] as const) {
      const response = await post("/v1/providers/test", { provider, apiKey: PROVIDER_KEY, config });
      const text = await response.text();
      answers.push(text);
      expect(JSON.parse(text)).toMatchObject({ success: false, models: [] });
      expect((JSON.parse(text) as { message: string }).message).toContain("[redacted]");
    }
    for (const path of ["/v1/providers/models", "/v1/models"]) {
      const response = await app.request(path, { headers: bearer(tenant.keys.member) });
      expect(response.status).toBe(200);
      answers.push(await response.text());
    }
    await expectNothingLeaked(answers);
  });

  it("leaves no trace in stored extraction and agent-run errors", async () => {
    const schema = await bodyOf(await post("/v1/schemas", { name: "Invoice" }));
    const version = await post(`/v1/schemas/${String(schema.id)}/versions`, {
      jsonSchema: { type: "object", properties: { invoiceNumber: { type: "string" } } },
    });
    expect(version.status).toBe(201);
    const answers: string[] = [];
    for (const model of ["hosted-a/gpt-x", "hosted-b/claude-x", "gw-chat-1"]) {
      const extraction = await post("/v1/extractions", {
        schemaId: schema.id,
        inputText: "Invoice INV-1",
        model,
      });
      const created = (await extraction.json()) as { id: string; status: string; errorMessage: string };
      expect(created).toMatchObject({ status: "FAILED" });
      expect(created.errorMessage).toContain("[redacted]");
      answers.push(JSON.stringify(created));
      const stored = await app.request(`/v1/extractions/${created.id}`, {
        headers: bearer(tenant.keys.member),
      });
      answers.push(await stored.text());
    }
    const applied = await post("/v1/agents/apply", {
      name: "keyed",
      models: ["hosted-a/gpt-x", "hosted-b/claude-x"],
      instructions: "Answer briefly.",
    });
    expect([200, 201]).toContain(applied.status);
    for (const stream of [false, true]) {
      const run = await post("/v1/responses", { model: "agent/keyed", input: "hi", stream });
      answers.push(await run.text());
    }
    expect(answers.join("\n")).toContain("[redacted]");
    await expectNothingLeaked(answers);
  });
});

describe("provider text quoting the key after the first byte", () => {
  beforeEach(async () => {
    openUpstream.reset();
    openAnthropic.reset();
    await setUp(openUpstream.url);
    await addProvider("HOSTED_A", { baseUrl: openUpstream.url });
    await addProvider("HOSTED_B", { baseUrl: openAnthropic.url });
  });
  afterEach(async () => await tenant.store.close());

  it("ends chat and responses streams with an error event that does not carry the key", async () => {
    const quote = (key: string) => `The key ${key} was revoked mid-stream (shown as ${masked(key)})`;
    const chunk = {
      id: "c1",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-x",
      choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }],
    };
    openUpstream.enqueue(
      { kind: "sse", events: [{ data: chunk }, { data: { error: { message: quote(PROVIDER_KEY) } } }] },
      {
        kind: "sse",
        events: [
          {
            event: "response.failed",
            data: { type: "response.failed", response: { error: { message: quote(PROVIDER_KEY) } } },
          },
        ],
      },
      { kind: "sse", events: [{ data: chunk }, { data: { error: { message: quote(BUILTIN_KEY) } } }] },
    );
    openAnthropic.enqueue({
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
              model: "claude-x",
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 1, output_tokens: 0 },
            },
          },
        },
        {
          event: "error",
          data: { type: "error", error: { type: "overloaded_error", message: quote(PROVIDER_KEY) } },
        },
      ],
    });
    const answers: string[] = [];
    for (const model of ["hosted-a/gpt-x", "hosted-a/gpt-5-pro", "gw-chat-1", "hosted-b/claude-x"]) {
      const response = await post("/v1/chat/completions", hello(model, { stream: true }));
      const text = await response.text();
      answers.push(text);
      expect(text, model).toContain("[redacted]");
      expect(text, model).toContain("upstream_error");
    }
    await expectNothingLeaked(answers);
  });

  it("keeps a failed response's reason without the key on the non-streamed path", async () => {
    openUpstream.enqueue({
      kind: "json",
      body: {
        id: "resp_1",
        object: "response",
        status: "failed",
        error: { code: "server_error", message: `key ${PROVIDER_KEY} cannot be used` },
        output: [],
      },
    });
    const response = await post("/v1/chat/completions", hello("hosted-a/gpt-5-pro"));
    const body = await bodyOf(response);
    expect(body.error.message).toContain("[redacted]");
    await expectNothingLeaked([JSON.stringify(body)]);
  });
});
