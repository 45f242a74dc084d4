/** `platform.extraction` and `platform.document_convert` inside agent runs. */
import type { AgentResponseObject } from "@groundwork/agents";
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let upstream: Upstream;
let tenant: TestTenant;
let app: App;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  const gateway = createStoreGateway(tenant.store, {
    builtin: { baseUrl: upstream.url, apiKey: "k" },
    fetch: createFastFetch(),
  });
  app = createApp({ store: tenant.store, gateway, builtinConfigured: true });
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.request(path, {
    method: "POST",
    headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("platform tools", () => {
  it("platform.extraction extracts with a configured schema and refuses others", async () => {
    const schema = await post("/v1/schemas", { name: "Invoice" });
    await post(`/v1/schemas/${schema.body.id}/versions`, {
      jsonSchema: {
        type: "object",
        properties: { invoiceNumber: { type: "string" } },
        required: ["invoiceNumber"],
      },
    });
    const applied = await post("/v1/agents/apply", {
      name: "extractor",
      model: "gw-chat-1",
      tools: [{ type: "platform.extraction", config: { schemaIds: [schema.body.id] } }],
    });
    expect(applied.status).toBe(201);
    upstream.enqueue(
      {
        toolCalls: [
          {
            id: "x1",
            name: "platform_extraction",
            arguments: { schemaId: "sch_other", text: "Invoice INV-7" },
          },
          {
            id: "x2",
            name: "platform_extraction",
            arguments: { schemaId: schema.body.id as string, text: "Invoice INV-7" },
          },
        ],
      },
      { text: JSON.stringify({ invoiceNumber: "INV-7" }) },
      { text: "The invoice number is INV-7." },
    );
    const { body } = await post("/v1/responses", { model: "agent/extractor", input: "extract" });
    const run = (body as unknown as AgentResponseObject).run;
    expect(run.status).toBe("completed");
    expect(run.toolCalls[0]).toMatchObject({ callId: "x1", status: "failed" });
    expect(run.toolCalls[0]?.output).toMatch(/not configured/);
    expect(run.toolCalls[1]).toMatchObject({ callId: "x2", status: "completed" });
    expect(JSON.parse(run.toolCalls[1]?.output ?? "{}")).toMatchObject({ data: { invoiceNumber: "INV-7" } });
    expect(run.text).toBe("The invoice number is INV-7.");
  });

  it("platform.document_convert turns a base64 document into Markdown", async () => {
    await post("/v1/agents/apply", {
      name: "converter",
      model: "gw-chat-1",
      tools: [{ type: "platform.document_convert" }],
    });
    const content = Buffer.from("# Title\n\nSome body text.").toString("base64");
    upstream.enqueue(
      {
        toolCalls: [
          { id: "d1", name: "platform_document_convert", arguments: { content, filename: "note.md" } },
        ],
      },
      { text: "Converted." },
    );
    const { body } = await post("/v1/responses", { model: "agent/converter", input: "convert" });
    const run = (body as unknown as AgentResponseObject).run;
    expect(run.toolCalls[0]).toMatchObject({ status: "completed" });
    expect(run.toolCalls[0]?.output).toMatch(/Some body text/);
  });
});
