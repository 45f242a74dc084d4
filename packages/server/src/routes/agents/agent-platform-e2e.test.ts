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
beforeEach(() => {
  tenant = createTestTenant("enterprise");
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
afterEach(() => tenant.store.close());

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
      expect.objectContaining({ type: "approval_request", id: run.pendingApprovals[0]?.id, name: "platform_bash" }),
    ]);
    expect(run.next).toContain("approval_response");
    expectSkillAndConnectorCalls(run.toolCalls as CallView[]);
    expectFirstModelCall();
    expect(paused.text).not.toContain(TOKEN);
    // Nothing written before the approval.
    expect(tenant.store.bashFiles.load(run.conversationId).has("/workspace/out.txt")).toBe(false);

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
    expect(tenant.store.bashFiles.load(run.conversationId).has("/workspace/out.txt")).toBe(true);

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
    const tool = (upstream.requests.at(-1)?.body as Loose).messages.find(
      (m: Loose) => m.role === "tool" && String(m.content).includes("REPORT HEADER"),
    );
    expect(tool).toBeDefined();
    expect(JSON.parse(laterDone.body.run.toolCalls[0].arguments)).toEqual({ command: READ_COMMAND });
  });
});
