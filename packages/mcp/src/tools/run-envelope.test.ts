/**
 * Connector pauses point at the chat app (AI_SERVICE_CHAT_URL): through the envelope
 * function, and through a tool server whose API answers such a pause.
 */
import type { JsonObject } from "@groundwork/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../server.js";
import { runEnvelope } from "./run-envelope.js";

const CHAT = "https://chat.example.com";

function response(run: JsonObject, output: JsonObject[] = []): JsonObject {
  return {
    id: "resp_1",
    object: "response",
    model: "agent/support",
    output,
    run: {
      status: "requires_tool_output",
      responseId: "resp_1",
      pendingApprovals: [],
      pendingToolCalls: [],
      pendingConnections: [],
      pendingInputs: [],
      next: "server hint",
      model: "gw-chat",
      ...run,
    },
  };
}

describe("runEnvelope", () => {
  it("sends a connector-only pause to the chat app's connect page and says how to go on", () => {
    const envelope = runEnvelope(
      response({ pendingConnections: [{ serverLabel: "crm", host: "crm.example.com", reason: "connect" }] }),
      CHAT,
    );
    expect(envelope.next).toBe(
      "Connect in the chat app — crm (connect): https://chat.example.com/connectors/crm; then send the request again without a conversation (a connector pause cannot be continued by id through the tool server)",
    );
    expect(envelope.model).toBe("gw-chat");
  });

  it("with approvals alongside, continues with svc_decide_agent_approvals", () => {
    const envelope = runEnvelope(
      response({
        status: "requires_approval",
        pendingApprovals: [{ id: "apr_1", tool: "refund" }],
        pendingConnections: [{ serverLabel: "crm", reason: "allow" }],
      }),
      CHAT,
    );
    expect(envelope.next).toMatch(
      /crm \(allow\): https:\/\/chat\.example\.com\/connectors\/crm;.*svc_decide_agent_approvals/,
    );
  });

  it("points each connector question's answerUrl at the chat app", () => {
    const envelope = runEnvelope(
      response({
        pendingInputs: [{ inputRequestId: "inp_1", serverLabel: "crm", mode: "form", answerUrl: "x" }],
      }),
      CHAT,
    );
    expect(envelope.pendingInputs).toEqual([
      {
        inputRequestId: "inp_1",
        serverLabel: "crm",
        mode: "form",
        answerUrl: `${CHAT}/connector-inputs/inp_1`,
      },
    ]);
    expect(envelope.next).toContain(`${CHAT}/connector-inputs/inp_1`);
  });

  it("names the item types of a pause it cannot decode and sends the user to the chat app", () => {
    const envelope = runEnvelope(response({}, [{ type: "mcp_approval_request", id: "x" }]), CHAT);
    expect(envelope.next).toBe(
      "The run waits for mcp_approval_request the tool server cannot answer; answer in the chat app at https://chat.example.com",
    );
  });

  it("keeps the server's hint for pauses answered through the tool server", () => {
    const envelope = runEnvelope(
      response({ pendingToolCalls: [{ tool: "lookup", callId: "c1", arguments: "{}" }] }),
      CHAT,
    );
    expect(envelope.next).toBe("server hint");
  });
});

describe("svc_create_response with a connector pause", () => {
  async function connect(options: { chatUrl?: string; baseUrl: string }) {
    const fakeApi: typeof fetch = async () =>
      new Response(
        JSON.stringify(response({ pendingConnections: [{ serverLabel: "crm", reason: "connect" }] })),
        { status: 200, headers: { "content-type": "application/json" } },
      );
    const server = createMcpServer({ apiKey: "k", fetch: fakeApi, ...options });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const result = (await client.callTool({
      name: "svc_create_response",
      arguments: { model: "agent/support", input: "hi" },
    })) as { structuredContent?: { next?: string } };
    await client.close();
    return result.structuredContent?.next ?? "";
  }

  it("points at the configured chat URL", async () => {
    expect(await connect({ baseUrl: "https://api.example.com", chatUrl: CHAT })).toContain(
      `${CHAT}/connectors/crm`,
    );
  });

  it("without one, at the chat origin derived from the base", async () => {
    expect(await connect({ baseUrl: "http://127.0.0.1:8080" })).toContain(
      "http://127.0.0.1:8080/connectors/crm",
    );
  });
});
