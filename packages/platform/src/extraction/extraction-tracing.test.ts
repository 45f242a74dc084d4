/**
 * Extractions as traces (PLATFORM.md §13): `extract {schema name}` roots of kind
 * `extraction`, in the request and as background jobs, with the gateway's model call
 * inside; failures marked; the document and its data only when content is captured.
 */
import { GEN_AI, GROUNDWORK } from "@groundwork/observability";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { SpanStatusCode } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type GatewayCall, observeGateway } from "../../test/observed-gateway.js";
import {
  allAttributeText,
  parentIdOf,
  type RecordingTraceHooks,
  recordingTraceHooks,
} from "../../test/recording-trace-hooks.js";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import { ExtractionService } from "./extraction-service.js";
import { EXTRACTION_ID_ATTRIBUTE } from "./extraction-span.js";

const MODEL = "gw-chat-1";
const DOCUMENT = "Invoice INV-7 from Velvet Umbrellas Ltd, total 120 EUR";
const jsonSchema = {
  type: "object",
  required: ["vendor"],
  properties: { vendor: { type: "string" }, invoiceNumber: { type: "string" } },
};

let upstream: Upstream;
let tracing: RecordingTraceHooks;
let store: PlatformStore;
let groundwork: Groundwork;
let service: ExtractionService;
let gatewayCalls: GatewayCall[];
let schemaId = "";

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: [MODEL] });
  tracing = recordingTraceHooks();
});
afterAll(async () => {
  await tracing.close();
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  tracing.reset();
  tracing.setCaptureContent(false);
  store = await openTestStore({ secret: "extraction-tracing-secret" });
  groundwork = createGroundwork({ store, config: { builtin: { baseUrl: upstream.url, apiKey: "sk-b" } } });
  const observed = observeGateway(groundwork.gateway);
  gatewayCalls = observed.calls;
  service = new ExtractionService(store, observed.gateway, {
    traceHooks: tracing.hooks,
    pollMs: 5,
    leaseMs: 5_000,
  });
  const schema = await groundwork.schemas.create((await groundwork.principal()).organizationId, {
    name: "Invoice",
  });
  await store.schemas.commitVersion(schema.id, { jsonSchema });
  schemaId = schema.id;
});
afterEach(async () => {
  await service.stopWorker();
  await groundwork.close();
  await store.close();
});

const answer = () =>
  upstream.enqueue({ text: JSON.stringify({ vendor: "Velvet Umbrellas Ltd", invoiceNumber: "INV-7" }) });

function onlySpan() {
  const spans = tracing.named("extract Invoice");
  expect(spans).toHaveLength(1);
  return spans[0] as (typeof spans)[number];
}

describe("extraction spans", () => {
  it("a synchronous extraction is a root extract span with its id, model and the model call inside", async () => {
    answer();
    const principal = await groundwork.principal();
    const record = await service.extract(principal, { schemaId, model: MODEL, inputText: DOCUMENT });
    expect(record.status).toBe("COMPLETED");
    const span = onlySpan();
    expect(parentIdOf(span)).toBeUndefined();
    expect(span.attributes).toEqual({
      [GROUNDWORK.organizationId]: principal.organizationId,
      [GROUNDWORK.traceKind]: "extraction",
      [GEN_AI.requestModel]: MODEL,
      [EXTRACTION_ID_ATTRIBUTE]: record.id,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(gatewayCalls.map((call) => [call.method, call.spanId])).toEqual([
      ["chat", span.spanContext().spanId],
    ]);
    expect(allAttributeText(tracing.spans())).not.toContain("Velvet");
  });

  it("records the document and the extracted data only when content is captured", async () => {
    tracing.setCaptureContent(true);
    answer();
    await service.extract(await groundwork.principal(), { schemaId, model: MODEL, inputText: DOCUMENT });
    const span = onlySpan();
    expect(JSON.parse(span.attributes[GEN_AI.inputMessages] as string)).toEqual([
      { role: "user", parts: [{ type: "text", content: DOCUMENT }] },
    ]);
    const output = JSON.parse(span.attributes[GEN_AI.outputMessages] as string) as Array<{
      parts: Array<{ content: string }>;
    }>;
    expect(JSON.parse(output[0]?.parts[0]?.content ?? "null")).toMatchObject({
      vendor: "Velvet Umbrellas Ltd",
    });
  });

  it("a failed extraction marks the span with the record's message and the gateway's error code", async () => {
    upstream.enqueue({ kind: "error", status: 401, message: "bad key" });
    const record = await service.extract(await groundwork.principal(), {
      schemaId,
      model: MODEL,
      inputText: DOCUMENT,
    });
    expect(record.status).toBe("FAILED");
    const span = onlySpan();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: record.errorMessage });
    expect(span.attributes[GEN_AI.errorType]).toMatch(/^[a-z_]+$/);
    expect(span.attributes[GEN_AI.errorType]).not.toBe("extraction_failed");
    expect(span.attributes[EXTRACTION_ID_ATTRIBUTE]).toBe(record.id);
  });

  it("a background extraction is its own trace when its job runs", async () => {
    answer();
    const principal = await groundwork.principal();
    const pending = await service.extract(principal, {
      schemaId,
      model: MODEL,
      inputText: DOCUMENT,
      background: true,
    });
    expect(pending.status).toBe("PENDING");
    expect(tracing.spans()).toEqual([]);
    service.startWorker();
    for (let i = 0; i < 400 && tracing.named("extract Invoice").length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const span = onlySpan();
    expect(parentIdOf(span)).toBeUndefined();
    expect(span.attributes).toMatchObject({
      [GROUNDWORK.organizationId]: principal.organizationId,
      [GROUNDWORK.traceKind]: "extraction",
      [EXTRACTION_ID_ATTRIBUTE]: pending.id,
    });
    expect((await store.extractions.get(principal.organizationId, pending.id))?.status).toBe("COMPLETED");
    expect(gatewayCalls[0]?.spanId).toBe(span.spanContext().spanId);
  });
});
