/**
 * Tracing through the composed platform: gateway calls against a scripted upstream become
 * traces (chat, streams, embeddings, nested under an instrumented root), settings decide
 * sampling and content capture, retention hides and sweeps, and OTLP export reaches a
 * collector stand-in on loopback (retries and failures counted).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Principal, UNLIMITED_ALLOWANCE } from "@groundwork/core";
import { GEN_AI, GROUNDWORK } from "@groundwork/observability";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let upstream: Upstream;
/** Read as rows too: what is at rest (no content, ciphertexts, swept rows) is what these tests check. */
let database: TestDatabase;
let store: PlatformStore;
let groundwork: Groundwork;
let org: Principal;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-model"] });
});
afterAll(async () => {
  await upstream.close();
});

function compose(options: { tracingFetch?: typeof fetch; allowPrivateNetwork?: boolean } = {}): Groundwork {
  return createGroundwork({
    store,
    allowance: UNLIMITED_ALLOWANCE,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "builtin-key-0123456789" },
      chatPrices: { "gw-model": { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } },
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    },
    ...(options.tracingFetch === undefined ? {} : { tracingFetch: options.tracingFetch }),
  });
}

beforeEach(async () => {
  upstream.reset();
  database = await openTestDatabase();
  store = await database.open({ secret: "test-master-secret-for-credentials" });
  groundwork = compose();
  org = await groundwork.principal("acme");
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
  await database.remove();
});

const page = { page: 0, size: 100 };
const chat = (content: string, model = "gw-model") =>
  groundwork.gateway.chat({ model, messages: [{ role: "user", content }] } as never, { principal: org });

/** Every text column of the trace tables, as one string (to search for content). */
async function traceRows(): Promise<string> {
  const rows = [
    ...(await database.query("SELECT * FROM traces")),
    ...(await database.query("SELECT * FROM spans")),
  ];
  return JSON.stringify(rows);
}

/** The rows of a table (PostgreSQL answers COUNT as a string). */
async function count(table: "traces" | "spans"): Promise<number> {
  return Number((await database.query(`SELECT count(*) AS n FROM ${table}`))[0]?.n);
}

describe("gateway calls as traces", () => {
  it("records a chat call as a gateway trace with usage, cost and no content by default", async () => {
    upstream.enqueue({ text: "SECRET-COMPLETION", usage: { inputTokens: 7, outputTokens: 3 } });
    await chat("SECRET-PROMPT");
    const { items, total } = await groundwork.tracing.listTraces(org, {}, page);
    expect(total).toBe(1);
    const trace = items[0];
    expect(trace).toMatchObject({
      id: expect.stringMatching(/^trc_/),
      otelTraceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      kind: "gateway",
      name: "chat gw-model",
      status: "ok",
      model: "gw-model",
      inputTokens: 7,
      outputTokens: 3,
      costEur: 13,
      spanCount: 1,
    });
    const detail = await groundwork.tracing.getTrace(org, trace?.id ?? "");
    expect(detail.spans).toHaveLength(1);
    expect(detail.spans[0]).toMatchObject({
      id: expect.stringMatching(/^spn_/),
      otelSpanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      parentSpanId: null,
      children: [],
      attributes: {
        [GEN_AI.operationName]: "chat",
        [GEN_AI.providerName]: "groundwork",
        [GEN_AI.requestModel]: "gw-model",
        [GEN_AI.inputTokens]: 7,
        [GEN_AI.outputTokens]: 3,
        [GROUNDWORK.costEur]: 13,
        [GROUNDWORK.organizationId]: org.organizationId,
      },
    });
    const rows = await traceRows();
    expect(rows).not.toContain("SECRET-PROMPT");
    expect(rows).not.toContain("SECRET-COMPLETION");
    expect(rows).not.toContain("builtin-key-0123456789");
  });

  it("captures content only when the organization turns it on", async () => {
    await groundwork.tracing.updateSettings(org, { captureContent: true });
    upstream.enqueue({ text: "captured answer" });
    await chat("captured question");
    const [trace] = (await groundwork.tracing.listTraces(org, {}, page)).items;
    const span = (await groundwork.tracing.getTrace(org, trace?.id ?? "")).spans[0];
    expect(JSON.parse(String(span?.attributes[GEN_AI.inputMessages]))).toEqual([
      { role: "user", content: "captured question" },
    ]);
    expect(String(span?.attributes[GEN_AI.outputMessages])).toContain("captured answer");
  });

  it("ends a streamed call's span when the stream ends", async () => {
    upstream.enqueue({ text: "streamed words", usage: { inputTokens: 4, outputTokens: 2 } });
    const stream = await groundwork.gateway.openChatStream(
      { model: "gw-model", stream: true, messages: [{ role: "user", content: "hi" }] } as never,
      { principal: org },
    );
    expect((await groundwork.tracing.listTraces(org, {}, page)).total).toBe(0);
    for await (const _ of stream) {
      // drain
    }
    const [trace] = (await groundwork.tracing.listTraces(org, {}, page)).items;
    expect(trace).toMatchObject({ name: "chat gw-model", inputTokens: 4, outputTokens: 2, status: "ok" });
  });

  it("records failed calls with error.type and status error", async () => {
    upstream.enqueue({ kind: "error", status: 400, message: "bad things" });
    await expect(chat("x")).rejects.toThrow();
    const [trace] = (await groundwork.tracing.listTraces(org, { status: "error" }, page)).items;
    expect(trace?.status).toBe("error");
    const span = (await groundwork.tracing.getTrace(org, trace?.id ?? "")).spans[0];
    expect(span?.status).toBe("error");
    expect(span?.attributes[GEN_AI.errorType]).toEqual(expect.any(String));
  });

  it("records embeddings and nests gateway calls under an instrumented root, counting tokens once", async () => {
    await groundwork.gateway.embeddings({ model: "hash-embedding-1536", input: ["a b c"] } as never, {
      principal: org,
    });
    const embeddings = (await groundwork.tracing.listTraces(org, {}, page)).items[0];
    expect(embeddings?.name).toBe("embeddings hash-embedding-1536");

    upstream.enqueue({ text: "inner", usage: { inputTokens: 5, outputTokens: 1 } });
    const tracer = groundwork.tracing.hooks.tracer;
    await tracer.startActiveSpan(
      "invoke_agent helper",
      {
        attributes: {
          [GROUNDWORK.organizationId]: org.organizationId,
          [GROUNDWORK.traceKind]: "agent",
          [GEN_AI.operationName]: "invoke_agent",
          [GEN_AI.conversationId]: "conv_1",
          [GEN_AI.agentId]: "agt_1",
          [GEN_AI.agentName]: "helper",
          [GEN_AI.inputTokens]: 5,
        },
      },
      async (span) => {
        await chat("inside");
        span.end();
      },
    );
    const agent = (await groundwork.tracing.listTraces(org, { kind: "agent" }, page)).items[0];
    expect(agent).toMatchObject({
      name: "invoke_agent helper",
      sessionId: "conv_1",
      agentId: "agt_1",
      model: "gw-model",
      inputTokens: 5,
      spanCount: 2,
    });
    const detail = await groundwork.tracing.getTrace(org, agent?.id ?? "");
    expect(detail.spans).toHaveLength(1);
    expect(detail.spans[0]?.children.map((child) => child.name)).toEqual(["chat gw-model"]);
    expect(detail.spans[0]?.children[0]?.parentSpanId).toBe(detail.spans[0]?.id);
    expect(detail.spans[0]?.children[0]?.attributes[GROUNDWORK.traceKind]).toBeUndefined();

    const sessions = await groundwork.tracing.listSessions(org, {}, page);
    expect(sessions.items).toEqual([
      expect.objectContaining({ sessionId: "conv_1", agentName: "helper", traceCount: 1, inputTokens: 5 }),
    ]);
    expect((await groundwork.tracing.getSession(org, "conv_1")).traces.map((t) => t.id)).toEqual([agent?.id]);
  });

  it("records nothing with sampling 0 or tracing disabled", async () => {
    await groundwork.tracing.updateSettings(org, { samplingRate: 0 });
    await chat("unsampled");
    await groundwork.tracing.updateSettings(org, { samplingRate: 1, enabled: false });
    await chat("disabled");
    await groundwork.tracing.flush();
    expect(await count("spans")).toBe(0);
    await groundwork.tracing.updateSettings(org, { enabled: true });
    await chat("sampled");
    expect((await groundwork.tracing.listTraces(org, {}, page)).total).toBe(1);
  });

  it("keeps organizations apart", async () => {
    await chat("mine");
    const other = await groundwork.principal("other");
    const [trace] = (await groundwork.tracing.listTraces(org, {}, page)).items;
    expect((await groundwork.tracing.listTraces(other, {}, page)).total).toBe(0);
    await expect(groundwork.tracing.getTrace(other, trace?.id ?? "")).rejects.toThrow(/No trace/);
  });
});

describe("provider keys", () => {
  it("never reach a span", async () => {
    await store.providers.create({
      organizationId: org.organizationId,
      name: "mine",
      type: "HOSTED_A",
      config: { baseUrl: upstream.url },
      apiKey: "sk-provider-secret-987654321",
    });
    await groundwork.tracing.updateSettings(org, { captureContent: true });
    await chat("hello", "hosted-a/gw-model");
    const [trace] = (await groundwork.tracing.listTraces(org, {}, page)).items;
    expect(
      (await groundwork.tracing.getTrace(org, trace?.id ?? "")).spans[0]?.attributes[GEN_AI.providerName],
    ).toBe("hosted-a");
    expect(await traceRows()).not.toContain("sk-provider-secret-987654321");
  });
});

describe("retention and listing windows", () => {
  async function oldTrace(ageDays: number, traceId: string) {
    const start = Date.now() - ageDays * 24 * 60 * 60 * 1000;
    await store.traces.write([
      {
        organizationId: org.organizationId,
        traceRecordId: `trc_${traceId}`,
        traceId,
        spanId: traceId.slice(0, 16),
        parentSpanId: null,
        name: `old ${ageDays}`,
        startTime: start,
        endTime: start + 5,
        durationMs: 5,
        status: "ok",
        statusMessage: null,
        attributes: { [GROUNDWORK.traceKind]: "gateway", [GEN_AI.conversationId]: `conv_${ageDays}` },
      },
    ]);
    return (
      (await store.traces.list(org.organizationId, { sessionId: `conv_${ageDays}` }, 0, page)).items[0]?.id ??
      ""
    );
  }

  it("never returns traces past retention and sweeps them", async () => {
    const kept = await oldTrace(2, "1".repeat(32));
    const expired = await oldTrace(10, "2".repeat(32));
    await groundwork.tracing.updateSettings(org, { retentionDays: 7 });
    const from = new Date(Date.now() - 20 * 24 * 60 * 60 * 1000).toISOString();
    expect((await groundwork.tracing.listTraces(org, { from }, page)).items.map((t) => t.id)).toEqual([kept]);
    await expect(groundwork.tracing.getTrace(org, expired)).rejects.toThrow(/No trace/);
    await expect(groundwork.tracing.getSession(org, "conv_10")).rejects.toThrow(/No trace session/);
    expect((await groundwork.tracing.listSessions(org, {}, page)).items.map((s) => s.sessionId)).toEqual([
      "conv_2",
    ]);
    expect(await groundwork.tracing.sweep()).toBe(1);
    expect(await count("traces")).toBe(1);
    // Its spans went with it.
    expect(await count("spans")).toBe(1);
  });

  it("lists the last 24 h by default and refuses windows over 31 days naming from", async () => {
    await oldTrace(2, "3".repeat(32));
    expect((await groundwork.tracing.listTraces(org, {}, page)).total).toBe(0);
    const day = 24 * 60 * 60 * 1000;
    const iso = (ms: number) => new Date(ms).toISOString();
    await expect(
      groundwork.tracing.listTraces(org, { from: iso(Date.now() - 32 * day), to: iso(Date.now()) }, page),
    ).rejects.toMatchObject({ param: "from" });
    await expect(groundwork.tracing.listTraces(org, { from: "yesterday" }, page)).rejects.toMatchObject({
      param: "from",
    });
  });
});

describe("settings", () => {
  it("validates the body, naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ samplingRate: 1.5 }, "samplingRate"],
      [{ samplingRate: "1" }, "samplingRate"],
      [{ retentionDays: 0 }, "retentionDays"],
      [{ retentionDays: 366 }, "retentionDays"],
      [{ retentionDays: 1.5 }, "retentionDays"],
      [{ enabled: "yes" }, "enabled"],
      [{ export: { endpoint: "not a url" } }, "export.endpoint"],
      [{ export: { endpoint: "ftp://collector.example/v1/traces" } }, "export.endpoint"],
      [{ export: "https://x" }, "export"],
    ];
    for (const [body, param] of cases) {
      await expect(groundwork.tracing.updateSettings(org, body), JSON.stringify(body)).rejects.toMatchObject({
        status: 400,
        param,
      });
    }
    const headers = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`h${i}`, "v"]));
    await expect(
      groundwork.tracing.updateSettings(org, {
        export: { endpoint: "https://collector.example/v1/traces", headers },
      }),
    ).rejects.toMatchObject({ status: 400, param: "export.headers" });
  });

  it("refuses private export endpoints unless allowed (400 private_network)", async () => {
    await expect(
      groundwork.tracing.updateSettings(org, {
        export: { endpoint: "http://127.0.0.1:4318/v1/traces" },
      }),
    ).rejects.toMatchObject({ status: 400, code: "private_network", param: "export.endpoint" });
  });

  it("stores export headers encrypted and shows only their names", async () => {
    const settings = await groundwork.tracing.updateSettings(org, {
      samplingRate: 0.5,
      export: {
        endpoint: "https://collector.example/v1/traces",
        headers: { authorization: "Bearer hdr-secret-42" },
      },
    });
    expect(settings).toMatchObject({
      samplingRate: 0.5,
      export: { endpoint: "https://collector.example/v1/traces", headerNames: ["authorization"] },
      updatedAt: expect.any(Number),
    });
    expect(JSON.stringify(settings)).not.toContain("hdr-secret-42");
    expect(JSON.stringify(await database.query("SELECT * FROM tracing_settings"))).not.toContain(
      "hdr-secret-42",
    );
    expect((await store.traces.exportTarget(org.organizationId))?.headers).toEqual({
      authorization: "Bearer hdr-secret-42",
    });
    const cleared = await groundwork.tracing.updateSettings(org, { export: null });
    expect(cleared.export).toBeNull();
    expect(cleared.samplingRate).toBe(0.5);
  });
});

describe("OTLP export", () => {
  interface Received {
    headers: Record<string, string | string[] | undefined>;
    body: {
      resourceSpans: Array<{
        scopeSpans: Array<{
          spans: Array<{
            name: string;
            traceId: string;
            attributes: Array<{ key: string; value: Record<string, unknown> }>;
          }>;
        }>;
      }>;
    };
  }
  let collector: Server;
  let received: Received[];
  let status: number;
  let endpoint: string;

  beforeEach(async () => {
    received = [];
    status = 200;
    collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        response.writeHead(status, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
    await groundwork.close();
    groundwork = createGroundwork({
      store,
      allowance: UNLIMITED_ALLOWANCE,
      config: {
        builtin: { baseUrl: upstream.url, apiKey: "builtin-key-0123456789" },
        allowPrivateNetwork: true,
      },
    });
  });
  afterEach(async () => {
    await new Promise((resolve) => collector.close(resolve));
  });

  async function waitFor(predicate: () => boolean, timeoutMs = 8000) {
    const until = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > until) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("sends finished spans as OTLP/HTTP JSON with the stored headers", async () => {
    await groundwork.tracing.updateSettings(org, {
      export: { endpoint, headers: { "x-collector-key": "collector-secret" } },
    });
    upstream.enqueue({ text: "exported", usage: { inputTokens: 2, outputTokens: 1 } });
    await chat("export me");
    await groundwork.tracing.flush();
    await waitFor(() => received.length === 1, 4000);
    const request = received[0];
    expect(request?.headers["x-collector-key"]).toBe("collector-secret");
    expect(request?.headers["content-type"]).toBe("application/json");
    const span = request?.body.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(span?.name).toBe("chat gw-model");
    const attributes = Object.fromEntries((span?.attributes ?? []).map((a) => [a.key, a.value]));
    expect(attributes[GEN_AI.operationName]).toEqual({ stringValue: "chat" });
    expect(attributes[GEN_AI.inputTokens]).toMatchObject({ intValue: 2 });
    const [trace] = (await groundwork.tracing.listTraces(org, {}, page)).items;
    expect(span?.traceId).toBe(trace?.otelTraceId);
    expect((await groundwork.tracing.getSettings(org)).exportFailures).toBe(0);
  });

  it("retries a failed batch at most twice and counts every failed attempt", async () => {
    status = 503;
    await groundwork.tracing.updateSettings(org, { export: { endpoint } });
    upstream.enqueue({ text: "never delivered" });
    await chat("fails");
    await groundwork.tracing.flush();
    // The first attempt within ~1 s, the retries 2 s and 4 s later: 3 attempts within 10 s.
    await waitFor(() => received.length === 3, 9000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(3);
    const settings = await groundwork.tracing.getSettings(org);
    expect(settings.exportFailures).toBe(3);
    expect(settings.lastExportError).toContain("503");
  }, 15000);
});
