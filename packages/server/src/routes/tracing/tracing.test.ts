/**
 * Tracing over HTTP: a chat call through the server read back as a trace tree (with the
 * request id), settings (Viewer reads, Admin updates, validation, fuzz, no secret in
 * answers), listing filters and windows, sessions, and organization isolation.
 */
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let upstream: Upstream;
let tenant: TestTenant;
let groundwork: Groundwork;
let app: App;
/** An Admin key of another organization. */
let stranger: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  tenant = await createTestTenant();
  groundwork = createGroundwork({
    store: tenant.store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "builtin-secret-key-1234" },
      chatPrices: { "gw-chat-1": { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } },
    },
  });
  app = createApp({ groundwork });
  stranger = await tenant.keyFor("admin", "enterprise");
});
afterEach(async () => {
  await groundwork.close();
  await tenant.store.close();
});

const call = (
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function chatOverHttp(content = "hello there", requestId = "req-trace-test-1") {
  upstream.enqueue({ text: "general kenobi", usage: { inputTokens: 6, outputTokens: 2 } });
  const response = await call(
    tenant.keys.member,
    "POST",
    "/v1/chat/completions",
    { model: "gw-chat-1", messages: [{ role: "user", content }] },
    { "x-request-id": requestId },
  );
  expect(response.status).toBe(200);
  return response;
}

describe("a chat call through the server", () => {
  it("is read back as a trace with its span tree and request id", async () => {
    await chatOverHttp();
    const list = await call(tenant.keys.viewer, "GET", "/v1/traces");
    expect(list.status).toBe(200);
    const page = await bodyOf(list);
    expect(page).toMatchObject({ page: 0, size: 20, totalElements: 1, totalPages: 1 });
    const [trace] = page.content as Array<Record<string, unknown>>;
    expect(trace).toEqual({
      id: expect.stringMatching(/^trc_/),
      otelTraceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      kind: "gateway",
      name: "chat gw-chat-1",
      status: "ok",
      sessionId: null,
      agentId: null,
      model: "gw-chat-1",
      responseId: null,
      requestId: "req-trace-test-1",
      startTime: expect.stringMatching(ISO),
      endTime: expect.stringMatching(ISO),
      durationMs: expect.any(Number),
      inputTokens: 6,
      outputTokens: 2,
      costEur: 8,
      spanCount: 1,
    });
    const detail = await bodyOf(await call(tenant.keys.viewer, "GET", `/v1/traces/${trace?.id}`));
    expect(detail.spans).toEqual([
      {
        id: expect.stringMatching(/^spn_/),
        otelSpanId: expect.stringMatching(/^[0-9a-f]{16}$/),
        parentSpanId: null,
        name: "chat gw-chat-1",
        startTime: expect.stringMatching(ISO),
        endTime: expect.stringMatching(ISO),
        durationMs: expect.any(Number),
        status: "ok",
        statusMessage: null,
        attributes: expect.objectContaining({
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "gw-chat-1",
          "gen_ai.usage.input_tokens": 6,
          "groundwork.request_id": "req-trace-test-1",
        }),
        children: [],
      },
    ]);
    const text = JSON.stringify(detail);
    expect(text).not.toContain("hello there");
    expect(text).not.toContain("general kenobi");
    expect(text).not.toContain("builtin-secret-key-1234");
  });

  it("carries the request id on streamed chats and embeddings too (passed in the call's context, HP55)", async () => {
    upstream.enqueue({ text: "streamed", usage: { inputTokens: 3, outputTokens: 1 } });
    const streamed = await call(
      tenant.keys.member,
      "POST",
      "/v1/chat/completions",
      { model: "gw-chat-1", stream: true, messages: [{ role: "user", content: "hi" }] },
      { "x-request-id": "req-trace-stream" },
    );
    expect(streamed.status).toBe(200);
    await streamed.text();
    const embedded = await call(
      tenant.keys.member,
      "POST",
      "/v1/embeddings",
      { model: "hash-embedding-1536", input: ["some words"] },
      { "x-request-id": "req-trace-embed" },
    );
    expect(embedded.status).toBe(200);
    const page = await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/traces"));
    const byName = Object.fromEntries(
      (page.content as Array<{ name: string; requestId: string | null }>).map((t) => [t.name, t.requestId]),
    );
    expect(byName).toEqual({
      "chat gw-chat-1": "req-trace-stream",
      "embeddings hash-embedding-1536": "req-trace-embed",
    });
  });

  it("filters by kind, status and model and keeps another organization's traces apart (404)", async () => {
    await chatOverHttp();
    const id = (
      (await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/traces"))).content as Array<{ id: string }>
    )[0]?.id;
    const count = async (query: string) =>
      (await bodyOf(await call(tenant.keys.viewer, "GET", `/v1/traces?${query}`))).totalElements;
    expect(await count("kind=gateway&status=ok&model=gw-chat-1")).toBe(1);
    expect(await count("kind=agent")).toBe(0);
    expect(await count("status=error")).toBe(0);
    expect(await count("sessionId=conv_none")).toBe(0);
    const other = await call(stranger, "GET", `/v1/traces/${id}`);
    expect(other.status).toBe(404);
    expect((await bodyOf(other)).error.code).toBe("not_found");
    expect((await bodyOf(await call(stranger, "GET", "/v1/traces"))).totalElements).toBe(0);
    expect((await call(tenant.keys.viewer, "GET", "/v1/traces/trc_missing")).status).toBe(404);
  });

  it("validates the list queries (400 naming the parameter)", async () => {
    const day = 24 * 60 * 60 * 1000;
    const from = new Date(Date.now() - 40 * day).toISOString();
    const cases: Array<[string, string]> = [
      [`/v1/traces?from=${from}`, "from"],
      ["/v1/traces?from=yesterday", "from"],
      ["/v1/traces?to=soon", "to"],
      ["/v1/traces?kind=banana", "kind"],
      ["/v1/traces?status=fine", "status"],
      ["/v1/traces?size=0", "size"],
      ["/v1/trace-sessions?from=x", "from"],
      ["/v1/trace-sessions?page=-1", "page"],
    ];
    for (const [path, param] of cases) {
      const response = await call(tenant.keys.viewer, "GET", path);
      expect(response.status, path).toBe(400);
      expect((await bodyOf(response)).error.param, path).toBe(param);
    }
  });
});

describe("sessions", () => {
  it("lists sessions and answers a session's traces; another organization's session is 404", async () => {
    const tracer = groundwork.tracing.hooks.tracer;
    tracer.startActiveSpan(
      "invoke_agent helper",
      {
        attributes: {
          "groundwork.organization_id": tenant.organizationId,
          "groundwork.trace.kind": "agent",
          "gen_ai.conversation.id": "conv_http",
          "gen_ai.agent.id": "agt_http",
          "gen_ai.agent.name": "helper",
        },
      },
      (span) => span.end(),
    );
    const list = await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/trace-sessions?agentId=agt_http"));
    expect(list.content).toEqual([
      {
        sessionId: "conv_http",
        agentId: "agt_http",
        agentName: "helper",
        traceCount: 1,
        firstTraceAt: expect.stringMatching(ISO),
        lastTraceAt: expect.stringMatching(ISO),
        inputTokens: 0,
        outputTokens: 0,
        costEur: 0,
        errorCount: 0,
      },
    ]);
    const detail = await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/trace-sessions/conv_http"));
    expect(detail).toMatchObject({
      sessionId: "conv_http",
      traces: [expect.objectContaining({ kind: "agent" })],
    });
    expect((await call(stranger, "GET", "/v1/trace-sessions/conv_http")).status).toBe(404);
    expect((await call(tenant.keys.viewer, "GET", "/v1/trace-sessions/conv_none")).status).toBe(404);
  });
});

describe("/v1/tracing/settings", () => {
  it("answers the defaults to a Viewer", async () => {
    const response = await call(tenant.keys.viewer, "GET", "/v1/tracing/settings");
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      enabled: true,
      samplingRate: 1,
      captureContent: false,
      retentionDays: 30,
      export: null,
      exportFailures: 0,
      lastExportError: null,
      updatedAt: null,
    });
  });

  it("is updated by Admins only; headers are shown only by name", async () => {
    for (const key of [tenant.keys.viewer, tenant.keys.member]) {
      const refused = await call(key, "PUT", "/v1/tracing/settings", { samplingRate: 0.5 });
      expect(refused.status).toBe(403);
    }
    const response = await call(tenant.keys.admin, "PUT", "/v1/tracing/settings", {
      samplingRate: 0.25,
      captureContent: true,
      retentionDays: 7,
      export: {
        endpoint: "https://collector.example.com/v1/traces",
        headers: { "x-api-key": "very-secret-value" },
      },
    });
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      samplingRate: 0.25,
      captureContent: true,
      retentionDays: 7,
      export: { endpoint: "https://collector.example.com/v1/traces", headerNames: ["x-api-key"] },
      updatedAt: expect.stringMatching(ISO),
    });
    const read = await call(tenant.keys.viewer, "GET", "/v1/tracing/settings");
    expect(JSON.stringify(await bodyOf(read))).not.toContain("very-secret-value");
    expect(JSON.stringify(body)).not.toContain("very-secret-value");
    // Another organization's settings are its own.
    expect((await bodyOf(await call(stranger, "GET", "/v1/tracing/settings"))).samplingRate).toBe(1);
  });

  it("validates the body (400 naming the field, private_network for loopback endpoints)", async () => {
    const cases: Array<[unknown, string, string?]> = [
      [{ samplingRate: -0.1 }, "samplingRate"],
      [{ retentionDays: 400 }, "retentionDays"],
      [{ captureContent: 1 }, "captureContent"],
      [{ export: { endpoint: 3 } }, "export.endpoint"],
      [{ export: { endpoint: "http://127.0.0.1:4318/v1/traces" } }, "export.endpoint", "private_network"],
      [
        { export: { endpoint: "https://c.example.com/v1/traces", headers: { "bad name": "v" } } },
        "export.headers.bad name",
      ],
    ];
    for (const [body, param, code] of cases) {
      const response = await call(tenant.keys.admin, "PUT", "/v1/tracing/settings", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await bodyOf(response)).error;
      expect(error.param, JSON.stringify(body)).toBe(param);
      if (code !== undefined) expect(error.code).toBe(code);
    }
    const malformed = await call(tenant.keys.admin, "PUT", "/v1/tracing/settings", "{not json");
    expect(malformed.status).toBe(400);
  });

  it("never answers 5xx to fuzzed bodies", async () => {
    const field = fc.oneof(
      fc.string(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            enabled: field,
            samplingRate: fc.oneof(fc.double({ min: -1, max: 2 }), field),
            captureContent: field,
            retentionDays: fc.oneof(fc.integer({ min: -5, max: 500 }), field),
            export: fc.oneof(
              fc.constant(null),
              field,
              fc.record(
                {
                  endpoint: fc.oneof(
                    fc.constantFrom(
                      "https://collector.example.com/v1/traces",
                      "http://127.0.0.1/v1/traces",
                      "ftp://x/y",
                    ),
                    field,
                  ),
                  headers: field,
                },
                { requiredKeys: [] },
              ),
            ),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const response = await call(tenant.keys.admin, "PUT", "/v1/tracing/settings", body);
          expect([200, 400]).toContain(response.status);
        },
      ),
      { numRuns: 60 },
    );
  });
});
