/**
 * Connectors over HTTP (PLATFORM.md §5.3) against a real MCP server (the SDK's server on a
 * loopback port) and a scripted OpenAI-compatible upstream: registration, connections,
 * allowances, run pre-flight, tools called end to end, expired sign-ins, questions.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type McpFixture, startMcpFixture } from "../../../test/mcp-connector-fixture.js";
import { bearer, createTestTenant, queryTestStore, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { createLogger } from "../../logger.js";

let upstream: Upstream;
let mcp: McpFixture;
let tenant: TestTenant;
let app: App;
let groundwork: Groundwork;
let stranger: string;
let logLines: string[];

const TOKEN = "secret-token-4f9a";

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Loose = Record<string, any>;

/** The body of the upstream's request `index` (a chat request). */
function sent(index: number): Loose {
  const request = upstream.requests[index];
  if (request === undefined) throw new Error(`no upstream request ${index}`);
  return request.body as Loose;
}

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  mcp = await startMcpFixture({ token: TOKEN });
});
afterAll(async () => {
  await upstream.close();
  await mcp.close();
});

function build(allowPrivateNetwork = true, agents: Record<string, number> = {}): App {
  groundwork = createGroundwork({
    store: tenant.store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "k" },
      allowPrivateNetwork,
      chatUrl: "https://chat.example",
      agents,
    },
    fetch: createFastFetch(),
  });
  return createApp({
    groundwork,
    logger: createLogger({ level: "debug", write: (line) => logLines.push(line) }),
  });
}

beforeEach(async () => {
  logLines = [];
  tenant = await createTestTenant("enterprise");
  stranger = await tenant.keyFor("admin", "enterprise");
  upstream.reset();
  mcp.setToken(TOKEN);
  mcp.revokeOnCall(null);
  mcp.authorizations.length = 0;
  app = build();
});
afterEach(async () => await tenant.store.close());

async function call(method: string, path: string, body?: unknown, key = tenant.keys.admin) {
  const response = await app.request(path, {
    method,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    headers: { ...bearer(key), "content-type": "application/json" },
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: (text === "" ? null : JSON.parse(text)) as Loose,
  };
}

async function agent(name = "helper") {
  const result = await call(
    "POST",
    "/v1/agents/apply",
    { name, models: ["gw-chat-1"], instructions: "Help.", hitlPolicy: { version: 1, default: "allow" } },
    tenant.keys.member,
  );
  expect([200, 201]).toContain(result.status);
  return result.body.agent.id as string;
}

async function connector(body: Record<string, unknown>) {
  const result = await call("POST", "/v1/connectors", { serverLabel: "files", url: mcp.url, ...body });
  expect(result.status).toBe(201);
  return result.body;
}

async function respond(body: Record<string, unknown>, key = tenant.keys.member) {
  const result = await call("POST", "/v1/responses", body, key);
  return {
    status: result.status,
    text: result.text,
    body: result.body,
  };
}

describe("registration", () => {
  it("creates, lists, reads, updates and deletes (Admin); defaults as the contract says", async () => {
    const created = await connector({});
    expect(created).toMatchObject({
      serverLabel: "files",
      url: mcp.url,
      host: new URL(mcp.url).host,
      authKind: "none",
      description: null,
      agentIds: [],
      enabled: true,
      pluginId: null,
    });
    expect(created.id).toMatch(/^cnr_/);
    expect(created.createdAt).toMatch(/Z$/);
    const list = await call("GET", "/v1/connectors", undefined, tenant.keys.viewer);
    expect(list.body).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    expect((await call("GET", `/v1/connectors/${created.id}`, undefined, tenant.keys.viewer)).status).toBe(
      200,
    );
    const patched = await call("PATCH", `/v1/connectors/${created.id}`, {
      description: "Files",
      enabled: false,
    });
    expect(patched.body).toMatchObject({ description: "Files", enabled: false });
    expect((await call("DELETE", `/v1/connectors/${created.id}`)).status).toBe(204);
    expect((await call("GET", `/v1/connectors/${created.id}`)).status).toBe(404);
  });

  it("roles: viewers and members read; only admins register, update and delete", async () => {
    const created = await connector({});
    for (const key of [tenant.keys.viewer, tenant.keys.member]) {
      expect((await call("POST", "/v1/connectors", { serverLabel: "x", url: mcp.url }, key)).status).toBe(
        403,
      );
      expect((await call("PATCH", `/v1/connectors/${created.id}`, { enabled: false }, key)).status).toBe(403);
      expect((await call("DELETE", `/v1/connectors/${created.id}`, undefined, key)).status).toBe(403);
    }
  });

  it("validation: 400 naming the field; 409 label taken; 404 unknown agent; no 500 on junk", async () => {
    const bad = await call("POST", "/v1/connectors", { serverLabel: "Bad Label", url: mcp.url });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: "invalid_request_error", param: "serverLabel" });
    expect(
      (await call("POST", "/v1/connectors", { serverLabel: "a", url: "ftp://x" })).body.error.param,
    ).toBe("url");
    expect(
      (await call("POST", "/v1/connectors", { serverLabel: "a", url: mcp.url, authKind: "magic" })).body.error
        .param,
    ).toBe("authKind");
    const unknown = await call("POST", "/v1/connectors", {
      serverLabel: "a",
      url: mcp.url,
      agentIds: ["agt_nope"],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe("agentIds[0]");
    await connector({});
    expect((await call("POST", "/v1/connectors", { serverLabel: "files", url: mcp.url })).status).toBe(409);
    for (const junk of [
      "not json",
      "[]",
      "null",
      '{"serverLabel":1}',
      '{"url":{}}',
      '{"serverLabel":"z","url":"x".repeat}',
    ]) {
      const result = await call("POST", "/v1/connectors", junk);
      expect(result.status, junk).toBe(400);
    }
    const created = await connector({ serverLabel: "other" });
    for (const junk of ["nope", '{"agentIds":"x"}', '{"enabled":"yes"}', '{"url":""}']) {
      expect((await call("PATCH", `/v1/connectors/${created.id}`, junk)).status, junk).toBe(400);
    }
  });

  it("pages and odd ids: bad page queries are 400 naming the field, odd ids 404, never 5xx", async () => {
    const bad = await call("GET", "/v1/connectors?page=-1");
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("page");
    expect((await call("GET", "/v1/connectors?size=101")).body.error.param).toBe("size");
    for (const id of ["x", "cnr_%00", "%20", "a".repeat(300)]) {
      for (const path of [
        `/v1/connectors/${id}`,
        `/v1/connectors/${id}/connection`,
        `/v1/connector-inputs/${id}`,
      ]) {
        const result = await call("GET", path);
        expect(result.status, path).toBe(404);
      }
      const answer = await call("POST", `/v1/connector-inputs/${id}/answer`, { action: "cancel" });
      expect(answer.status).toBe(404);
    }
  });

  it("refuses a loopback URL unless private networks are allowed (400 private_network)", async () => {
    app = build(false);
    const refused = await call("POST", "/v1/connectors", {
      serverLabel: "local",
      url: "http://127.0.0.1:9/mcp",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "private_network", param: "url" });
  });

  it("another organization's connector is 404", async () => {
    const created = await connector({});
    expect((await call("GET", `/v1/connectors/${created.id}`, undefined, stranger)).status).toBe(404);
    expect((await call("PATCH", `/v1/connectors/${created.id}`, { enabled: false }, stranger)).status).toBe(
      404,
    );
    expect((await call("DELETE", `/v1/connectors/${created.id}`, undefined, stranger)).status).toBe(404);
    expect((await call("GET", `/v1/connectors/${created.id}/connection`, undefined, stranger)).status).toBe(
      404,
    );
    expect((await call("GET", "/v1/connectors", undefined, stranger)).body.totalElements).toBe(0);
  });

  it("plugin connectors are changed only by their plugin (409 managed_by_plugin)", async () => {
    const created = await groundwork.connectors.createForPlugin(tenant.organizationId, "plg_1", {
      serverLabel: "plugged",
      url: mcp.url,
    });
    const patch = await call("PATCH", `/v1/connectors/${created.id}`, { enabled: false });
    expect(patch.status).toBe(409);
    expect(patch.body.error.code).toBe("managed_by_plugin");
    expect((await call("DELETE", `/v1/connectors/${created.id}`)).body.error.code).toBe("managed_by_plugin");
    await groundwork.connectors.updateForPlugin(tenant.organizationId, "plg_1", created.id, {
      enabled: false,
    });
    await groundwork.connectors.deleteForPlugin(tenant.organizationId, "plg_1", created.id);
    expect((await call("GET", `/v1/connectors/${created.id}`)).status).toBe(404);
  });
});

describe("connections and allowances", () => {
  it("stores a bearer token (never returned), answers the caller's own connection, and disconnects", async () => {
    const created = await connector({ authKind: "bearer" });
    const before = await call(
      "GET",
      `/v1/connectors/${created.id}/connection`,
      undefined,
      tenant.keys.viewer,
    );
    expect(before.body).toMatchObject({ status: "not_connected", connectedAt: null, allowances: [] });
    const put = await call(
      "PUT",
      `/v1/connectors/${created.id}/connection`,
      { token: TOKEN },
      tenant.keys.viewer,
    );
    expect(put.status).toBe(200);
    expect(put.body.status).toBe("connected");
    expect(put.text).not.toContain(TOKEN);
    // Stored sealed, never in plain text.
    const raw = JSON.stringify(await queryTestStore(tenant.store, "SELECT * FROM connector_connections"));
    expect(raw).not.toContain(TOKEN);
    // Another member has their own connection.
    expect(
      (await call("GET", `/v1/connectors/${created.id}/connection`, undefined, tenant.keys.member)).body
        .status,
    ).toBe("not_connected");
    expect(
      (await call("DELETE", `/v1/connectors/${created.id}/connection`, undefined, tenant.keys.viewer)).status,
    ).toBe(204);
    expect(
      (await call("GET", `/v1/connectors/${created.id}/connection`, undefined, tenant.keys.viewer)).body
        .status,
    ).toBe("not_connected");
    const empty = await call(
      "PUT",
      `/v1/connectors/${created.id}/connection`,
      { token: "" },
      tenant.keys.viewer,
    );
    expect(empty.body.error.param).toBe("token");
    expect(
      (await call("PUT", `/v1/connectors/${created.id}/connection`, { token: "x".repeat(8193) })).status,
    ).toBe(400);
  });

  it("none → always connected, 400 connection_not_needed; oauth → 501 oauth_not_supported", async () => {
    const none = await connector({});
    expect((await call("GET", `/v1/connectors/${none.id}/connection`)).body.status).toBe("connected");
    const put = await call("PUT", `/v1/connectors/${none.id}/connection`, { token: "t" });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe("connection_not_needed");
    const oauth = await connector({ serverLabel: "oauthy", authKind: "oauth" });
    const refused = await call("PUT", `/v1/connectors/${oauth.id}/connection`, { token: "t" });
    expect(refused.status).toBe(501);
    expect(refused.body.error.code).toBe("oauth_not_supported");
  });

  it("allowances: default [host], other destinations 400, unattached agent 404; authKind change drops connections", async () => {
    const agentId = await agent();
    const other = await agent("other");
    const created = await connector({ authKind: "bearer", agentIds: [agentId] });
    const host = created.host as string;
    const allowed = await call(
      "PUT",
      `/v1/connectors/${created.id}/allowances/${agentId}`,
      undefined,
      tenant.keys.viewer,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.body.allowances).toEqual([
      { agentId, destinations: [host], allowedAt: expect.any(String) },
    ]);
    const wrong = await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {
      destinations: ["evil.example"],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe("destinations[0]");
    expect((await call("PUT", `/v1/connectors/${created.id}/allowances/${other}`, {})).status).toBe(404);
    expect((await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, "junk")).status).toBe(
      400,
    );
    expect((await call("DELETE", `/v1/connectors/${created.id}/allowances/${other}`)).status).toBe(404);
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.viewer);
    await call("PATCH", `/v1/connectors/${created.id}`, { authKind: "oauth" });
    const after = await call("GET", `/v1/connectors/${created.id}/connection`, undefined, tenant.keys.viewer);
    expect(after.body.status).toBe("not_connected");
    expect(after.body.allowances).toHaveLength(1);
    expect(
      (
        await call(
          "DELETE",
          `/v1/connectors/${created.id}/allowances/${agentId}`,
          undefined,
          tenant.keys.viewer,
        )
      ).status,
    ).toBe(204);
  });
});

describe("agent runs", () => {
  async function setup() {
    const agentId = await agent();
    const created = await connector({ authKind: "bearer", agentIds: [agentId] });
    return { agentId, created };
  }

  it("pauses before the first model call (connect, allow), then lists and calls the tools with the member's token", async () => {
    const { agentId, created } = await setup();
    const first = await respond({ model: "agent/helper", input: "echo hi" });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("completed");
    expect(first.body.output).toEqual([]);
    expect(first.body.run.status).toBe("requires_tool_output");
    expect(first.body.run.pendingConnections).toEqual([
      {
        serverLabel: "files",
        host: created.host,
        reason: "connect",
        expiresAt: expect.any(String),
        status: "pending",
      },
    ]);
    expect(first.body.run.next).toContain("https://chat.example/connectors/files");
    expect(upstream.requests).toHaveLength(0);

    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    const second = await respond({ model: "agent/helper", previous_response_id: first.body.id });
    expect(second.body.run.pendingConnections).toEqual([
      expect.objectContaining({ serverLabel: "files", reason: "allow" }),
    ]);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);

    upstream.enqueue(
      {
        toolCalls: [
          { id: "c1", name: "files__echo", arguments: { text: "hi" } },
          { id: "c2", name: "files__whoami", arguments: {} },
        ],
      },
      { text: "done" },
    );
    const third = await respond({ model: "agent/helper", previous_response_id: second.body.id });
    expect(third.body.run.status).toBe("completed");
    expect(third.body.run.text).toBe("done");
    expect(third.body.run.toolCalls.map((c: Loose) => c.output)).toEqual(["echo: hi", "token seen: yes"]);
    const offered = sent(0).tools.map((t: Loose) => t.function.name);
    expect(offered).toEqual([
      "platform_deliver",
      "platform_view_image",
      "files__echo",
      "files__whoami",
      "files__sleep",
      "files__delete_all",
      "files__ask",
    ]);
    expect(mcp.authorizations).toContain(`Bearer ${TOKEN}`);
    expect(third.text).not.toContain(TOKEN);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(TOKEN);
    // The first message the model saw is the original user input.
    const messages = sent(0).messages;
    expect(messages.find((m: Loose) => m.role === "user")?.content).toBe("echo hi");
  });

  it("a changed host makes the allowance ask again with the new destinations", async () => {
    const { agentId, created } = await setup();
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
    const moved = mcp.url.replace("127.0.0.1", "localhost");
    await call("PATCH", `/v1/connectors/${created.id}`, { url: moved });
    const paused = await respond({ model: "agent/helper", input: "hi" });
    const host = new URL(moved).host;
    expect(paused.body.run.pendingConnections).toEqual([
      expect.objectContaining({ serverLabel: "files", host, reason: "allow", destinations: [host] }),
    ]);
    expect(
      (await call("GET", `/v1/connectors/${created.id}/connection`, undefined, tenant.keys.member)).body
        .status,
    ).toBe("connected");
  });

  it("a 401 mid-run marks the connection expired and pauses with reconnect (the call interrupted)", async () => {
    const { agentId, created } = await setup();
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
    // The sign-in is revoked upstream between the listing and the call.
    mcp.revokeOnCall("echo");
    upstream.enqueue({ toolCalls: [{ id: "c1", name: "files__echo", arguments: { text: "x" } }] });
    const paused = await respond({ model: "agent/helper", input: "echo" });
    expect(paused.body.run.status).toBe("requires_tool_output");
    expect(paused.body.run.pendingConnections).toEqual([
      expect.objectContaining({ serverLabel: "files", reason: "reconnect" }),
    ]);
    expect(paused.body.run.toolCalls[0]).toMatchObject({ callId: "c1", status: "interrupted" });
    expect(
      (await call("GET", `/v1/connectors/${created.id}/connection`, undefined, tenant.keys.member)).body
        .status,
    ).toBe("expired");
    // Reconnected with the new token, the continuation goes on.
    mcp.revokeOnCall(null);
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    upstream.enqueue({ text: "after reconnect" });
    const done = await respond({ model: "agent/helper", previous_response_id: paused.body.id });
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.text).toBe("after reconnect");
  });

  it("a question pauses with pendingInputs; 409 inputs_pending; answering completes the held call", async () => {
    const { agentId, created } = await setup();
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
    upstream.enqueue(
      { toolCalls: [{ id: "c1", name: "files__ask", arguments: {} }] },
      { text: "you chose blue" },
    );
    const paused = await respond({ model: "agent/helper", input: "ask me" });
    expect(paused.body.run.status).toBe("requires_tool_output");
    const [pending] = paused.body.run.pendingInputs;
    expect(pending).toMatchObject({ serverLabel: "files", tool: "files__ask", mode: "form" });
    expect(pending.answerUrl).toBe(`https://chat.example/connector-inputs/${pending.inputRequestId}`);
    expect(paused.text).not.toContain("Which colour?");

    const early = await respond({ model: "agent/helper", previous_response_id: paused.body.id });
    expect(early.status).toBe(409);
    expect((early.body as Loose).error.code).toBe("inputs_pending");

    const input = await call(
      "GET",
      `/v1/connector-inputs/${pending.inputRequestId}`,
      undefined,
      tenant.keys.member,
    );
    expect(input.body).toMatchObject({
      message: "Which colour?",
      status: "open",
      mode: "form",
      responseId: paused.body.id,
    });
    expect(
      (await call("GET", `/v1/connector-inputs/${pending.inputRequestId}`, undefined, tenant.keys.viewer))
        .status,
    ).toBe(404);
    expect(
      (await call("GET", `/v1/connector-inputs/${pending.inputRequestId}`, undefined, stranger)).status,
    ).toBe(404);

    const path = `/v1/connector-inputs/${pending.inputRequestId}/answer`;
    const wrong = await call(
      "POST",
      path,
      { action: "accept", content: { colour: "green" } },
      tenant.keys.member,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe("content.colour");
    expect((await call("POST", path, { action: "accept" }, tenant.keys.member)).body.error.param).toBe(
      "content",
    );
    expect((await call("POST", path, { action: "maybe" }, tenant.keys.member)).body.error.param).toBe(
      "action",
    );
    for (const junk of ["x", "[]", '{"action":1}', '{"action":"accept","content":"s"}']) {
      expect((await call("POST", path, junk, tenant.keys.member)).status, junk).toBe(400);
    }
    const answered = await call(
      "POST",
      path,
      { action: "accept", content: { colour: "blue" } },
      tenant.keys.member,
    );
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe("answered");
    expect((await call("POST", path, { action: "cancel" }, tenant.keys.member)).body.error.code).toBe(
      "input_closed",
    );

    const done = await respond({ model: "agent/helper", previous_response_id: paused.body.id });
    expect(done.status).toBe(200);
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.toolCalls).toEqual([
      expect.objectContaining({ callId: "c1", status: "completed", output: "colour: blue" }),
    ]);
  });

  it("the tool catalog method answers the last listed tools or not_connected", async () => {
    const { agentId, created } = await setup();
    const principal = await tenant.store.apiKeys.authenticate(tenant.keys.member);
    if (principal === null) throw new Error("no principal");
    expect(await groundwork.connectors.catalogs(principal, agentId)).toEqual([
      { connectorId: created.id, serverLabel: "files", status: "not_connected", tools: [] },
    ]);
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
    upstream.enqueue({ text: "ok" });
    await respond({ model: "agent/helper", input: "hi" });
    const [catalog] = await groundwork.connectors.catalogs(principal, agentId);
    expect(catalog?.status).toBe("ok");
    expect(catalog?.tools.map((t) => t.prefixedName)).toEqual([
      "files__echo",
      "files__whoami",
      "files__sleep",
      "files__delete_all",
      "files__ask",
    ]);
  });
});

describe("pause window, restart, cancel and timeouts", () => {
  async function ready(agents: Record<string, number> = {}) {
    app = build(true, agents);
    const agentId = await agent();
    const created = await connector({ authKind: "bearer", agentIds: [agentId] });
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
    return { agentId, created };
  }

  async function asked() {
    upstream.enqueue({ toolCalls: [{ id: "c1", name: "files__ask", arguments: {} }] });
    const paused = await respond({ model: "agent/helper", input: "ask me" });
    expect(paused.body.run.pendingInputs).toHaveLength(1);
    return { paused, inputId: paused.body.run.pendingInputs[0].inputRequestId as string };
  }

  it("an unanswered question is answered cancel when the window closes; the run goes on; late answers are 409", async () => {
    await ready({ pauseTimeoutMs: 200 });
    const { paused, inputId } = await asked();
    expect(paused.body.run.pendingInputs[0].expiresAt).toMatch(/Z$/);
    await new Promise((resolve) => setTimeout(resolve, 260));
    upstream.enqueue({ text: "gave up" });
    expect(await groundwork.agents.drainWorker()).toBe(1);
    const input = await call("GET", `/v1/connector-inputs/${inputId}`, undefined, tenant.keys.member);
    expect(input.body).toMatchObject({ status: "expired" });
    const late = await call(
      "POST",
      `/v1/connector-inputs/${inputId}/answer`,
      { action: "decline" },
      tenant.keys.member,
    );
    expect(late.status).toBe(409);
    const conversation = paused.body.run.conversationId;
    const items = await call(
      "GET",
      `/v1/conversations/${conversation}/items?order=asc`,
      undefined,
      tenant.keys.member,
    );
    const outputs = (
      items.body.content as Array<{ type: string; output?: string; data?: { output?: string } }>
    )
      .filter((i) => i.type === "function_call_output")
      .map((i) => JSON.stringify(i));
    expect(outputs.join()).toContain("no answer (cancel)");
  });

  it("a restart answers open questions cancel; the continuation reports the call lost", async () => {
    await ready();
    const { paused, inputId } = await asked();
    // A new platform over the same store: the held call is gone.
    app = build(true);
    await groundwork.start();
    try {
      expect(
        (await call("GET", `/v1/connector-inputs/${inputId}`, undefined, tenant.keys.member)).body.status,
      ).toBe("cancelled");
      upstream.enqueue({ text: "sorry" });
      const done = await respond({ model: "agent/helper", previous_response_id: paused.body.id });
      expect(done.body.run.status).toBe("completed");
      expect(done.body.run.toolCalls[0]).toMatchObject({ callId: "c1", status: "failed" });
      expect(done.body.run.toolCalls[0].output).toMatch(/lost/);
    } finally {
      await groundwork.close();
    }
  });

  it("cancelling a turn that waits for an answer closes its questions", async () => {
    await ready();
    const { paused, inputId } = await asked();
    const cancelled = await call(
      "POST",
      `/v1/conversations/${paused.body.run.conversationId}/cancel`,
      {},
      tenant.keys.member,
    );
    expect(cancelled.status).toBe(200);
    expect(
      (await call("GET", `/v1/connector-inputs/${inputId}`, undefined, tenant.keys.member)).body.status,
    ).toBe("cancelled");
  });

  it("a connector pause nobody resolves continues at the window's end without that connector's tools", async () => {
    app = build(true, { pauseTimeoutMs: 200 });
    const agentId = await agent();
    await connector({ authKind: "bearer", agentIds: [agentId] });
    const paused = await respond({ model: "agent/helper", input: "hi" });
    expect(paused.body.run.pendingConnections[0].reason).toBe("connect");
    await new Promise((resolve) => setTimeout(resolve, 260));
    upstream.enqueue({ text: "answered without the connector" });
    expect(await groundwork.agents.drainWorker()).toBe(1);
    expect(upstream.requests).toHaveLength(1);
    // Only the always-offered platform tools: no connector's.
    expect(sent(0).tools.map((t: Loose) => t.function.name)).toEqual([
      "platform_deliver",
      "platform_view_image",
    ]);
  });

  it("a connector that never answers tools/list offers no tools after the list timeout; the run goes on", async () => {
    const silent = await startMcpFixture({ silentList: true });
    try {
      app = build(true, { connectorListTimeoutMs: 2000 });
      mcp.setToken(null);
      const agentId = await agent();
      const quiet = await connector({ serverLabel: "quiet", url: silent.url, agentIds: [agentId] });
      const files = await connector({ serverLabel: "files", url: mcp.url, agentIds: [agentId] });
      for (const created of [quiet, files]) {
        await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
      }
      upstream.enqueue({ text: "answered without the quiet connector" });
      const started = Date.now();
      const done = await respond({ model: "agent/helper", input: "hi" });
      const elapsed = Date.now() - started;
      expect(done.status).toBe(200);
      expect(done.body.run.status).toBe("completed");
      expect(done.body.run.text).toBe("answered without the quiet connector");
      // The silent server was asked (and never answered); the other connector's tools are offered.
      expect(silent.methods).toContain("tools/list");
      const offered = sent(0).tools.map((t: Loose) => t.function.name);
      expect(offered.some((name: string) => name.startsWith("quiet__"))).toBe(false);
      expect(offered).toContain("files__echo");
      // Well under the default 10 s: the configured timeout ended the listing.
      expect(elapsed).toBeLessThan(9000);
      // Nothing was cached for it: its catalog still reads not_connected.
      const principal = await tenant.store.apiKeys.authenticate(tenant.keys.member);
      if (principal === null) throw new Error("no principal");
      const catalogs = await groundwork.connectors.catalogs(principal, agentId);
      expect(catalogs.find((c) => c.serverLabel === "quiet")?.status).toBe("not_connected");
      expect(catalogs.find((c) => c.serverLabel === "files")?.status).toBe("ok");
    } finally {
      await silent.close();
    }
  });

  it("a call slower than the call timeout fails", async () => {
    await ready({ connectorCallTimeoutMs: 300 });
    upstream.enqueue(
      { toolCalls: [{ id: "c1", name: "files__sleep", arguments: { ms: 2000 } }] },
      { text: "ok" },
    );
    const done = await respond({ model: "agent/helper", input: "sleep" });
    expect(done.body.run.toolCalls[0]).toMatchObject({ status: "failed" });
    expect(done.body.run.toolCalls[0].output).toMatch(/did not answer within/);
  });
});

describe("policy and streaming", () => {
  async function ready(hitlPolicy: Record<string, unknown>) {
    const result = await call(
      "POST",
      "/v1/agents/apply",
      { name: "helper", models: ["gw-chat-1"], instructions: "Help.", hitlPolicy },
      tenant.keys.member,
    );
    const agentId = result.body.agent.id as string;
    const created = await connector({ authKind: "bearer", agentIds: null });
    await call("PUT", `/v1/connectors/${created.id}/connection`, { token: TOKEN }, tenant.keys.member);
    await call("PUT", `/v1/connectors/${created.id}/allowances/${agentId}`, {}, tenant.keys.member);
    return { agentId, created };
  }

  it("the policy applies to connector tools by their prefixed names and classes", async () => {
    await ready({ version: 1, default: "allow", tools: { files__whoami: "deny" } });
    upstream.enqueue(
      { toolCalls: [{ id: "c1", name: "files__delete_all", arguments: {} }] },
      { text: "deleted" },
    );
    const paused = await respond({ model: "agent/helper", input: "delete everything" });
    const offered = sent(0).tools.map((t: Loose) => t.function.name);
    expect(offered).not.toContain("files__whoami");
    expect(offered).toContain("files__delete_all");
    // Destructive (from destructiveHint): the floor asks a human.
    expect(paused.body.run.status).toBe("requires_approval");
    expect(paused.body.run.pendingApprovals[0]).toMatchObject({
      tool: "files__delete_all",
      policyClass: "destructive",
    });
    const approval = paused.body.run.pendingApprovals[0].id as string;
    const done = await respond({
      model: "agent/helper",
      previous_response_id: paused.body.id,
      input: [{ type: "approval_response", approval_request_id: approval, approve: true }],
    });
    expect(done.body.run.status).toBe("completed");
    expect(done.body.run.toolCalls[0]).toMatchObject({
      tool: "files__delete_all",
      status: "completed",
      output: "deleted",
    });
  });

  it("a streamed turn that pauses in pre-flight ends with the paused response", async () => {
    const agentId = await agent();
    await connector({ authKind: "bearer", agentIds: [agentId] });
    const response = await app.request("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ model: "agent/helper", input: "hi", stream: true }),
      headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const blocks = text.split("\n\n").filter((block) => block.startsWith("event: "));
    const last = blocks.at(-1) ?? "";
    expect(last.startsWith("event: response.completed")).toBe(true);
    const final = JSON.parse(last.split("\n")[1]?.slice(6) ?? "{}") as Loose;
    expect(final.response.run.pendingConnections).toEqual([expect.objectContaining({ reason: "connect" })]);
    expect(upstream.requests).toHaveLength(0);
  });

  it("an unreachable connector offers no tools and a disabled one is not asked for", async () => {
    const agentId = await agent();
    const down = await connector({ serverLabel: "down", url: "http://127.0.0.1:1/mcp", agentIds: [agentId] });
    await connector({ serverLabel: "off", authKind: "bearer", agentIds: [agentId], enabled: false });
    await call("PUT", `/v1/connectors/${down.id}/allowances/${agentId}`, {}, tenant.keys.member);
    upstream.enqueue({ text: "no tools today" });
    const done = await respond({ model: "agent/helper", input: "hi" });
    expect(done.body.run.status).toBe("completed");
    // Only the always-offered platform tools: no connector's.
    expect(sent(0).tools.map((t: Loose) => t.function.name)).toEqual([
      "platform_deliver",
      "platform_view_image",
    ]);
  });
});
