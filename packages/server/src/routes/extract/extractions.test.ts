/**
 * Extractions end to end: `app.request()` → routes → engine → gateway → a scripted
 * OpenAI-compatible upstream on 127.0.0.1 that answers each call from the document part it
 * receives (one line item per `PN-` line it sees), so chunk boundaries, overlaps and invented
 * items behave as they would with a real model.
 */
import { estimateTokens } from "@groundwork/core";
import { createFastFetch, DEFAULT_CHAT_PRICES } from "@groundwork/gateway";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { type RecordedRequest, type Reply, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let upstream: Upstream;
let tenant: TestTenant;
let groundwork: Groundwork;
let app: App;
let worker: { stop(): Promise<void> } | null = null;

const MODEL = "gw-chat-1";

const jsonSchema = {
  type: "object",
  required: ["invoiceNumber", "vendor", "lines"],
  properties: {
    invoiceNumber: { type: ["string", "null"] },
    vendor: { type: "string" },
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: {
          lineNumber: { type: "integer" },
          partNumber: { type: "string" },
          description: { type: ["string", "null"] },
        },
      },
    },
  },
};

function lineText(i: number): string {
  return `Line ${i}: part PN-${String(i).padStart(5, "0")} widget\n`;
}

function documentOf(lines: number): string {
  let text = "Invoice INV-2024-001 from Acme Tools\n";
  for (let i = 1; i <= lines; i++) text += lineText(i);
  return text;
}

/** The smallest document whose estimate reaches `tokens`. */
function documentOfTokens(tokens: number): { text: string; lines: number } {
  const perLine = estimateTokens(lineText(12_345));
  let lines = Math.ceil(tokens / perLine);
  let text = documentOf(lines);
  while (estimateTokens(text) < tokens) {
    lines += 50;
    text = documentOf(lines);
  }
  return { text, lines };
}

function userText(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  const content = body.messages?.find((m) => m.role === "user")?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content
        .map((part: { type: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
        .join("\n")
    : "";
}

/** Reads the document part like a model would; `invent` adds an item that is in no part. */
function readPart(request: RecordedRequest, invent: (part: number) => boolean = () => false): Reply {
  const text = userText(request);
  const documentPart = text.includes("Document part:\n")
    ? text.slice(text.indexOf("Document part:\n"))
    : text;
  const part = Number(/This is part (\d+) of/.exec(text)?.[1] ?? "1");
  const lines = [...documentPart.matchAll(/^Line (\d+): part (PN-\d+) (\w+)$/gm)].map((m) => ({
    lineNumber: Number(m[1]),
    partNumber: m[2],
    description: m[3],
  }));
  if (invent(part)) lines.push({ lineNumber: 99_999, partNumber: "PN-INVENTED-1", description: "ghost" });
  const invoiceNumber = /Invoice (INV-[\w-]+)/.exec(documentPart)?.[1] ?? null;
  return {
    text: JSON.stringify({ invoiceNumber, lines }),
    usage: { inputTokens: estimateTokens(text), outputTokens: 7 * lines.length + 5 },
  };
}

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: [MODEL] });
});
afterAll(() => upstream.close());

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  upstream.handler = (request) => readPart(request);
  groundwork = createGroundwork({
    store: tenant.store,
    config: { builtin: { baseUrl: upstream.url, apiKey: "builtin-secret" }, workers: { pollMs: 20 } },
    fetch: createFastFetch(),
  });
  app = createApp({ groundwork });
});
afterEach(async () => {
  await worker?.stop();
  worker = null;
  await tenant.store.close();
});

/** The background worker of the test's platform, stopped after each test. */
function startExtractionWorker(): { stop(): Promise<void> } {
  groundwork.extraction.startWorker();
  return { stop: () => groundwork.extraction.stopWorker() };
}

function send(method: string, path: string, body?: unknown, key = tenant.keys.member) {
  return app.request(path, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

type Body = Record<string, unknown> & { error: { message: string; code: string; param: string | null } };

async function json(method: string, path: string, body?: unknown, key?: string, status = 200): Promise<Body> {
  const response = await send(method, path, body, key);
  const parsed = await bodyOf(response);
  expect(response.status, JSON.stringify(parsed).slice(0, 500)).toBe(status);
  return parsed as Body;
}

async function schemaWithVersion(definition: unknown = jsonSchema) {
  const schema = await json("POST", "/v1/schemas", { name: "Invoice" }, undefined, 201);
  const version = await json(
    "POST",
    `/v1/schemas/${schema.id}/versions`,
    { jsonSchema: definition },
    undefined,
    201,
  );
  return { schemaId: schema.id as string, versionId: version.id as string };
}

interface Result {
  structuredOutput: {
    invoiceNumber: string | null;
    vendor?: unknown;
    lines: Array<{ lineNumber: number; partNumber: string }>;
  };
  metadata: Record<string, unknown>;
  resultMetadata: Record<string, Record<string, unknown> | null>;
}

interface SpanGrounding {
  score: number;
  basis: string;
  spans?: Array<{ start: number; end: number }>;
}

interface Scoring {
  fields: Record<string, { grounding: SpanGrounding }>;
  items: Record<string, { fields: Record<string, { grounding: SpanGrounding }> }>;
}

async function poll(location: string): Promise<Body> {
  for (let i = 0; i < 400; i++) {
    const current = await json("GET", location, undefined, tenant.keys.viewer);
    if (current.status === "COMPLETED" || current.status === "FAILED") return current;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${location} did not finish`);
}

describe("POST /v1/extractions, single shot", () => {
  it("extracts with structured output, records metadata, scoring and the model's violations", async () => {
    const { schemaId, versionId } = await schemaWithVersion();
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: documentOf(3), model: MODEL },
      undefined,
      201,
    );
    expect(created).toMatchObject({
      status: "COMPLETED",
      strategy: "SINGLE_SHOT",
      schemaVersionId: versionId,
      errorMessage: null,
      model: MODEL,
    });
    const result = created.result as unknown as Result;
    expect(result.structuredOutput.invoiceNumber).toBe("INV-2024-001");
    expect(result.structuredOutput.lines.map((l) => l.partNumber)).toEqual([
      "PN-00001",
      "PN-00002",
      "PN-00003",
    ]);
    expect(result.metadata).toMatchObject({ model: MODEL, chunksProcessed: 1, outputTokens: 26 });
    expect(result.metadata.inputTokens).toBeGreaterThan(0);
    // A built-in model without its own entry is charged at the default table's `*` price (BI11).
    const price = DEFAULT_CHAT_PRICES["*"];
    expect(result.metadata.cost).toBeCloseTo(
      ((result.metadata.inputTokens as number) * (price?.inputPerMillion ?? Number.NaN) +
        26 * (price?.outputPerMillion ?? Number.NaN)) /
        1e6,
      12,
    );
    expect(typeof result.metadata.durationMs).toBe("number");
    expect(result.resultMetadata.dedup).toMatchObject({
      applied: false,
      originalItemCount: 3,
      finalItemCount: 3,
    });
    expect(result.resultMetadata.postValidation).toMatchObject({ applied: false });
    expect(result.resultMetadata.schemaValidation).toMatchObject({
      applied: true,
      violations: [{ fieldPath: "", keyword: "required", property: "vendor", source: "MODEL" }],
    });
    expect(result.resultMetadata.rules).toMatchObject({ applied: true, outcomes: [] });
    expect(result.resultMetadata.scoring).toMatchObject({ methods: ["grounding", "confidence"] });

    const sent = upstream.requests[0]?.body as Record<string, unknown>;
    expect(sent.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "Invoice", schema: jsonSchema, strict: false },
    });
    // the call is metered by the gateway like any chat completion
    expect(await tenant.store.usage.list(tenant.organizationId)).toHaveLength(1);
    expect(await json("GET", `/v1/extractions/${created.id}`, undefined, tenant.keys.viewer)).toEqual(
      created,
    );
    // The extraction carries the text its grounding points into; the list leaves it out (WC6).
    expect(created.inputText).toBe(documentOf(3));
    const listed = await json("GET", "/v1/extractions", undefined, tenant.keys.viewer);
    expect((listed.content as Array<Record<string, unknown>>)[0]).not.toHaveProperty("inputText");
  });

  it("sends the schema as prompt text to hosted-d (no response_format)", async () => {
    await json(
      "POST",
      "/v1/providers",
      { name: "d", provider: "HOSTED_D", config: { baseUrl: upstream.url }, apiKey: "sk-d" },
      tenant.keys.admin,
      201,
    );
    const { schemaId } = await schemaWithVersion();
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: documentOf(2), model: "hosted-d/llm" },
      undefined,
      201,
    );
    expect(created.status).toBe("COMPLETED");
    const sent = upstream.requests[0]?.body as {
      response_format?: unknown;
      messages: Array<{ content: string }>;
    };
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages[0]?.content).toContain(JSON.stringify(jsonSchema));
  });

  it("sends images as data URLs; image-only results carry no scoring", async () => {
    const { schemaId } = await schemaWithVersion();
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputImages: [{ data: "iVBORw0KGgo=", mimeType: "image/png" }], model: MODEL },
      undefined,
      201,
    );
    expect(created).toMatchObject({ status: "COMPLETED", imageCount: 1 });
    expect((created.result as unknown as Result).resultMetadata.scoring).toBeNull();
    const sent = upstream.requests[0]?.body as { messages: Array<{ content: unknown }> };
    expect(sent.messages[1]?.content).toEqual([
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ]);
  });

  it.each([
    [
      "the model answers prose",
      { text: "I could not find an invoice." } as Reply,
      /did not answer with JSON/,
    ],
    ["the upstream fails", { kind: "error", status: 500, message: "boom" } as Reply, /./],
  ])("answers 201 FAILED with errorMessage when %s", async (_case, reply, message) => {
    const { schemaId } = await schemaWithVersion();
    upstream.handler = () => reply;
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "Invoice INV-1", model: MODEL },
      undefined,
      201,
    );
    expect(created).toMatchObject({ status: "FAILED", result: null });
    expect(created.errorMessage).toMatch(message);
  });

  it("answers 201 FAILED when the model is unavailable (no built-in service, no provider)", async () => {
    const { schemaId } = await schemaWithVersion();
    const failed = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "x", model: "hosted-a/gpt-x" },
      undefined,
      201,
    );
    expect(failed.status).toBe("FAILED");
    expect(failed.errorMessage).toMatch(/No HOSTED_A provider is configured/);
  });
});

describe("the version's extractionConfig", () => {
  it("drives key fields, literal checks and business rules; validation.enabled false switches scoring off", async () => {
    const { schemaId, versionId } = await schemaWithVersion();
    await tenant.store.schemas.setExtractionConfig(versionId, {
      rules: [{ id: "inv", type: "REGEX", field: "/invoiceNumber", pattern: "INV-\\d{4}-\\d{3}" }],
    });
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: documentOf(1), model: MODEL },
      undefined,
      201,
    );
    const rules = (created.result as unknown as Result).resultMetadata.rules as {
      outcomes: Array<Record<string, unknown>>;
    };
    expect(rules.outcomes).toEqual([
      expect.objectContaining({ ruleId: "inv", field: "/invoiceNumber", verdict: "PASS" }),
    ]);

    await tenant.store.schemas.setExtractionConfig(versionId, { validation: { enabled: false } });
    const off = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: documentOf(1), model: MODEL },
      undefined,
      201,
    );
    const metadata = (off.result as unknown as Result).resultMetadata;
    expect(metadata.schemaValidation).toMatchObject({ applied: false });
    expect(metadata.scoring).toBeNull();
    // the config is never sent to the model
    expect(JSON.stringify(upstream.requests.map((r) => r.body))).not.toContain("enabled");
  });
});

describe("request validation errors", () => {
  it.each([
    ["no input", {}, 400, "inputText"],
    [
      "11 images",
      { inputImages: Array.from({ length: 11 }, () => ({ data: "aGk=", mimeType: "image/png" })) },
      400,
      "inputImages",
    ],
    [
      "a tiff image",
      { inputImages: [{ data: "aGk=", mimeType: "image/tiff" }] },
      400,
      "inputImages[0].mimeType",
    ],
    [
      "image data that is not base64",
      { inputImages: [{ data: "not base64!", mimeType: "image/png" }] },
      400,
      "inputImages[0].data",
    ],
    ["an unknown model prefix", { inputText: "x", model: "nope/x" }, 400, "model"],
    ["no model", { inputText: "x", model: undefined }, 400, "model"],
    ["an unknown schema", { inputText: "x", schemaId: "sch_nope" }, 404, "schemaId"],
    ["an unknown pinned version", { inputText: "x", schemaVersionId: "scv_nope" }, 404, "schemaVersionId"],
  ])("%s → %i", async (_case, overrides, status, param) => {
    const { schemaId } = await schemaWithVersion();
    const failed = await json(
      "POST",
      "/v1/extractions",
      { schemaId, model: MODEL, ...overrides },
      undefined,
      status,
    );
    expect(failed.error.param).toBe(param);
    expect(upstream.requests).toHaveLength(0);
  });

  it("allows text and images combined, 10 images at most", async () => {
    const { schemaId } = await schemaWithVersion();
    const images = Array.from({ length: 10 }, () => ({ data: "aGk=", mimeType: "image/webp" }));
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "Invoice INV-9", inputImages: images, model: MODEL },
      undefined,
      201,
    );
    expect(created).toMatchObject({ status: "COMPLETED", imageCount: 10 });
  });

  it("409 for a deactivated pinned version, 404 while the schema has no version, 403 for viewers", async () => {
    const { schemaId, versionId } = await schemaWithVersion();
    await send("DELETE", `/v1/schemas/${schemaId}/versions/${versionId}`, undefined, tenant.keys.admin);
    await json(
      "POST",
      "/v1/extractions",
      { schemaId, schemaVersionId: versionId, inputText: "x", model: MODEL },
      undefined,
      409,
    );
    await json("POST", "/v1/extractions", { schemaId, inputText: "x", model: MODEL }, undefined, 404);
    await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "x", model: MODEL },
      tenant.keys.viewer,
      403,
    );
  });
});

describe("chunked extraction (50K–100K estimated tokens)", () => {
  it("carries context forward, dedups overlaps, removes an invented item, restores required fields", async () => {
    const { text, lines } = documentOfTokens(60_000);
    const { schemaId } = await schemaWithVersion();
    upstream.handler = (request) => readPart(request, (part) => part === 2);
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: text, model: MODEL },
      undefined,
      201,
    );
    expect(created).toMatchObject({ status: "COMPLETED", strategy: "CHUNKED" });

    const calls = upstream.requests.length;
    expect(calls).toBeGreaterThanOrEqual(3);
    const result = created.result as unknown as Result;
    expect(result.metadata.chunksProcessed).toBe(calls);

    // every part after the first carries a summary of what was extracted so far
    expect(userText(upstream.requests[0] as RecordedRequest)).not.toContain("Already extracted");
    for (const request of upstream.requests.slice(1)) {
      expect(userText(request)).toMatch(
        /Already extracted from the earlier parts[\s\S]*"lines": \d+ item\(s\) so far/,
      );
    }

    const output = result.structuredOutput;
    expect(output.lines).toHaveLength(lines);
    expect(new Set(output.lines.map((l) => l.partNumber)).size).toBe(lines);
    expect(output.lines.map((l) => l.lineNumber)).toEqual(Array.from({ length: lines }, (_, i) => i + 1));
    expect(output.invoiceNumber).toBe("INV-2024-001");
    expect(output.vendor).toBeNull();

    const dedup = result.resultMetadata.dedup as Record<string, number | boolean>;
    expect(dedup).toMatchObject({ applied: true, finalItemCount: lines + 1 });
    expect(dedup.itemsRemoved).toBeGreaterThan(0); // the overlaps were read twice
    expect(dedup.originalItemCount).toBe(
      lines + 1 + (dedup.itemsRemoved as number) + (dedup.itemsMerged as number),
    );
    expect(result.resultMetadata.postValidation).toEqual({
      applied: true,
      hallucinatedItemsRemoved: 1,
      requiredFieldsRestored: 1,
      removedItemKeys: ["PN-INVENTED-1"],
    });
    expect((result.resultMetadata.schemaValidation as { violations: unknown[] }).violations).toContainEqual(
      expect.objectContaining({ fieldPath: "/vendor", source: "RESTORED_NULL" }),
    );
    expect(result.resultMetadata.scoring).not.toBeNull();

    // Spans point into the whole document, not into the chunk the item came from.
    const last = lines - 1;
    const items = (result.resultMetadata.scoring as unknown as Scoring).items;
    const partNumber = output.lines[last]!.partNumber;
    const spans = items[`lines[${last}]`]!.fields.partNumber!.grounding.spans!;
    expect(spans).toEqual([{ start: text.lastIndexOf(partNumber), end: text.lastIndexOf(partNumber) + 8 }]);
  });
});

describe("grounding spans in the extraction response", () => {
  it("locates every grounded value in the input, in code points, the n-th repeated value at its n-th mention", async () => {
    const { schemaId } = await schemaWithVersion();
    // Emoji and CJK before the values: UTF-16 offsets would be off by one per emoji.
    const text = `😀😀 請求書\n${documentOf(3)}`;
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: text, model: MODEL },
      undefined,
      201,
    );
    const scoring = (created.result as unknown as Result).resultMetadata.scoring as unknown as Scoring;
    const codePoints = [...text];
    const cut = (span: { start: number; end: number }) => codePoints.slice(span.start, span.end).join("");

    const invoice = scoring.fields.invoiceNumber!.grounding;
    expect(invoice).toMatchObject({ basis: "exact_match", spans: [{ start: 15, end: 27 }] });
    expect(cut(invoice.spans![0]!)).toBe("INV-2024-001");
    // "widget" is every line's description: line n's is the n-th "widget" of the text.
    const widgets = [...text.matchAll(/widget/g)].map((match) => [...text.slice(0, match.index)].length);
    for (let line = 0; line < 3; line++) {
      const grounding = scoring.items[`lines[${line}]`]!.fields.description!.grounding;
      expect(grounding.spans).toEqual([{ start: widgets[line], end: widgets[line]! + 6 }]);
    }
    // lineNumber is a one-digit number: unverifiable and without spans.
    expect(scoring.items["lines[0]"]!.fields.lineNumber!.grounding).toEqual({
      score: 0.5,
      basis: "unverifiable",
    });
  });
});

describe("background extraction", () => {
  it("answers 202 with Location and Retry-After above 100K tokens, and completes in the background", async () => {
    const { text, lines } = documentOfTokens(100_500);
    const { schemaId } = await schemaWithVersion();
    const response = await send("POST", "/v1/extractions", { schemaId, inputText: text, model: MODEL });
    expect(response.status).toBe(202);
    const pending = await bodyOf(response);
    expect(pending).toMatchObject({ status: "PENDING", strategy: "ASYNC", result: null });
    expect(response.headers.get("location")).toBe(`/v1/extractions/${pending.id}`);
    expect(response.headers.get("retry-after")).toBe("5");

    worker = startExtractionWorker();
    const done = await poll(response.headers.get("location") as string);
    expect(done).toMatchObject({ status: "COMPLETED", strategy: "ASYNC", errorMessage: null });
    const result = done.result as unknown as Result;
    expect(result.structuredOutput.lines).toHaveLength(lines);
    expect(result.metadata.chunksProcessed).toBeGreaterThan(3);
    expect(result.resultMetadata.dedup).toMatchObject({ applied: true });
    expect(done.startedAt).not.toBeNull();
  });

  it("POST /v1/extractions/async is always 202, also for a small input, and keeps images only until it ran", async () => {
    const { schemaId } = await schemaWithVersion();
    const response = await send("POST", "/v1/extractions/async", {
      schemaId,
      inputText: documentOf(2),
      inputImages: [{ data: "aGk=", mimeType: "image/gif" }],
      model: MODEL,
    });
    expect(response.status).toBe(202);
    expect(response.headers.get("retry-after")).toBe("5");
    const pending = await bodyOf(response);
    expect(await tenant.store.extractions.images(pending.id as string)).toHaveLength(1);
    worker = startExtractionWorker();
    const done = await poll(`/v1/extractions/${pending.id}`);
    expect(done.status).toBe("COMPLETED");
    expect((done.result as unknown as Result).metadata.chunksProcessed).toBe(1);
    expect(await tenant.store.extractions.images(pending.id as string)).toEqual([]);
    const sent = upstream.requests[0]?.body as { messages: Array<{ content: Array<{ type: string }> }> };
    expect(sent.messages[1]?.content.map((part) => part.type)).toEqual(["text", "image_url"]);
  });

  it("records FAILED when the background run fails", async () => {
    const { schemaId } = await schemaWithVersion();
    upstream.handler = () => ({ text: "no json here" });
    const pending = await json(
      "POST",
      "/v1/extractions/async",
      { schemaId, inputText: "x", model: MODEL },
      undefined,
      202,
    );
    worker = startExtractionWorker();
    const done = await poll(`/v1/extractions/${pending.id}`);
    expect(done).toMatchObject({ status: "FAILED", result: null });
    expect(done.errorMessage).toMatch(/did not answer with JSON/);
  });
});

describe("POST /v1/extractions/estimate", () => {
  it("returns tokens, an output estimate and the strategy by size", async () => {
    const { schemaId } = await schemaWithVersion();
    const small = await json(
      "POST",
      "/v1/extractions/estimate",
      { schemaId, inputText: documentOf(10) },
      tenant.keys.viewer,
    );
    expect(small).toMatchObject({ strategy: "SINGLE_SHOT", inputTokens: estimateTokens(documentOf(10)) });
    expect(small.estimatedOutputTokens).toBeGreaterThan(0);
    const medium = await json("POST", "/v1/extractions/estimate", {
      schemaId,
      inputText: documentOfTokens(50_000).text,
    });
    expect(medium.strategy).toBe("CHUNKED");
    const large = await json("POST", "/v1/extractions/estimate", {
      schemaId,
      inputText: documentOfTokens(100_001).text,
    });
    expect(large.strategy).toBe("ASYNC");
    await json("POST", "/v1/extractions/estimate", { schemaId }, undefined, 400);
    await json("POST", "/v1/extractions/estimate", { schemaId: "sch_nope", inputText: "x" }, undefined, 404);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("POST /v1/extractions/{id}/rerun", () => {
  it("creates a new extraction with the original's version, text and model, billed again", async () => {
    const { schemaId, versionId } = await schemaWithVersion();
    const original = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: documentOf(2), model: MODEL },
      undefined,
      201,
    );
    // a newer version does not change what the rerun uses
    await json(
      "POST",
      `/v1/schemas/${schemaId}/versions`,
      { jsonSchema: { type: "object" } },
      undefined,
      201,
    );
    const rerun = await json("POST", `/v1/extractions/${original.id}/rerun`, undefined, undefined, 201);
    expect(rerun).toMatchObject({
      status: "COMPLETED",
      schemaVersionId: versionId,
      model: MODEL,
      rerunOf: original.id,
      strategy: "SINGLE_SHOT",
    });
    expect(rerun.id).not.toBe(original.id);
    expect(upstream.requests).toHaveLength(2);
    expect(await tenant.store.usage.list(tenant.organizationId)).toHaveLength(2);
    expect(await json("GET", `/v1/extractions/${original.id}`)).toEqual(original);
    // FAILED extractions may be rerun too
    upstream.handler = () => ({ text: "nope" });
    const failed = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "x", model: MODEL },
      undefined,
      201,
    );
    upstream.handler = (request) => readPart(request);
    expect((await json("POST", `/v1/extractions/${failed.id}/rerun`, undefined, undefined, 201)).status).toBe(
      "COMPLETED",
    );
  });

  it("reruns a background original in the background", async () => {
    const { schemaId } = await schemaWithVersion();
    worker = startExtractionWorker();
    const pending = await json(
      "POST",
      "/v1/extractions/async",
      { schemaId, inputText: "Invoice INV-7", model: MODEL },
      undefined,
      202,
    );
    await poll(`/v1/extractions/${pending.id}`);
    const response = await send("POST", `/v1/extractions/${pending.id}/rerun`);
    expect(response.status).toBe(202);
    expect(response.headers.get("location")).toMatch(/^\/v1\/extractions\/ext_/);
    expect((await poll(response.headers.get("location") as string)).status).toBe("COMPLETED");
  });

  it("404 when unknown or in another organization", async () => {
    const { schemaId } = await schemaWithVersion();
    const original = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "x", model: MODEL },
      undefined,
      201,
    );
    await json("POST", "/v1/extractions/ext_nope/rerun", undefined, undefined, 404);
    await json(
      "POST",
      `/v1/extractions/${original.id}/rerun`,
      undefined,
      await tenant.keyFor("admin", "enterprise"),
      404,
    );
  });

  it("409 while PENDING, for image-only originals, and once the schema version is deleted", async () => {
    const { schemaId, versionId } = await schemaWithVersion();
    const pending = await json(
      "POST",
      "/v1/extractions/async",
      { schemaId, inputText: "x", model: MODEL },
      undefined,
      202,
    );
    expect(
      (await json("POST", `/v1/extractions/${pending.id}/rerun`, undefined, undefined, 409)).error.message,
    ).toMatch(/PENDING/);

    const imageOnly = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputImages: [{ data: "aGk=", mimeType: "image/jpeg" }], model: MODEL },
      undefined,
      201,
    );
    expect(
      (await json("POST", `/v1/extractions/${imageOnly.id}/rerun`, undefined, undefined, 409)).error.message,
    ).toMatch(/image-only/);

    const done = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "x", model: MODEL },
      undefined,
      201,
    );
    await send("DELETE", `/v1/schemas/${schemaId}/versions/${versionId}`, undefined, tenant.keys.admin);
    expect(
      (await json("POST", `/v1/extractions/${done.id}/rerun`, undefined, undefined, 409)).error.message,
    ).toMatch(/deleted/);
  });
});

describe("GET /v1/extractions and DELETE /v1/extractions/{id}", () => {
  it("lists newest first with search (model), schemaVersionId, status and paging", async () => {
    await json(
      "POST",
      "/v1/providers",
      { name: "d", provider: "HOSTED_D", config: { baseUrl: upstream.url }, apiKey: "sk-d" },
      tenant.keys.admin,
      201,
    );
    const first = await schemaWithVersion();
    const second = await schemaWithVersion();
    const a = await json(
      "POST",
      "/v1/extractions",
      { schemaId: first.schemaId, inputText: "x", model: MODEL },
      undefined,
      201,
    );
    const b = await json(
      "POST",
      "/v1/extractions",
      { schemaId: second.schemaId, inputText: "x", model: "hosted-d/llm" },
      undefined,
      201,
    );
    upstream.handler = () => ({ text: "prose" });
    const c = await json(
      "POST",
      "/v1/extractions",
      { schemaId: first.schemaId, inputText: "x", model: MODEL },
      undefined,
      201,
    );

    const ids = async (query: string) =>
      (
        (await json("GET", `/v1/extractions${query}`, undefined, tenant.keys.viewer)).content as Array<{
          id: string;
        }>
      ).map((e) => e.id);
    expect(await ids("")).toEqual([c.id, b.id, a.id]);
    expect(await ids("?search=HOSTED-D")).toEqual([b.id]);
    expect(await ids(`?schemaVersionId=${first.versionId}`)).toEqual([c.id, a.id]);
    expect(await ids("?status=FAILED")).toEqual([c.id]);
    expect(await ids(`?status=COMPLETED&schemaVersionId=${first.versionId}`)).toEqual([a.id]);
    expect(await json("GET", "/v1/extractions?size=2&page=1")).toMatchObject({
      page: 1,
      size: 2,
      totalElements: 3,
      totalPages: 2,
      content: [{ id: a.id }],
    });
    expect((await json("GET", "/v1/extractions?status=DONE", undefined, undefined, 400)).error.param).toBe(
      "status",
    );
    expect((await json("GET", "/v1/extractions?size=0", undefined, undefined, 400)).error.param).toBe("size");
  });

  it("deletes with the Admin role only", async () => {
    const { schemaId } = await schemaWithVersion();
    const created = await json(
      "POST",
      "/v1/extractions",
      { schemaId, inputText: "x", model: MODEL },
      undefined,
      201,
    );
    expect((await send("DELETE", `/v1/extractions/${created.id}`)).status).toBe(403);
    expect((await send("DELETE", `/v1/extractions/${created.id}`, undefined, tenant.keys.admin)).status).toBe(
      204,
    );
    await json("GET", `/v1/extractions/${created.id}`, undefined, undefined, 404);
    expect((await send("DELETE", `/v1/extractions/${created.id}`, undefined, tenant.keys.admin)).status).toBe(
      404,
    );
  });
});

describe("POST /v1/schemas/{id}/test", () => {
  it("runs one call on the sample and persists nothing", async () => {
    const { schemaId } = await schemaWithVersion();
    const tested = await json("POST", `/v1/schemas/${schemaId}/test`, {
      jsonSchema,
      sampleText: documentOf(2),
      model: MODEL,
    });
    expect(tested).toMatchObject({
      success: true,
      extractedData: {
        invoiceNumber: "INV-2024-001",
        lines: [{ partNumber: "PN-00001" }, { partNumber: "PN-00002" }],
      },
      outputTokens: 19,
      modelUsed: MODEL,
    });
    expect(tested.inputTokens).toBeGreaterThan(0);
    expect(typeof tested.processingDurationMs).toBe("number");
    expect((await json("GET", "/v1/extractions")).totalElements).toBe(0);
    expect((await json("GET", `/v1/schemas/${schemaId}/versions`)).totalElements).toBe(1);
  });

  it("defaults to the latest version, reports failures as success false, validates the definition", async () => {
    const { schemaId } = await schemaWithVersion();
    expect(
      (await json("POST", `/v1/schemas/${schemaId}/test`, { sampleText: "Invoice INV-5", model: MODEL }))
        .success,
    ).toBe(true);
    upstream.handler = () => ({ text: "prose" });
    const failed = await json("POST", `/v1/schemas/${schemaId}/test`, { sampleText: "x", model: MODEL });
    expect(failed).toMatchObject({ success: false, extractedData: null });
    expect(failed.errorMessage).toMatch(/did not answer with JSON/);
    expect(
      (
        await json(
          "POST",
          `/v1/schemas/${schemaId}/test`,
          { jsonSchema: [1], sampleText: "x", model: MODEL },
          undefined,
          400,
        )
      ).error.message,
    ).toMatch(/must be a JSON object/);
    await json(
      "POST",
      `/v1/schemas/${schemaId}/test`,
      { jsonSchema, sampleText: "x", model: MODEL },
      tenant.keys.viewer,
      403,
    );
    const empty = await json("POST", "/v1/schemas", { name: "Empty" }, undefined, 201);
    await json("POST", `/v1/schemas/${empty.id}/test`, { sampleText: "x", model: MODEL }, undefined, 400);
  });
});
