/**
 * Extraction from an uploaded file (`fileId`, decision PV12): the PDF is converted to Markdown, the
 * model (a scripted upstream on 127.0.0.1) reads that, and every grounded value's span carries the
 * page and PDF box of the block it lies in. The conversion's JSON output shows the same per-block
 * page and box.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork } from "@groundwork/platform";
import { buildPdf, type RecordedRequest, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

const MODEL = "gw-chat-1";
const SIZE = 11;
let upstream: Upstream;
let tenant: TestTenant;
let app: App;

// testkit's PDF: US Letter, Helvetica at x = 72, each line's baseline 1.5 × size below the previous
// one starting from y = 740 (PDF points, origin bottom-left).
const PAGES = [
  { lines: [{ text: "Cover letter for the enclosed invoice, with nothing to extract here." }] },
  {
    lines: [
      { text: "Dear customer, please find the invoice below." },
      { text: "Invoice INV-2024-0042 from Acme Tools" },
    ],
  },
];
const INVOICE_BASELINE = 740 - SIZE * 1.5 * 2;

function userText(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  const content = body.messages?.find((m) => m.role === "user")?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: [MODEL] });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  // Reads the text like a model would: the invoice number and vendor as they are written.
  upstream.handler = (request) => {
    const match = /Invoice (INV-[\w-]+) from ([\w ]+)/.exec(userText(request));
    return {
      text: JSON.stringify({ invoiceNumber: match?.[1] ?? null, vendor: match?.[2]?.trim() ?? null }),
      usage: { inputTokens: 50, outputTokens: 10 },
    };
  };
  const groundwork = createGroundwork({
    store: tenant.store,
    config: { builtin: { baseUrl: upstream.url, apiKey: "builtin-secret" } },
    fetch: createFastFetch(),
  });
  app = createApp({ groundwork });
});
afterEach(() => tenant.store.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
type Body = any;

async function call(method: string, path: string, body: unknown, key = tenant.keys.member) {
  const response = await app.request(path, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await bodyOf(response)) as Body };
}

async function uploadPdf(key = tenant.keys.member): Promise<string> {
  const form = new FormData();
  form.append("file", new File([buildPdf(PAGES)], "invoice.pdf", { type: "application/pdf" }));
  form.append("purpose", "knowledge");
  const response = await app.request("/v1/files", { method: "POST", headers: bearer(key), body: form });
  expect(response.status).toBe(201);
  return ((await bodyOf(response)) as Body).id as string;
}

async function schemaId(): Promise<string> {
  const schema = await call("POST", "/v1/schemas", { name: "Invoice" });
  await call("POST", `/v1/schemas/${schema.body.id}/versions`, {
    jsonSchema: {
      type: "object",
      properties: { invoiceNumber: { type: "string" }, vendor: { type: "string" } },
    },
  });
  return schema.body.id;
}

describe("POST /v1/extractions with fileId", () => {
  it("extracts from the PDF's Markdown; spans carry the page and a box holding the printed value", {
    timeout: 90_000,
  }, async () => {
    const fileId = await uploadPdf();
    const created = await call("POST", "/v1/extractions", {
      schemaId: await schemaId(),
      fileId,
      model: MODEL,
    });
    expect(created.status, JSON.stringify(created.body).slice(0, 400)).toBe(201);
    expect(created.body.result.structuredOutput).toEqual({
      invoiceNumber: "INV-2024-0042",
      vendor: "Acme Tools",
    });
    const grounding = created.body.result.resultMetadata.scoring.fields.invoiceNumber.grounding;
    expect(grounding.basis).toBe("exact_match");
    const [span] = grounding.spans;
    expect([...created.body.inputText].slice(span.start, span.end).join("")).toBe("INV-2024-0042");
    expect(span.page).toBe(2);
    const [x0, y0, x1, y1] = span.bbox as number[];
    // The block's box holds the printed line, from its left margin, within a few points.
    expect(Math.abs(x0! - 72)).toBeLessThan(2);
    expect(x1!).toBeGreaterThan(72 + 100);
    expect(y0!).toBeLessThanOrEqual(INVOICE_BASELINE);
    expect(y0!).toBeGreaterThan(INVOICE_BASELINE - SIZE);
    expect(y1!).toBeGreaterThanOrEqual(INVOICE_BASELINE + SIZE * 0.7);
    // The block is the paragraph of both page-2 lines: its box reaches up to the first one, no higher.
    expect(y1!).toBeLessThan(740);
    // The stored extraction reads the same (the placements are kept with it).
    const read = await call("GET", `/v1/extractions/${created.body.id}`, undefined, tenant.keys.viewer);
    expect(read.body.result.resultMetadata.scoring.fields.invoiceNumber.grounding.spans).toEqual([span]);
    // A rerun keeps them: the same spans with the same pages and boxes.
    const rerun = await call("POST", `/v1/extractions/${created.body.id}/rerun`, {});
    expect(rerun.body.result?.resultMetadata.scoring.fields.invoiceNumber.grounding.spans).toEqual([span]);
  });

  it("spans of an extraction from plain text carry no page or box", async () => {
    const created = await call("POST", "/v1/extractions", {
      schemaId: await schemaId(),
      inputText: "Invoice INV-2024-0042 from Acme Tools",
      model: MODEL,
    });
    const [span] = created.body.result.resultMetadata.scoring.fields.invoiceNumber.grounding.spans;
    expect(span).toEqual({ start: 8, end: 21 });
  });

  it("refuses fileId beside inputText, an unknown or another organization's file (400/404 with param)", {
    timeout: 90_000,
  }, async () => {
    const id = await schemaId();
    const fileId = await uploadPdf();
    const both = await call("POST", "/v1/extractions", {
      schemaId: id,
      fileId,
      inputText: "x",
      model: MODEL,
    });
    expect(both.status).toBe(400);
    expect(both.body.error.param).toBe("fileId");
    const unknown = await call("POST", "/v1/extractions", {
      schemaId: id,
      fileId: "file_nope",
      model: MODEL,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe("fileId");
    const wrongType = await call("POST", "/v1/extractions", { schemaId: id, fileId: 42, model: MODEL });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.param).toBe("fileId");
    // Another organization's file is unknown here.
    const otherFile = await uploadPdf(await tenant.keyFor("member", "enterprise"));
    const foreign = await call("POST", "/v1/extractions", { schemaId: id, fileId: otherFile, model: MODEL });
    expect(foreign.status).toBe(404);
    // A viewer may not extract.
    const viewer = await call(
      "POST",
      "/v1/extractions",
      { schemaId: id, fileId, model: MODEL },
      tenant.keys.viewer,
    );
    expect(viewer.status).toBe(403);
  });

  it("the conversion JSON output carries each block's page and box", { timeout: 90_000 }, async () => {
    const converted = await call("POST", "/v1/convert/source", {
      sources: [
        { kind: "base64", content: Buffer.from(buildPdf(PAGES)).toString("base64"), filename: "invoice.pdf" },
      ],
      options: { options: { outputFormats: ["JSON"] } },
    });
    expect(converted.status, JSON.stringify(converted.body).slice(0, 300)).toBe(200);
    const blocks = converted.body.documents[0].jsonContent.blocks as Body[];
    const invoice = blocks.find((block) => String(block.text ?? "").includes("INV-2024-0042"));
    expect(invoice).toMatchObject({ page: 2 });
    expect(invoice!.bbox).toHaveLength(4);
    expect(invoice!.bbox[1]).toBeLessThanOrEqual(INVOICE_BASELINE);
  });
});
