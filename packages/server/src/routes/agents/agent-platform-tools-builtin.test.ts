/**
 * The built-in platform tools of PLATFORM.md §6 through the real runner and a scripted
 * upstream: `platform_bash` (file system per conversation, approval and held outputs),
 * `platform_deliver`, `platform_view_image`, `web_search` and `platform_tool_search`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentResponseObject } from "@groundwork/agents";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, type Groundwork, type GroundworkOptions } from "@groundwork/platform";
import { buildTextPng, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { SERVER_SETTING_NAMES } from "../../config.js";

let upstream: Upstream;
let search: Server;
let searchUrl: string;
let searchRequests: Array<{ url: string; headers: IncomingHttpHeaders }>;
let tenant: TestTenant;
let groundwork: Groundwork;
let app: App;

const SEARCH_KEY = "sk-search-secret-123";

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1", "text-only-1"] });
  search = createServer((req, res) => {
    searchRequests.push({ url: req.url ?? "", headers: req.headers });
    const q = new URL(req.url ?? "/", "http://x").searchParams.get("q");
    if (q === "fail") {
      res.writeHead(500).end(`upstream error for key ${SEARCH_KEY}`);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        results: [
          { title: "Groundwork", url: "https://groundwork.dev", snippet: `about ${q}` },
          { title: "Echo", url: "https://echo.example", snippet: `key ${SEARCH_KEY}` },
          { title: "Third", url: "https://third.example", snippet: "third" },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => search.listen(0, "127.0.0.1", resolve));
  searchUrl = `http://127.0.0.1:${(search.address() as AddressInfo).port}/search`;
});
afterAll(async () => {
  await upstream.close();
  await new Promise((resolve) => search.close(resolve));
});

async function setup(extra: Partial<GroundworkOptions> = {}, webSearch = true): Promise<void> {
  tenant = await createTestTenant("enterprise");
  upstream.reset();
  searchRequests = [];
  groundwork = createGroundwork({
    store: tenant.store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "k" },
      settingNames: SERVER_SETTING_NAMES,
      webSearch: webSearch ? { url: searchUrl, apiKey: SEARCH_KEY } : null,
    },
    fetch: createFastFetch(),
    ...extra,
  });
  app = createApp({ groundwork });
}

beforeEach(() => setup());

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = tenant.keys.member,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.request(path, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function respond(body: Record<string, unknown>): Promise<AgentResponseObject> {
  const result = await call("POST", "/v1/responses", body);
  expect(result.status).toBe(200);
  return result.body as unknown as AgentResponseObject;
}

function sentTools(index: number): string[] {
  const body = upstream.requests[index]?.body as { tools?: Array<{ function: { name: string } }> };
  return (body.tools ?? []).map((t) => t.function.name);
}

function lastMessages(index: number): Array<{ role: string; content: unknown }> {
  const body = upstream.requests[index]?.body as
    | { messages?: Array<{ role: string; content: unknown }> }
    | undefined;
  return body?.messages ?? [];
}

async function applyBash(tool: Record<string, unknown> = {}, name = "sh"): Promise<void> {
  const applied = await call("POST", "/v1/agents/apply", {
    name,
    model: "gw-chat-1",
    tools: [{ type: "platform.bash", ...tool }],
  });
  expect(applied.status).toBe(201);
}

function bashCall(id: string, command: string) {
  return { toolCalls: [{ id, name: "platform_bash", arguments: { command } }] };
}

function outputOf(run: AgentResponseObject["run"], callId: string): Record<string, unknown> {
  const record = run.toolCalls.find((c) => c.callId === callId);
  return JSON.parse(record?.output ?? "null") as Record<string, unknown>;
}

describe("platform_bash", () => {
  it("keeps the conversation's /workspace across turns and deletes it with the conversation", async () => {
    await applyBash();
    upstream.enqueue(
      bashCall("b1", "mkdir -p notes && echo 'hello world' > notes/a.txt && pwd && echo $HOME"),
      { text: "written" },
      bashCall("b2", "cat notes/a.txt | wc -w; ls /workspace/notes"),
      { text: "read" },
    );
    const first = await respond({ model: "agent/sh", input: "write" });
    expect(sentTools(0)).toContain("platform_bash");
    expect(outputOf(first.run, "b1")).toEqual({
      stdout: "/workspace\n/workspace\n",
      stderr: "",
      exitCode: 0,
      truncated: false,
    });
    const conversationId = first.run.conversationId;
    const second = await respond({ model: "agent/sh", input: "read", conversation: conversationId });
    expect(outputOf(second.run, "b2")).toMatchObject({ stdout: "2\na.txt\n", exitCode: 0 });

    // Another conversation starts empty.
    upstream.enqueue(bashCall("b3", "ls /workspace | wc -l"), { text: "empty" });
    const other = await respond({ model: "agent/sh", input: "look" });
    expect(outputOf(other.run, "b3")).toMatchObject({ stdout: "0\n" });

    expect((await tenant.store.bashFiles.load(conversationId)).size).toBeGreaterThan(0);
    expect((await call("DELETE", `/v1/conversations/${conversationId}`)).status).toBe(204);
    expect((await tenant.store.bashFiles.load(conversationId)).size).toBe(0);
  });

  it("has no host files, no network and no other programs", async () => {
    await applyBash();
    upstream.enqueue(
      {
        toolCalls: [
          { id: "e1", name: "platform_bash", arguments: { command: "cat /etc/passwd" } },
          { id: "e2", name: "platform_bash", arguments: { command: "cat /proc/self/environ" } },
          { id: "e3", name: "platform_bash", arguments: { command: "curl https://example.com" } },
          { id: "e4", name: "platform_bash", arguments: { command: "python3 -c 'print(1)'" } },
          { id: "e5", name: "platform_bash", arguments: { command: "echo x > /skills/evil" } },
          { id: "e6", name: "platform_bash", arguments: { command: "x".repeat(16 * 1024 + 1) } },
          { id: "e7", name: "platform_bash", arguments: "{not json" },
        ],
      },
      { text: "done" },
    );
    const { run } = await respond({ model: "agent/sh", input: "escape" });
    expect(outputOf(run, "e1")).toMatchObject({ exitCode: 1, stdout: "" });
    expect(outputOf(run, "e2")).toMatchObject({ exitCode: 1, stdout: "" });
    expect(outputOf(run, "e3")).toMatchObject({ exitCode: 127, stderr: "bash: curl: command not found\n" });
    expect(outputOf(run, "e4")).toMatchObject({
      exitCode: 127,
      stderr: "bash: python3: command not found\n",
    });
    expect(outputOf(run, "e5")).toMatchObject({ exitCode: 1 });
    expect(run.toolCalls.find((c) => c.callId === "e6")).toMatchObject({ status: "failed" });
    expect(run.toolCalls.find((c) => c.callId === "e6")?.output).toMatch(/16 KiB/);
    expect(run.toolCalls.find((c) => c.callId === "e7")).toMatchObject({ status: "failed" });
    expect(run.status).toBe("completed");
  });

  it('approval: "pause" asks before every call', async () => {
    await applyBash({ approval: "pause" });
    upstream.enqueue(bashCall("p1", "echo hi > a.txt"), { text: "done" });
    const paused = await respond({ model: "agent/sh", input: "go" });
    expect(paused.run.status).toBe("requires_approval");
    expect(paused.run.pendingApprovals[0]).toMatchObject({ tool: "platform_bash", callId: "p1" });
    expect((await tenant.store.bashFiles.load(paused.run.conversationId)).size).toBe(0);
    const done = await respond({
      model: "agent/sh",
      previous_response_id: paused.id,
      input: [
        { type: "approval_response", approval_request_id: paused.run.pendingApprovals[0]?.id, approve: true },
      ],
    });
    expect(done.run.status).toBe("completed");
    expect((await tenant.store.bashFiles.load(paused.run.conversationId)).has("/workspace/a.txt")).toBe(true);
  });

  it('outputs: "held" runs on a staged copy; approve releases and commits, reject discards', async () => {
    await applyBash({ outputs: "held" });
    upstream.enqueue(bashCall("h1", "echo secret > s.txt && cat s.txt"), { text: "after approve" });
    const paused = await respond({ model: "agent/sh", input: "go" });
    const conversationId = paused.run.conversationId;
    expect(paused.run.status).toBe("requires_approval");
    expect(paused.run.pendingApprovals[0]).toMatchObject({
      callId: "h1",
      reason: "outputs_held",
      preview: null,
      heldOutput: { stdout: "secret\n", stderr: "", exitCode: 0 },
    });
    // The model has not seen the output and the file is not committed yet.
    expect(upstream.requests).toHaveLength(1);
    expect((await tenant.store.bashFiles.load(conversationId)).size).toBe(0);
    const approved = await respond({
      model: "agent/sh",
      previous_response_id: paused.id,
      input: [
        { type: "approval_response", approval_request_id: paused.run.pendingApprovals[0]?.id, approve: true },
      ],
    });
    expect(approved.run.status).toBe("completed");
    expect(outputOf(approved.run, "h1")).toMatchObject({ stdout: "secret\n", exitCode: 0 });
    const tool = lastMessages(1).find((m) => m.role === "tool");
    expect(String(tool?.content)).toContain("secret");
    expect((await tenant.store.bashFiles.load(conversationId)).has("/workspace/s.txt")).toBe(true);

    upstream.enqueue(bashCall("h2", "rm s.txt && echo gone > t.txt"), { text: "after reject" });
    const again = await respond({ model: "agent/sh", input: "more", conversation: conversationId });
    expect(again.run.pendingApprovals[0]).toMatchObject({ reason: "outputs_held" });
    const rejected = await respond({
      model: "agent/sh",
      previous_response_id: again.id,
      input: [
        { type: "approval_response", approval_request_id: again.run.pendingApprovals[0]?.id, approve: false },
      ],
    });
    expect(rejected.run.toolCalls.find((c) => c.callId === "h2")).toMatchObject({ status: "rejected" });
    const tree = await tenant.store.bashFiles.load(conversationId);
    expect(tree.has("/workspace/s.txt")).toBe(true);
    expect(tree.has("/workspace/t.txt")).toBe(false);
  });
});

describe("platform_bash held outputs, two calls in one step", () => {
  it("keeps both staged results until their approvals", async () => {
    await applyBash({ outputs: "held" });
    upstream.enqueue(
      {
        toolCalls: [
          { id: "h1", name: "platform_bash", arguments: { command: "echo one > one.txt && echo 1" } },
          { id: "h2", name: "platform_bash", arguments: { command: "echo two > two.txt && echo 2" } },
        ],
      },
      { text: "both" },
    );
    const paused = await respond({ model: "agent/sh", input: "go" });
    expect(paused.run.pendingApprovals.map((p) => p.reason)).toEqual(["outputs_held", "outputs_held"]);
    const done = await respond({
      model: "agent/sh",
      previous_response_id: paused.id,
      decideAll: "approve",
    });
    expect(done.run.status).toBe("completed");
    expect(outputOf(done.run, "h1")).toMatchObject({ stdout: "1\n" });
    expect(outputOf(done.run, "h2")).toMatchObject({ stdout: "2\n" });
    const tree = await tenant.store.bashFiles.load(paused.run.conversationId);
    expect(tree.has("/workspace/one.txt") && tree.has("/workspace/two.txt")).toBe(true);
  });
});

describe("platform_deliver", () => {
  it("adds text and bash files (stored as assistants Files) to run.deliverables and the output", async () => {
    await applyBash();
    const existing = await tenant.store.files.create({
      organizationId: tenant.organizationId,
      filename: "report.txt",
      purpose: "user_data",
      mime: "text/plain",
      bytes: new TextEncoder().encode("report"),
    });
    upstream.enqueue(
      bashCall("b1", "printf 'a,b\\n1,2\\n' > out.csv"),
      {
        toolCalls: [
          {
            id: "d1",
            name: "platform_deliver",
            arguments: { title: "Summary", text: "All done.", paths: ["out.csv"], fileIds: [existing.id] },
          },
          { id: "d2", name: "platform_deliver", arguments: { fileIds: ["file_unknown"] } },
          { id: "d3", name: "platform_deliver", arguments: {} },
        ],
      },
      { text: "Delivered." },
    );
    const response = await respond({ model: "agent/sh", input: "deliver" });
    const { run } = response;
    expect(JSON.parse(run.toolCalls.find((c) => c.callId === "d1")?.output ?? "")).toEqual({ delivered: 3 });
    expect(run.toolCalls.find((c) => c.callId === "d2")).toMatchObject({ status: "failed" });
    expect(run.toolCalls.find((c) => c.callId === "d3")).toMatchObject({ status: "failed" });
    expect(run.deliverables).toHaveLength(3);
    expect(run.deliverables[0]).toEqual({ type: "text", title: "Summary", text: "All done." });
    expect(run.deliverables[1]).toMatchObject({ type: "file", fileId: existing.id, filename: "report.txt" });
    const stored = run.deliverables[2] as { fileId: string; filename: string; size: number };
    expect(stored).toMatchObject({ type: "file", filename: "out.csv", size: 8 });
    const file = await tenant.store.files.get(tenant.organizationId, stored.fileId);
    expect(file?.purpose).toBe("assistants");
    expect(response.output.filter((o) => o.type === "deliverable")).toHaveLength(3);
    expect(run.text).toBe("Delivered.");

    const items = await call("GET", `/v1/conversations/${run.conversationId}/items?type=deliverable`);
    expect(items.status).toBe(200);
    expect((items.body.content as unknown[]).length).toBe(3);
  });
});

describe("platform_view_image", () => {
  it("attaches an image (fileId or bash path) to the next model call", async () => {
    await applyBash();
    const png = buildTextPng("hi");
    const file = await tenant.store.files.create({
      organizationId: tenant.organizationId,
      filename: "pic.png",
      purpose: "user_data",
      mime: "image/png",
      bytes: png,
    });
    const text = await tenant.store.files.create({
      organizationId: tenant.organizationId,
      filename: "notes.txt",
      purpose: "user_data",
      mime: "text/plain",
      bytes: new TextEncoder().encode("not an image"),
    });
    upstream.enqueue(
      {
        toolCalls: [
          { id: "v1", name: "platform_view_image", arguments: { fileId: file.id } },
          { id: "v2", name: "platform_view_image", arguments: { fileId: text.id } },
          { id: "v3", name: "platform_view_image", arguments: { fileId: file.id, path: "x.png" } },
          { id: "v4", name: "platform_view_image", arguments: { url: "http://127.0.0.1:1/x.png" } },
          { id: "v5", name: "platform_view_image", arguments: { path: "missing.png" } },
        ],
      },
      { text: "I see it." },
    );
    const { run } = await respond({ model: "agent/sh", input: "look" });
    expect(run.toolCalls.find((c) => c.callId === "v1")?.output).toMatch(
      /^Image attached \(image\/png, \d+×\d+\)$/,
    );
    expect(run.toolCalls.find((c) => c.callId === "v2")).toMatchObject({ status: "failed" });
    expect(run.toolCalls.find((c) => c.callId === "v2")?.output).toMatch(/not an image/);
    expect(run.toolCalls.find((c) => c.callId === "v3")).toMatchObject({ status: "failed" });
    expect(run.toolCalls.find((c) => c.callId === "v4")?.output).toMatch(/private_network/);
    expect(run.toolCalls.find((c) => c.callId === "v5")).toMatchObject({ status: "failed" });
    const messages = lastMessages(1);
    const attached = messages[messages.length - 1];
    expect(attached?.role).toBe("user");
    expect(JSON.stringify(attached?.content)).toContain("data:image/png;base64,");
    // Only the next call carries it.
    expect(JSON.stringify(run)).not.toContain("base64,");
  });

  it("views a png from the bash file system and refuses another organization's file", async () => {
    await applyBash();
    const strangerOrg = (await tenant.store.organizations.create("globex", "enterprise")).id;
    const foreign = await tenant.store.files.create({
      organizationId: strangerOrg,
      filename: "theirs.png",
      purpose: "user_data",
      mime: "image/png",
      bytes: buildTextPng("theirs"),
    });
    upstream.enqueue(
      { toolCalls: [{ id: "b0", name: "platform_bash", arguments: { command: "mkdir -p img" } }] },
      { text: "ready" },
    );
    // The PNG lands in the conversation's tree between the two turns.
    const first = await respond({ model: "agent/sh", input: "prepare" });
    await tenant.store.bashFiles.apply(tenant.organizationId, first.run.conversationId, [
      { path: "/workspace/img/p.png", kind: "file", bytes: buildTextPng("mine") },
    ]);
    upstream.enqueue(
      {
        toolCalls: [
          { id: "v1", name: "platform_view_image", arguments: { path: "img/p.png" } },
          { id: "v2", name: "platform_view_image", arguments: { fileId: foreign.id } },
          { id: "d1", name: "platform_deliver", arguments: { fileIds: [foreign.id] } },
        ],
      },
      { text: "ok" },
    );
    const { run } = await respond({
      model: "agent/sh",
      input: "look",
      conversation: first.run.conversationId,
    });
    expect(run.toolCalls.find((c) => c.callId === "v1")?.output).toMatch(/^Image attached \(image\/png/);
    expect(run.toolCalls.find((c) => c.callId === "v2")).toMatchObject({ status: "failed" });
    expect(run.toolCalls.find((c) => c.callId === "v2")?.output).toMatch(/unknown fileId/);
    expect(run.toolCalls.find((c) => c.callId === "d1")).toMatchObject({ status: "failed" });
    expect(run.deliverables).toEqual([]);
  });

  it("fails for a model without image input", async () => {
    await setup({ acceptsImages: (model) => model !== "gw-chat-1" });
    await applyBash();
    const file = await tenant.store.files.create({
      organizationId: tenant.organizationId,
      filename: "pic.png",
      purpose: "user_data",
      mime: "image/png",
      bytes: buildTextPng("hi"),
    });
    upstream.enqueue(
      { toolCalls: [{ id: "v1", name: "platform_view_image", arguments: { fileId: file.id } }] },
      { text: "no" },
    );
    const { run } = await respond({ model: "agent/sh", input: "look" });
    expect(run.toolCalls[0]).toMatchObject({ status: "failed" });
    expect(run.toolCalls[0]?.output).toContain("model does not accept images");
  });
});

describe("web_search", () => {
  it("is not offered without a provider and fails with the configured message", async () => {
    await setup({}, false);
    await applyBash();
    upstream.enqueue(
      { toolCalls: [{ id: "w1", name: "web_search", arguments: { query: "x" } }] },
      { text: "ok" },
    );
    const { run } = await respond({ model: "agent/sh", input: "search" });
    expect(sentTools(0)).not.toContain("web_search");
    expect(run.toolCalls[0]).toMatchObject({
      status: "failed",
      output: "web_search is not available: no search provider is configured (GROUNDWORK_WEB_SEARCH_URL)",
    });
  });

  it("calls the provider with the key and never shows the key", async () => {
    await applyBash();
    upstream.enqueue(
      {
        toolCalls: [
          { id: "w1", name: "web_search", arguments: { query: "agents", count: 2 } },
          { id: "w2", name: "web_search", arguments: { query: "fail" } },
          { id: "w3", name: "web_search", arguments: { query: "x", count: 11 } },
        ],
      },
      { text: "found" },
    );
    const response = await respond({ model: "agent/sh", input: "search" });
    expect(sentTools(0)).toContain("web_search");
    expect(searchRequests[0]?.url).toBe("/search?q=agents&count=2");
    expect(searchRequests[0]?.headers.authorization).toBe(`Bearer ${SEARCH_KEY}`);
    const results = JSON.parse(response.run.toolCalls[0]?.output ?? "[]") as unknown[];
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      title: "Groundwork",
      url: "https://groundwork.dev",
      snippet: "about agents",
    });
    expect(response.run.toolCalls[1]).toMatchObject({ status: "failed" });
    expect(response.run.toolCalls[2]).toMatchObject({ status: "failed" });
    expect(JSON.stringify(response)).not.toContain(SEARCH_KEY);
    expect(JSON.stringify(upstream.requests.map((r) => r.body))).not.toContain(SEARCH_KEY);
  });
});

describe("platform_tool_search", () => {
  it("defers tools beyond the first 20 and offers what it finds for the rest of the response", async () => {
    const tools = Array.from({ length: 24 }, (_, i) => ({
      name: `tool_${i}`,
      description: i === 22 ? "Book a flight to a city" : `Generic helper number ${i}`,
      parameters: { type: "object", properties: {} },
    }));
    const applied = await call("POST", "/v1/agents/apply", { name: "many", model: "gw-chat-1", tools });
    expect(applied.status).toBe(201);
    upstream.enqueue(
      { toolCalls: [{ id: "s1", name: "platform_tool_search", arguments: { query: "flight booking" } }] },
      { text: "found it" },
    );
    const { run } = await respond({ model: "agent/many", input: "book a flight" });
    const first = sentTools(0);
    expect(first).toHaveLength(21);
    expect(first.slice(0, 20)).toEqual(tools.slice(0, 20).map((t) => t.name));
    expect(first).toContain("platform_tool_search");
    expect(first).not.toContain("tool_22");
    const found = JSON.parse(run.toolCalls[0]?.output ?? "[]") as Array<{ name: string; catalog: string }>;
    expect(found[0]).toMatchObject({ name: "tool_22", catalog: "definition" });
    expect(sentTools(1)).toContain("tool_22");
  });

  it("is not offered with 20 tools or fewer", async () => {
    await applyBash();
    upstream.enqueue({ text: "hi" });
    await respond({ model: "agent/sh", input: "hi" });
    expect(sentTools(0)).toEqual(["platform_bash", "platform_deliver", "platform_view_image", "web_search"]);
  });
});
