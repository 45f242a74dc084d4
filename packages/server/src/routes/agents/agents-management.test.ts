import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  app = createApp({ store: tenant.store });
});
afterEach(async () => await tenant.store.close());

const call = (method: string, path: string, body?: unknown, role: "viewer" | "member" | "admin" = "member") =>
  app.request(path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { ...bearer(tenant.keys[role]), "content-type": "application/json" },
  });

const definition = {
  name: "support",
  description: "Answers support questions",
  models: ["gw-chat-1", "hosted-a/gpt-x"],
  instructions: "Be brief.",
  tools: [
    { type: "platform.todo" },
    { name: "open_ticket", annotations: { readOnlyHint: false, destructiveHint: false } },
    { name: "drop_account", annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: "lookup", annotations: { readOnlyHint: true, destructiveHint: false } },
  ],
  hitlPolicy: {
    version: 1,
    default: "approve",
    classes: { read: "allow", destructive: "block" },
    tools: { open_ticket: "auto" },
  },
};

async function apply(body: unknown = definition) {
  const response = await call("POST", "/v1/agents/apply", body);
  return { status: response.status, body: await bodyOf(response) };
}

describe("apply", () => {
  it("creates the agent, then a new version by exact name, and nothing when unchanged", async () => {
    const first = await apply();
    expect(first.status).toBe(201);
    expect(first.body.result).toBe("created");
    const agent = first.body.agent as { id: string; models: string[]; model: string; published: boolean };
    expect(agent.models).toEqual(["gw-chat-1", "hosted-a/gpt-x"]);
    expect(agent.model).toBe("gw-chat-1");
    expect(agent.published).toBe(false);
    expect((first.body.version as { versionNumber: number }).versionNumber).toBe(1);

    const same = await apply();
    expect(same.status).toBe(200);
    expect(same.body.result).toBe("unchanged");

    const changed = await apply({ ...definition, instructions: "Be very brief." });
    expect(changed.status).toBe(201);
    expect(changed.body.result).toBe("versioned");
    expect((changed.body.version as { versionNumber: number }).versionNumber).toBe(2);
    expect((changed.body.agent as { id: string }).id).toBe(agent.id);
  });

  it("answers 400 naming the offending field", async () => {
    const bad = await apply({ ...definition, tools: [{ type: "function", name: "f", endpoint: "ftp://x" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("tools[0].endpoint");
    expect(bad.body.error.code).toBe("invalid_agent_definition");
    const mismatch = await apply({ ...definition, model: "hosted-a/gpt-x" });
    expect(mismatch.body.error.param).toBe("model");
  });

  it("needs Member", async () => {
    const response = await call("POST", "/v1/agents/apply", definition, "viewer");
    expect(response.status).toBe(403);
  });
});

describe("CRUD, catalog and roles", () => {
  it("creates with POST (409 on a taken name), reads, lists, publishes and deletes", async () => {
    const created = await call("POST", "/v1/agents", definition);
    expect(created.status).toBe(201);
    const { id } = (await bodyOf(created)) as unknown as { id: string };
    expect((await call("POST", "/v1/agents", definition)).status).toBe(409);

    const list = await bodyOf(await call("GET", "/v1/agents", undefined, "viewer"));
    expect(list).toMatchObject({ page: 0, size: 20, totalElements: 1, totalPages: 1 });

    const catalogBefore = await bodyOf(await call("GET", "/v1/agents/catalog", undefined, "viewer"));
    expect(catalogBefore.content).toEqual([]);
    const patched = await call("PATCH", `/v1/agents/${id}`, { published: true });
    expect(((await bodyOf(patched)) as unknown as { published: boolean }).published).toBe(true);
    const catalog = await bodyOf(await call("GET", "/v1/agents/catalog", undefined, "viewer"));
    expect(catalog.content).toEqual([{ id, name: "support", description: "Answers support questions" }]);

    expect((await call("PATCH", `/v1/agents/${id}`, { published: "yes" })).status).toBe(400);
    expect((await call("PATCH", `/v1/agents/${id}`, { name: "x" })).status).toBe(400);
    expect((await call("DELETE", `/v1/agents/${id}`, undefined, "member")).status).toBe(403);
    expect((await call("DELETE", `/v1/agents/${id}`, undefined, "admin")).status).toBe(204);
    expect((await call("GET", `/v1/agents/${id}`)).status).toBe(404);
  });

  it("PATCH with definition fields commits a validated version", async () => {
    const { agent } = (await apply()).body as unknown as { agent: { id: string } };
    const response = await call("PATCH", `/v1/agents/${agent.id}`, { models: ["hosted-a/gpt-x"] });
    const body = (await bodyOf(response)) as unknown as { models: string[]; latestVersionNumber: number };
    expect(body.models).toEqual(["hosted-a/gpt-x"]);
    expect(body.latestVersionNumber).toBe(2);
    const bad = await call("PATCH", `/v1/agents/${agent.id}`, { instructions: "x".repeat(20001) });
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).error.param).toBe("instructions");
  });
});

describe("versions and labels", () => {
  it("lists, reads latest, deactivates and re-activates as a copy at the head", async () => {
    const { agent } = (await apply()).body as unknown as { agent: { id: string } };
    const v2 = await call("POST", `/v1/agents/${agent.id}/versions`, { model: "gw-chat-1" });
    expect(v2.status).toBe(201);
    const v2Body = (await bodyOf(v2)) as unknown as { id: string; versionNumber: number };
    expect(v2Body.versionNumber).toBe(2);
    expect(
      (await call("POST", `/v1/agents/${agent.id}/versions`, { name: "other", model: "gw-chat-1" })).status,
    ).toBe(400);

    const latest = (await bodyOf(await call("GET", `/v1/agents/${agent.id}/versions/latest`))) as unknown as {
      id: string;
    };
    expect(latest.id).toBe(v2Body.id);
    expect(
      (await call("DELETE", `/v1/agents/${agent.id}/versions/${v2Body.id}`, undefined, "admin")).status,
    ).toBe(204);
    const back = (await bodyOf(await call("GET", `/v1/agents/${agent.id}/versions/latest`))) as unknown as {
      versionNumber: number;
    };
    expect(back.versionNumber).toBe(1);
    const byNumber = (await bodyOf(await call("GET", `/v1/agents/${agent.id}/versions/2`))) as unknown as {
      active: boolean;
    };
    expect(byNumber.active).toBe(false);

    const copy = await call("PUT", `/v1/agents/${agent.id}/versions/${v2Body.id}/activate`);
    const copyBody = (await bodyOf(copy)) as unknown as {
      versionNumber: number;
      copiedFromVersionId: string;
      active: boolean;
    };
    expect(copyBody).toMatchObject({ versionNumber: 3, copiedFromVersionId: v2Body.id, active: true });
    const versions = await bodyOf(await call("GET", `/v1/agents/${agent.id}/versions`));
    expect(versions.totalElements).toBe(3);
  });

  it("labels: {name, agentVersionId}, 409 on a duplicate or a deactivated target", async () => {
    const { agent, version } = (await apply()).body as unknown as {
      agent: { id: string };
      version: { id: string };
    };
    const created = await call("POST", `/v1/agents/${agent.id}/labels`, {
      name: "production",
      agentVersionId: version.id,
    });
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toMatchObject({
      name: "production",
      agentVersionId: version.id,
      versionNumber: 1,
    });
    expect(
      (
        await call("POST", `/v1/agents/${agent.id}/labels`, {
          name: "production",
          agentVersionId: version.id,
        })
      ).status,
    ).toBe(409);
    const v2 = (await bodyOf(
      await call("POST", `/v1/agents/${agent.id}/versions`, { model: "gw-chat-1" }),
    )) as unknown as {
      id: string;
    };
    const moved = await call("PUT", `/v1/agents/${agent.id}/labels/production`, { agentVersionId: v2.id });
    expect(((await bodyOf(moved)) as unknown as { versionNumber: number }).versionNumber).toBe(2);
    await call("PUT", `/v1/agents/${agent.id}/labels/staging`, { agentVersionId: version.id });
    const labels = (await bodyOf(await call("GET", `/v1/agents/${agent.id}/labels`))) as unknown as Array<{
      name: string;
    }>;
    expect(labels.map((l) => l.name)).toEqual(["production", "staging"]);
    await call("DELETE", `/v1/agents/${agent.id}/versions/${version.id}`, undefined, "admin");
    const stale = await call("POST", `/v1/agents/${agent.id}/labels`, {
      name: "qa",
      agentVersionId: version.id,
    });
    expect(stale.status).toBe(409);
    expect((await call("DELETE", `/v1/agents/${agent.id}/labels/staging`, undefined, "member")).status).toBe(
      403,
    );
    expect((await call("DELETE", `/v1/agents/${agent.id}/labels/staging`, undefined, "admin")).status).toBe(
      204,
    );
  });
});

describe("policy explanation", () => {
  it("explains the verdict per tool, with tool and mode parameters", async () => {
    const { agent, version } = (await apply()).body as unknown as {
      agent: { id: string };
      version: { id: string };
    };
    const path = `/v1/agents/${agent.id}/versions/${version.id}/policy`;
    const all = (await bodyOf(await call("GET", path, undefined, "viewer"))) as unknown as {
      mode: string;
      tools: Array<{
        tool: string;
        verdict: string;
        action: string;
        class: string | null;
        source: string;
        matched: string[];
      }>;
    };
    const byTool = Object.fromEntries(all.tools.map((t) => [t.tool, t]));
    expect(all.mode).toBe("ask");
    expect(byTool.platform_todo).toMatchObject({ verdict: "EXECUTE", class: "read", source: "classes.read" });
    expect(byTool.lookup).toMatchObject({ verdict: "RELAY", class: "read" });
    expect(byTool.open_ticket).toMatchObject({
      verdict: "JUDGE",
      class: "write",
      source: "tools.open_ticket",
    });
    expect(byTool.drop_account).toMatchObject({
      verdict: "BLOCK",
      class: "destructive",
      source: "classes.destructive",
    });
    expect(byTool.drop_account?.matched).toEqual(["default=approve", "classes.destructive=block"]);

    const plan = (await bodyOf(await call("GET", `${path}?tool=open_ticket&mode=plan`))) as unknown as {
      tools: Array<{ tool: string; verdict: string; modeChangedVerdict: string | null }>;
    };
    expect(plan.tools).toHaveLength(1);
    expect(plan.tools[0]).toMatchObject({ verdict: "BLOCK", modeChangedVerdict: "conversation_mode.plan" });
    const unknown = (await bodyOf(await call("GET", `${path}?tool=ghost`))) as unknown as {
      tools: Array<{ verdict: string }>;
    };
    expect(unknown.tools[0]?.verdict).toBe("FAIL");
    expect((await call("GET", `${path}?mode=wild`)).status).toBe(400);
  });

  it("explains for a plugin installation only when it exists: none do in this build (404, param installationId)", async () => {
    const { agent, version } = (await apply()).body as unknown as {
      agent: { id: string };
      version: { id: string };
    };
    const response = await call(
      "GET",
      `/v1/agents/${agent.id}/versions/${version.id}/policy?installationId=plg_unknown`,
      undefined,
      "viewer",
    );
    expect(response.status).toBe(404);
    expect(await bodyOf(response)).toMatchObject({
      error: { code: "not_found", param: "installationId", message: "No plugin installation plg_unknown" },
    });
  });
});
