/** Agent runs read by the real `openai` SDK over a socket: create, continue, stream. */
import type { AgentResponseObject } from "@groundwork/agents";
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { createApp } from "../../app.js";
import { listen, type RunningHttpServer } from "../../http-server.js";

let upstream: Upstream;
let tenant: TestTenant;
let server: RunningHttpServer;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  tenant = await createTestTenant("enterprise");
  const gateway = createStoreGateway(tenant.store, {
    builtin: { baseUrl: upstream.url, apiKey: "k" },
    fetch: createFastFetch(),
  });
  const app = createApp({ store: tenant.store, gateway, builtinConfigured: true });
  server = await listen(app, { host: "127.0.0.1", port: 0 });
  client = new OpenAI({ apiKey: tenant.keys.member, baseURL: `${server.url}/v1`, maxRetries: 0 });
  const applied = await app.request("/v1/agents/apply", {
    method: "POST",
    headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
    body: JSON.stringify({
      name: "helper",
      model: "gw-chat-1",
      tools: [{ name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
    }),
  });
  expect(applied.status).toBe(201);
});
afterAll(async () => {
  await server.close(0);
  await tenant.store.close();
  await upstream.close();
});

describe("the openai SDK", () => {
  it("reads an agent answer, a relayed call and its continuation", async () => {
    upstream.enqueue(
      { toolCalls: [{ id: "call_W", name: "weather", arguments: { city: "Oslo" } }] },
      { text: "Cold in Oslo." },
    );
    const paused = await client.responses.create({ model: "agent/helper", input: "weather in Oslo?" });
    const call = paused.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ call_id: "call_W", name: "weather" });
    expect((paused as unknown as AgentResponseObject).run.status).toBe("requires_tool_output");
    const done = await client.responses.create({
      model: "agent/helper",
      previous_response_id: paused.id,
      input: [{ type: "function_call_output", call_id: "call_W", output: "-5 C" }],
    });
    expect(done.output_text).toBe("Cold in Oslo.");
  });

  it("streams with responses.stream()", async () => {
    upstream.enqueue({ text: "Streamed answer" });
    const stream = client.responses.stream({ model: "agent/helper", input: "hi" });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas.join("")).toBe("Streamed answer");
    expect(final.output_text).toBe("Streamed answer");
    expect((final as unknown as AgentResponseObject).run.status).toBe("completed");
  });
});
