/**
 * Conversions as traces (PLATFORM.md §13): a `convert` root of kind `conversion` for a
 * conversion in the request (given its organization) and for an async task when its job
 * runs; a batch that converted nothing is an error with its first error's code.
 */
import { createOpenAICompatibleAdapter } from "@groundwork/gateway";
import { GEN_AI, GROUNDWORK } from "@groundwork/observability";
import type { ConversionTaskInput } from "@groundwork/store-sqlite";
import { buildTextPng, startOpenAIUpstream } from "@groundwork/testkit";
import { SpanStatusCode } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  allAttributeText,
  parentIdOf,
  type RecordingTraceHooks,
  recordingTraceHooks,
} from "../../test/recording-trace-hooks.js";
import { openTestStore } from "../../test/test-store.js";
import type { PlatformStore } from "../store-port.js";
import { CONVERSION_TASK_ID_ATTRIBUTE, ConversionService } from "./conversion-service.js";

/** The organization of each test (tasks reference it). */
let ORG = "";
const note: ConversionTaskInput = {
  kind: "bytes",
  filename: "note.md",
  mimeType: null,
  content: new TextEncoder().encode("# Velvet umbrellas\n\nThe secret recipe."),
};

let tracing: RecordingTraceHooks;
let store: PlatformStore;
let service: ConversionService;

/** The service's options, with no vision model unless one is given. */
function options(vision: ConstructorParameters<typeof ConversionService>[1]["vision"] = null) {
  return {
    vision,
    vlmUnavailableMessage: "no vision model here",
    tessdataDir: null,
    allowPrivateNetwork: false,
    allowPrivateNetworkSetting: "ALLOW_PRIVATE",
    fetchTimeoutMs: 5_000,
    maxFetchBytes: 1_000_000,
    leaseMs: 5_000,
    pollMs: 5,
    traceHooks: tracing.hooks,
  };
}

beforeAll(() => {
  tracing = recordingTraceHooks();
});
afterAll(() => tracing.close());
beforeEach(async () => {
  tracing.reset();
  store = await openTestStore({ secret: "convert-tracing-secret" });
  ORG = (await store.organizations.create("acme", "enterprise")).id;
  service = new ConversionService(store, options());
});
afterEach(async () => {
  await service.close();
  await store.close();
});

describe("conversion spans", () => {
  it("a conversion in the request is a root convert span of the organization; no document text on it", async () => {
    const result = await service.convert([note], {}, undefined, ORG);
    expect(result.status).toBe("SUCCESS");
    const spans = tracing.named("convert");
    expect(spans).toHaveLength(1);
    expect(parentIdOf(spans[0] as (typeof spans)[number])).toBeUndefined();
    expect(spans[0]?.attributes).toEqual({
      [GROUNDWORK.organizationId]: ORG,
      [GROUNDWORK.traceKind]: "conversion",
    });
    expect(spans[0]?.status.code).toBe(SpanStatusCode.UNSET);
    expect(allAttributeText(tracing.spans())).not.toContain("Velvet");
  });

  it("is not traced without an organization to attribute it to", async () => {
    await service.convert([note], {});
    expect(tracing.spans()).toEqual([]);
  });

  it("a batch that converted nothing is an error with the first error's code", async () => {
    const garbage: ConversionTaskInput = {
      kind: "bytes",
      filename: "blob.xyz",
      mimeType: null,
      content: new Uint8Array([0, 159, 146, 150, 1, 2, 3, 255]),
    };
    const result = await service.convert([garbage], {}, undefined, ORG);
    expect(result.status).toBe("FAILURE");
    const span = tracing.named("convert")[0];
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "The conversion failed" });
    expect(span?.attributes[GEN_AI.errorType]).toBe(result.errors[0]?.code);
  });

  it("an async task is its own trace when its job runs, with the task id", async () => {
    const task = await service.submit(ORG, [note], {});
    expect(tracing.spans()).toEqual([]);
    service.startWorker();
    for (let i = 0; i < 400 && tracing.named("convert").length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const spans = tracing.named("convert");
    expect(spans).toHaveLength(1);
    expect(spans[0]?.attributes).toEqual({
      [GROUNDWORK.organizationId]: ORG,
      [GROUNDWORK.traceKind]: "conversion",
      [CONVERSION_TASK_ID_ATTRIBUTE]: task.id,
    });
    // The task is marked finished after its span ends: a networked store answers that write later.
    const status = async () => (await store.conversionTasks.get(task.id))?.status;
    for (let i = 0; i < 400 && (await status()) === "processing"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await status()).toBe("success");
  });

  it("a vlm page read is a chat child of the convert span, with tokens and without the image", async () => {
    const upstream = await startOpenAIUpstream({ apiKey: "sk-vision" });
    const vision = {
      model: "vision-large",
      chatModel: createOpenAICompatibleAdapter({
        provider: "vision",
        baseUrl: upstream.url,
        apiKey: "sk-vision",
      }),
    };
    const withVision = new ConversionService(store, options(vision));
    try {
      upstream.enqueue({ text: "# Greeting card\n\nHello", usage: { inputTokens: 812, outputTokens: 9 } });
      const image: ConversionTaskInput = {
        kind: "bytes",
        filename: "hello.png",
        mimeType: null,
        content: buildTextPng("Hello"),
      };
      const result = await withVision.convert([image], { pipeline: "vlm" }, undefined, ORG);
      expect(result.status).toBe("SUCCESS");
      const [convert] = tracing.named("convert");
      const [chat] = tracing.named("chat vision-large");
      expect(chat).toBeDefined();
      expect(parentIdOf(chat as NonNullable<typeof chat>)).toBe(convert?.spanContext().spanId);
      expect(chat?.attributes).toMatchObject({
        [GEN_AI.operationName]: "chat",
        [GEN_AI.requestModel]: "vision-large",
        [GEN_AI.inputTokens]: 812,
        [GEN_AI.outputTokens]: 9,
      });
      expect(allAttributeText(tracing.spans())).not.toContain("base64");
    } finally {
      await withVision.close();
      await upstream.close();
    }
  });
});
