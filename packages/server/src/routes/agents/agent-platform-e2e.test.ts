/**
 * Issue #19 end to end: an agent with a bound skill, a bearer connector (a real MCP server on
 * loopback) and `platform.bash` (`approval: "pause"`) runs through HTTP, through the MCP tool
 * server and through the library, pausing and continuing as PLATFORM.md §4.4, §5.3 and §6 say:
 * the connector pre-flight pauses before any model call, the continuation runs the skill,
 * connector and bash tools, bash pauses for approval, and the conversation's file system is
 * still there on a later turn. The scenario lives in test/agent-platform-scenario.ts.
 */
import type { AgentResponseObject, RunState } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import { createFastFetch } from "@groundwork/gateway";
import { createMcpServer } from "@groundwork/mcp";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AGENT_DEFINITION,
  bashOutput,
  type CallView,
  CHAT_URL,
  connectorBody,
  MODEL,
  modelRequest,
  READ_COMMAND,
  SERVER_LABEL,
  SKILL,
  SKILL_FILES,
  scriptFirstTurn,
  scriptLaterTurn,
  TOKEN,
  WRITE_COMMAND,
  WRITTEN,
} from "../../../test/agent-platform-scenario.js";
import { type McpFixture, startMcpFixture } from "../../../test/mcp-connector-fixture.js";
import { bearer, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Loose = Record<string, any>;

let upstream: Upstream;
let mcp: McpFixture;
let tenant: TestTenant;
let groundwork: Groundwork;
let app: App;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  mcp = await startMcpFixture({ token: TOKEN });
});
afterAll(async () => {
  await upstream.close();
  await mcp.close();
});
beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  mcp.authorizations.length = 0;
  groundwork = createGroundwork({
    store: tenant.store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "k" },
      allowPrivateNetwork: true,
      chatUrl: CHAT_URL,
    },
    fetch: createFastFetch(),
  });
  app = createApp({ groundwork });
});
afterEach(async () => await tenant.store.close());

async function call(method: string, path: string, body?: unknown, key = tenant.keys.member) {
  const response = await app.request(path, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text === "" ? {} : JSON.parse(text)) as Loose };
}

/** Imports the skill, applies the agent and registers the connector, all over HTTP. */
async function setUpOverHttp(): Promise<{ agentId: string; connectorId: string; host: string }> {
  const imported = await call("POST", "/v1/skills/import", { files: SKILL_FILES });
  expect(imported.status).toBe(201);
  const applied = await call("POST", "/v1/agents/apply", AGENT_DEFINITION);
  expect(applied.status).toBe(201);
  const agentId = applied.body.agent.id as string;
  const connector = await call("POST", "/v1/connectors", connectorBody(mcp.url, agentId), tenant.keys.admin);
  expect(connector.status).toBe(201);
  return { agentId, connectorId: connector.body.id, host: connector.body.host };
}

async function connectOverHttp(connectorId: string, agentId: string): Promise<void> {
  const put = await call("PUT", `/v1/connectors/${connectorId}/connection`, { token: TOKEN });
  expect(put.body.status).toBe("connected");
  const allowed = await call("PUT", `/v1/connectors/${connectorId}/allowances/${agentId}`, {});
  expect(allowed.status).toBe(200);
}

/** The first turn's tool calls before the bash approval: skill body, the member's token upstream. */
function expectSkillAndConnectorCalls(calls: CallView[]): void {
  const [skill, whoami, echo] = calls;
  expect(skill).toMatchObject({ callId: "k1", tool: "platform_skill", status: "completed" });
  expect(skill?.output).toContain("Copy the header template first.");
  expect(skill?.output).toContain("- templates/header.txt (");
  expect(skill?.output).not.toContain("description:");
  expect(whoami).toMatchObject({
    callId: "c1",
    tool: `${SERVER_LABEL}__whoami`,
    status: "completed",
    output: "token seen: yes",
  });
  expect(echo).toMatchObject({ callId: "c2", status: "completed", output: "echo: numbers" });
  expect(mcp.authorizations).toContain(`Bearer ${TOKEN}`);
}

/** What the model was offered and told on its first call. */
function expectFirstModelCall(): void {
  const first = modelRequest(upstream, 0);
  expect(first.system).toContain("Write reports for the user.");
  expect(first.system).toContain(`- ${SKILL} — Write short reports`);
  expect(first.tools).toEqual(
    expect.arrayContaining([
      "platform_skill",
      "platform_skill_read",
      "platform_bash",
      `${SERVER_LABEL}__whoami`,
      `${SERVER_LABEL}__echo`,
    ]),
  );
}

function expectApprovedBash(calls: CallView[], callId: string, stdout: string): void {
  const bash = calls.find((c) => c.callId === callId);
  expect(bash).toMatchObject({ tool: "platform_bash", status: "completed" });
  expect(bashOutput(bash)).toEqual({ stdout, stderr: "", exitCode: 0, truncated: false });
}

describe("HTTP: /v1/responses with agent/<name>", () => {
  it("pauses for the connection, runs skill, connector and bash (approved), and keeps /workspace for a later turn", async () => {
    const { agentId, connectorId, host } = await setUpOverHttp();

    // 1. Pre-flight: no connection yet → pause before any model call.
    const first = await call("POST", "/v1/responses", { model: MODEL, input: "Write the report" });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("completed");
    expect(first.body.output).toEqual([]);
    expect(first.body.run).toMatchObject({
      status: "requires_tool_output",
      pendingConnections: [
        expect.objectContaining({ serverLabel: SERVER_LABEL, host, reason: "connect", status: "pending" }),
      ],
    });
    expect(first.body.run.next).toContain(`${CHAT_URL}/connectors/${SERVER_LABEL}`);
    expect(upstream.requests).toHaveLength(0);

    // 2. The member connects (token + allowance) and continues with no input.
    await connectOverHttp(connectorId, agentId);
    scriptFirstTurn(upstream);
    const paused = await call("POST", "/v1/responses", { model: MODEL, previous_response_id: first.body.id });
    expect(paused.status).toBe(200);
    const run = paused.body.run as AgentResponseObject["run"];
    expect(run.status).toBe("requires_approval");
    expect(run.pendingApprovals).toEqual([
      expect.objectContaining({ tool: "platform_bash", callId: "b1", arguments: expect.any(String) }),
    ]);
    expect(JSON.parse(run.pendingApprovals[0]?.arguments ?? "{}")).toEqual({ command: WRITE_COMMAND });
    expect(paused.body.output).toEqual([
      expect.objectContaining({
        type: "approval_request",
        id: run.pendingApprovals[0]?.id,
        name: "platform_bash",
      }),
    ]);
    expect(run.next).toContain("approval_response");
    expectSkillAndConnectorCalls(run.toolCalls as CallView[]);
    expectFirstModelCall();
    expect(paused.text).not.toContain(TOKEN);
    // Nothing written before the approval.
    expect((await tenant.store.bashFiles.load(run.conversationId)).has("/workspace/out.txt")).toBe(false);

    // 3. Approve through the continuation: bash runs, the model answers.
    const done = await call("POST", "/v1/responses", {
      model: MODEL,
      previous_response_id: paused.body.id,
      input: [{ type: "approval_response", approval_request_id: run.pendingApprovals[0]?.id, approve: true }],
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("completed");
    expect(done.body.run).toMatchObject({ status: "completed", text: "Report written." });
    expectApprovedBash(done.body.run.toolCalls, "b1", WRITTEN);
    expect(done.body.output).toEqual([
      expect.objectContaining({
        type: "message",
        content: [expect.objectContaining({ type: "output_text", text: "Report written." })],
      }),
    ]);
    // The bash output reached the model after the approval.
    expect(JSON.stringify(upstream.requests[3]?.body)).toContain("REPORT HEADER");
    expect((await tenant.store.bashFiles.load(run.conversationId)).has("/workspace/out.txt")).toBe(true);

    // 4. A later turn in the same conversation still sees /workspace/out.txt.
    scriptLaterTurn(upstream);
    const later = await call("POST", "/v1/responses", {
      model: MODEL,
      input: "What does the report say?",
      previous_response_id: done.body.id,
    });
    expect(later.body.run.status).toBe("requires_approval");
    expect(later.body.run.conversationId).toBe(run.conversationId);
    const laterDone = await call("POST", "/v1/responses", {
      model: MODEL,
      previous_response_id: later.body.id,
      input: [
        {
          type: "approval_response",
          approval_request_id: later.body.run.pendingApprovals[0].id,
          approve: true,
        },
      ],
    });
    expect(laterDone.body.run.status).toBe("completed");
    expectApprovedBash(laterDone.body.run.toolCalls, "b2", WRITTEN);
    const lastMessages = ((upstream.requests.at(-1)?.body as Loose | undefined)?.messages ?? []) as Loose[];
    const tool = lastMessages.find((m) => m.role === "tool" && String(m.content).includes("REPORT HEADER"));
    expect(tool).toBeDefined();
    expect(JSON.parse(laterDone.body.run.toolCalls[0].arguments)).toEqual({ command: READ_COMMAND });
  });
});

describe("MCP: the tool server's svc_create_response", () => {
  interface ToolResult {
    isError?: boolean;
    structuredContent?: Loose;
  }

  /** A tool server (the member's key) whose API calls go to this app, and a client linked to it in memory. */
  async function toolClient(): Promise<Client> {
    const viaApp = ((input: string | URL | Request, init?: RequestInit) =>
      app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;
    const server = createMcpServer({
      apiKey: tenant.keys.member,
      baseUrl: "http://groundwork.test",
      chatUrl: CHAT_URL,
      fetch: viaApp,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("reports the connect pause, then (connected over HTTP) runs skill, connector and bash with an approval pause", async () => {
    const { agentId, connectorId } = await setUpOverHttp();
    const client = await toolClient();
    const tool = async (name: string, args: Loose) => {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      return result.structuredContent ?? {};
    };
    try {
      // Not connected: the envelope sends the user to the chat app's connect page.
      const notConnected = await tool("svc_create_response", { model: MODEL, input: "Write the report" });
      expect(notConnected).toMatchObject({
        status: "requires_tool_output",
        pendingConnections: [expect.objectContaining({ serverLabel: SERVER_LABEL, reason: "connect" })],
      });
      expect(notConnected.next).toContain(`${CHAT_URL}/connectors/${SERVER_LABEL}`);
      expect(notConnected.next).toContain("send the request again");
      expect(upstream.requests).toHaveLength(0);

      // The connection is made over HTTP; the request is sent again.
      await connectOverHttp(connectorId, agentId);
      scriptFirstTurn(upstream);
      const paused = await tool("svc_create_response", { model: MODEL, input: "Write the report" });
      expect(paused).toMatchObject({ status: "requires_approval", model: "gw-chat-1" });
      expect(paused.pendingApprovals).toEqual([
        expect.objectContaining({ tool: "platform_bash", callId: "b1" }),
      ]);
      expectSkillAndConnectorCalls(paused.toolCalls);
      expectFirstModelCall();
      expect(JSON.stringify(paused)).not.toContain(TOKEN);

      const done = await tool("svc_decide_agent_approvals", {
        agent: MODEL,
        responseId: paused.responseId,
        decisions: [{ approvalId: paused.pendingApprovals[0].id, decision: "approve" }],
      });
      expect(done).toMatchObject({ status: "completed", text: "Report written." });
      expectApprovedBash(done.toolCalls, "b1", WRITTEN);

      // A later turn of the same conversation reads the file back.
      scriptLaterTurn(upstream);
      const later = await tool("svc_create_response", {
        model: MODEL,
        input: "What does the report say?",
        previous_response_id: done.responseId,
      });
      expect(later).toMatchObject({ status: "requires_approval", conversationId: paused.conversationId });
      const laterDone = await tool("svc_decide_agent_approvals", {
        agent: MODEL,
        responseId: later.responseId,
        decisions: [{ approvalId: later.pendingApprovals[0].id, decision: "approve" }],
      });
      expect(laterDone.status).toBe("completed");
      expectApprovedBash(laterDone.toolCalls, "b2", WRITTEN);
    } finally {
      await client.close();
    }
  });
});

describe("Library: createGroundwork", () => {
  async function member(): Promise<Principal> {
    const principal = await tenant.store.apiKeys.authenticate(tenant.keys.member);
    if (principal === null) throw new Error("no principal");
    return principal;
  }

  const approveAll = (state: RunState) =>
    state.pendingApprovals.map((approval) => ({
      type: "approval_response" as const,
      approval_request_id: approval.id,
      approve: true,
    }));

  it("imports, applies, connects and runs through groundwork.* with the same pauses", async () => {
    const principal = await member();
    const imported = await groundwork.skills.import(principal, { files: SKILL_FILES });
    expect(imported.result).toBe("created");
    const { agent } = await groundwork.agentManagement.apply(principal, AGENT_DEFINITION);
    const connector = await groundwork.connectors.create(
      tenant.organizationId,
      connectorBody(mcp.url, agent.id),
    );

    const first = await groundwork.agents.respond(principal, { model: MODEL, input: "Write the report" });
    expect(first.status).toBe("requires_tool_output");
    expect(first.pendingConnections).toEqual([
      expect.objectContaining({ serverLabel: SERVER_LABEL, host: connector.host, reason: "connect" }),
    ]);
    expect(upstream.requests).toHaveLength(0);

    expect((await groundwork.connectors.connect(principal, connector.id, { token: TOKEN })).status).toBe(
      "connected",
    );
    // Connected but not yet allowed for this agent: the continuation pauses again, asking to allow.
    const again = await groundwork.agents.respond(principal, {
      model: MODEL,
      previous_response_id: first.id,
    });
    expect(again.pendingConnections).toEqual([expect.objectContaining({ reason: "allow" })]);
    await groundwork.connectors.allow(principal, connector.id, agent.id, {});

    scriptFirstTurn(upstream);
    const paused = await groundwork.agents.respond(principal, {
      model: MODEL,
      previous_response_id: again.id,
    });
    expect(paused.status).toBe("requires_approval");
    expect(paused.pendingApprovals.map((a) => [a.tool, a.callId])).toEqual([["platform_bash", "b1"]]);
    expectSkillAndConnectorCalls(paused.toolCalls);
    expectFirstModelCall();

    const done = await groundwork.agents.respond(principal, {
      model: MODEL,
      previous_response_id: paused.id,
      input: approveAll(paused),
    });
    expect(done.status).toBe("completed");
    expect(done.text).toBe("Report written.");
    expectApprovedBash(done.toolCalls, "b1", WRITTEN);

    scriptLaterTurn(upstream);
    const later = await groundwork.agents.respond(principal, {
      model: MODEL,
      input: "What does the report say?",
      previous_response_id: done.id,
    });
    expect(later.conversationId).toBe(paused.conversationId);
    const laterDone = await groundwork.agents.respond(principal, {
      model: MODEL,
      previous_response_id: later.id,
      input: approveAll(later),
    });
    expect(laterDone.status).toBe("completed");
    expectApprovedBash(laterDone.toolCalls, "b2", WRITTEN);
  });
});
