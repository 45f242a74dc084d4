/** `GET /v1/agents/{agentId}/tool-catalogs` (PLATFORM.md §4.5): catalogs, offered/reason, deferred, roles, isolation, validation. */
import { skillPackageFromFiles } from "@groundwork/agents";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type McpFixture, startMcpFixture } from "../../../test/mcp-connector-fixture.js";
import { skillMd } from "../../../test/skill-zips.js";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
});

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function apply(definition: Record<string, unknown>): Promise<string> {
  const response = await json(tenant.keys.member, "POST", "/v1/agents/apply", {
    model: "gpt-4o-mini",
    ...definition,
  });
  expect(response.status, JSON.stringify(await response.clone().json())).toBeLessThan(300);
  return ((await bodyOf(response)).agent as { id: string }).id;
}

interface Tool {
  name: string;
  type: string;
  class: string | null;
  offered: boolean;
  deferred: boolean;
  reason: string | null;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  description: string | null;
}
interface Catalogs {
  agentId: string;
  agentVersionId: string;
  catalogs: Array<{ catalog: string; tools: Tool[]; reason: string | null }>;
}

async function catalogs(agentId: string, query = "", key = tenant.keys.viewer): Promise<Catalogs> {
  const response = await json(key, "GET", `/v1/agents/${agentId}/tool-catalogs${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Catalogs;
}

const byName = (tools: Tool[]) => Object.fromEntries(tools.map((t) => [t.name, t]));

describe("GET /v1/agents/{agentId}/tool-catalogs", () => {
  it("lists the definition's tools and the implicit platform tools, with deny and not-runnable reasons", async () => {
    const agentId = await apply({
      name: "mixed",
      tools: [
        { type: "platform.todo" },
        {
          type: "function",
          name: "refund",
          endpoint: "https://example.com/refund",
          description: "Refund an order",
          annotations: { readOnlyHint: false, destructiveHint: true },
        },
        { name: "lookup", description: "Look an order up" },
        { type: "platform.bash" },
        { type: "platform.skill", skills: ["ghost"] },
      ],
      hitlPolicy: { tools: { lookup: "deny" } },
    });
    const result = await catalogs(agentId);
    expect(result.agentId).toBe(agentId);
    expect(result.agentVersionId).toMatch(/^agv_/);
    expect(result.catalogs.map((c) => c.catalog)).toEqual(["definition", "platform"]);
    const [definition, platform] = result.catalogs;
    expect(definition?.tools.map((t) => t.name)).toEqual([
      "platform_todo",
      "refund",
      "lookup",
      "platform_bash",
      "platform_skill",
    ]);
    const d = byName(definition?.tools ?? []);
    expect(d.platform_todo).toMatchObject({
      type: "platform.todo",
      class: "read",
      readOnlyHint: true,
      destructiveHint: false,
      offered: true,
      deferred: false,
      reason: null,
    });
    expect(d.refund).toMatchObject({
      type: "function",
      class: "destructive",
      destructiveHint: true,
      description: "Refund an order",
      offered: true,
    });
    expect(d.lookup).toMatchObject({ type: "client", class: null, offered: false, reason: "denied" });
    expect(d.platform_skill).toMatchObject({ offered: false, reason: "condition_not_met" });
    expect(d.platform_bash).toMatchObject({ type: "platform.bash", class: "write", offered: true });
    // platform_skill is configured, so the platform catalog does not list it again.
    expect(platform?.tools.map((t) => t.name)).toEqual([
      "platform_skill_read",
      "platform_skills_apply",
      "platform_tool_search",
      "platform_deliver",
      "platform_view_image",
      "web_search",
    ]);
    const p = byName(platform?.tools ?? []);
    expect(p.platform_skill_read).toMatchObject({
      offered: false,
      reason: "condition_not_met",
      class: "read",
    });
    expect(p.platform_skills_apply).toMatchObject({
      offered: false,
      reason: "condition_not_met",
      class: "write",
    });
    // Five offerable tools: platform_tool_search is not needed.
    expect(p.platform_tool_search).toMatchObject({ offered: false, reason: "condition_not_met" });
    expect(p.platform_deliver).toMatchObject({ type: "platform.deliver", class: "read", offered: true });
    expect(p.platform_view_image).toMatchObject({ offered: true, reason: null });
    // No search provider is configured here.
    expect(p.web_search).toMatchObject({ offered: false, reason: "condition_not_met", readOnlyHint: true });
    for (const tool of platform?.tools ?? []) expect(tool.deferred).toBe(false);
  });

  it("offers the skill tools once a binding resolves; skills_apply needs a null-namespace skill; deny hides it", async () => {
    await json(tenant.keys.member, "POST", "/v1/skills/import", { files: { "SKILL.md": skillMd("guide") } });
    const agentId = await apply({
      name: "skilled",
      skills: [{ name: "guide" }],
      hitlPolicy: { tools: { platform_skills_apply: "deny" } },
    });
    const first = await catalogs(agentId);
    expect(first.catalogs[0]?.tools).toEqual([]);
    const p = byName(first.catalogs[1]?.tools ?? []);
    expect(p.platform_skill).toMatchObject({ type: "platform.skill", offered: true, reason: null });
    expect(p.platform_skill_read).toMatchObject({ offered: true });
    expect(p.platform_skills_apply).toMatchObject({ offered: false, reason: "denied", class: "write" });

    // A newer version without the deny offers it; version 1 still denies it.
    await apply({ name: "skilled", skills: [{ name: "guide" }] });
    const latest = byName((await catalogs(agentId)).catalogs[1]?.tools ?? []);
    expect(latest.platform_skills_apply).toMatchObject({ offered: true, reason: null });
    const v1 = byName((await catalogs(agentId, "?version=1")).catalogs[1]?.tools ?? []);
    expect(v1.platform_skills_apply?.reason).toBe("denied");

    // Only a plugin's skill resolves: the read tools are offered, skills_apply's condition is not met.
    await createGroundwork({ store: tenant.store }).skills.commitPackage(
      tenant.organizationId,
      skillPackageFromFiles({ "SKILL.md": skillMd("kit") }),
      { namespace: "plug", pluginId: "plg_test", source: "plugin" },
    );
    const pluginOnly = await apply({ name: "plugged", skills: [{ name: "kit" }] });
    const plugged = byName((await catalogs(pluginOnly)).catalogs[1]?.tools ?? []);
    expect(plugged.platform_skill).toMatchObject({ offered: true });
    expect(plugged.platform_skill_read).toMatchObject({ offered: true });
    expect(plugged.platform_skills_apply).toMatchObject({ offered: false, reason: "condition_not_met" });
  });

  it("defers the offerable tools past the first 20 in catalog order behind platform_tool_search", async () => {
    const tools = Array.from({ length: 23 }, (_, i) => ({
      type: "function",
      name: `fn_${String(i).padStart(2, "0")}`,
      endpoint: "https://example.com/x",
    }));
    const agentId = await apply({ name: "many", tools, hitlPolicy: { tools: { fn_03: "deny" } } });
    const result = await catalogs(agentId);
    const definition = result.catalogs[0]?.tools ?? [];
    expect(definition).toHaveLength(23);
    expect(definition.filter((t) => t.offered)).toHaveLength(22);
    expect(byName(definition).fn_03).toMatchObject({ offered: false, deferred: false, reason: "denied" });
    // 22 offerable definition tools + platform_deliver + platform_view_image: the first 20 are direct.
    expect(definition.filter((t) => t.deferred).map((t) => t.name)).toEqual(["fn_21", "fn_22"]);
    const platform = byName(result.catalogs[1]?.tools ?? []);
    expect(platform.platform_tool_search).toMatchObject({ offered: true, deferred: false, reason: null });
    expect(platform.platform_deliver).toMatchObject({ offered: true, deferred: true });
    expect(platform.platform_view_image).toMatchObject({ offered: true, deferred: true });
  });

  it("answers 404 for another organization's agent and unknown versions; 400 for a bad query; viewers may read", async () => {
    const agentId = await apply({ name: "private", tools: [{ type: "platform.todo" }] });
    const stranger = await tenant.keyFor("admin", "enterprise");
    const foreign = await json(stranger, "GET", `/v1/agents/${agentId}/tool-catalogs`);
    expect(foreign.status).toBe(404);
    expect((await bodyOf(foreign)).error).toMatchObject({ code: "not_found", type: "invalid_request_error" });
    expect((await json(tenant.keys.viewer, "GET", "/v1/agents/agt_nope/tool-catalogs")).status).toBe(404);
    const unknownVersion = await json(
      tenant.keys.viewer,
      "GET",
      `/v1/agents/${agentId}/tool-catalogs?version=9`,
    );
    expect(unknownVersion.status).toBe(404);
    expect((await bodyOf(unknownVersion)).error.param).toBe("version");
    const empty = await json(tenant.keys.viewer, "GET", `/v1/agents/${agentId}/tool-catalogs?version=`);
    expect(empty.status).toBe(400);
    expect((await bodyOf(empty)).error).toMatchObject({ type: "invalid_request_error", param: "version" });
    for (const query of ["?version=%00", "?version=latest", "?version=agv_x", "?version=a%20b", "?page=-1"]) {
      const response = await json(tenant.keys.viewer, "GET", `/v1/agents/${agentId}/tool-catalogs${query}`);
      expect(response.status, query).toBeLessThan(500);
    }
    for (const role of ["viewer", "member", "admin"] as const) {
      await catalogs(agentId, "", tenant.keys[role]);
    }
    const anonymous = await app.request(`/v1/agents/${agentId}/tool-catalogs`);
    expect(anonymous.status).toBe(401);
  });
});

describe("connector catalogs", () => {
  let mcp: McpFixture;
  let upstream: Upstream;
  beforeAll(async () => {
    mcp = await startMcpFixture({ token: null });
    upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  });
  afterAll(async () => {
    await mcp.close();
    await upstream.close();
  });

  it("lists an attached connector as not_connected until the caller's tools/list, then its tools by class", async () => {
    upstream.reset();
    const groundwork = createGroundwork({
      store: tenant.store,
      config: { builtin: { baseUrl: upstream.url, apiKey: "k" }, allowPrivateNetwork: true },
      fetch: createFastFetch(),
    });
    app = createApp({ groundwork });
    const agentId = await apply({
      name: "crm-agent",
      model: "gw-chat-1",
      hitlPolicy: { tools: { crm__echo: "deny" } },
    });
    const created = await json(tenant.keys.admin, "POST", "/v1/connectors", {
      serverLabel: "crm",
      url: mcp.url,
      agentIds: [agentId],
    });
    expect(created.status).toBe(201);
    const connectorId = ((await created.json()) as { id: string }).id;
    const before = await catalogs(agentId, "", tenant.keys.member);
    expect(before.catalogs.map((c) => c.catalog)).toEqual(["definition", "platform", "connector:crm"]);
    expect(before.catalogs[2]).toEqual({ catalog: "connector:crm", tools: [], reason: "not_connected" });

    // The member allows the agent; a turn lists the connector's tools for them.
    const allowed = await json(
      tenant.keys.member,
      "PUT",
      `/v1/connectors/${connectorId}/allowances/${agentId}`,
      {},
    );
    expect(allowed.status).toBe(200);
    upstream.enqueue({ text: "hello" });
    const turn = await json(tenant.keys.member, "POST", "/v1/responses", {
      model: "agent/crm-agent",
      input: "hi",
    });
    expect(turn.status).toBe(200);
    const after = await catalogs(agentId, "", tenant.keys.member);
    const crm = after.catalogs[2];
    expect(crm?.reason).toBeNull();
    const tools = byName(crm?.tools ?? []);
    expect(tools.crm__echo).toMatchObject({
      type: "connector",
      class: "read",
      readOnlyHint: true,
      offered: false,
      reason: "denied",
      description: "Echo the text back",
    });
    expect(tools.crm__delete_all).toMatchObject({
      class: "destructive",
      destructiveHint: true,
      offered: true,
    });
    // Another member of the organization has no listing of their own yet.
    const other = await catalogs(agentId, "", tenant.keys.admin);
    expect(other.catalogs[2]).toMatchObject({ reason: "not_connected", tools: [] });
  });
});
