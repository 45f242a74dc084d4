/** Plugins through the library: all-or-nothing installs and updates, connector host changes, the store. */
import { billingRequired, type Principal } from "@groundwork/core";
import JSZip from "jszip";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;

const md = (name: string, body = "Body") => `---\nname: ${name}\ndescription: ${name} skill\n---\n${body}\n`;

async function zipOf(entries: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [path, content] of Object.entries(entries)) zip.file(path, content);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

const plugin = (entries: Record<string, string>, name = "kit", version = "1.0.0") =>
  zipOf({ ".claude-plugin/plugin.json": JSON.stringify({ name, version }), ...entries });

async function counts(org: string) {
  const page = { page: 0, size: 100 };
  return {
    plugins: (await store.plugins.list(org, page)).total,
    skills: (await store.skills.list(org, page)).total,
    agents: (await store.agents.list(org, page)).total,
    connectors: (await store.connectors.list(org, 0, 100)).total,
  };
}

beforeEach(async () => {
  store = await openTestStore({ secret: "plugin-test-secret" });
  groundwork = createGroundwork({ store, config: { allowPrivateNetwork: true } });
  principal = await groundwork.principal("acme", "admin");
});
afterEach(async () => await store.close());

describe("PluginService", () => {
  it("writes nothing when a later component fails (one transaction)", async () => {
    let calls = 0;
    const limited = createGroundwork({
      store,
      config: { allowPrivateNetwork: true },
      allowance: {
        ownProvidersRefusal: () => null,
        checkUsage: () => {},
        checkStorage: () => {
          calls++;
          if (calls === 2) throw billingRequired("Storage is used up", { code: "storage_exhausted" });
        },
      },
    });
    const zip = await plugin({
      "skills/a/SKILL.md": md("a"),
      "skills/b/SKILL.md": md("b"),
      "agents/helper.json": JSON.stringify({ name: "helper", model: "m" }),
      ".mcp.json": JSON.stringify({ mcpServers: { docs: { type: "http", url: "http://127.0.0.1:9/mcp" } } }),
    });
    await expect(limited.plugins.install(principal, { zip })).rejects.toMatchObject({
      status: 402,
      code: "storage_exhausted",
    });
    expect(await counts(principal.organizationId)).toEqual({
      plugins: 0,
      skills: 0,
      agents: 0,
      connectors: 0,
    });

    // An update that fails leaves the installed plugin as it was.
    calls = 10;
    const installed = await limited.plugins.install(principal, { zip });
    expect(await counts(principal.organizationId)).toEqual({
      plugins: 1,
      skills: 2,
      agents: 1,
      connectors: 1,
    });
    calls = 1;
    const next = await plugin(
      {
        "skills/a/SKILL.md": md("a", "Changed"),
        "skills/c/SKILL.md": md("c"),
        ".mcp.json": JSON.stringify({ mcpServers: {} }),
      },
      "kit",
      "2.0.0",
    );
    await expect(limited.plugins.update(principal, installed.plugin.id, { zip: next })).rejects.toMatchObject(
      {
        status: 402,
      },
    );
    expect(await counts(principal.organizationId)).toEqual({
      plugins: 1,
      skills: 2,
      agents: 1,
      connectors: 1,
    });
    expect((await store.plugins.get(principal.organizationId, installed.plugin.id))?.version).toBe("1.0.0");
    expect((await store.skills.byQualifiedName(principal.organizationId, "kit:a"))?.latestVersionNumber).toBe(
      1,
    );
  });

  it("keeps members' connections while the host stays and drops them when it moves", async () => {
    const mcp = (url: string, description: string) =>
      JSON.stringify({ mcpServers: { docs: { type: "http", url, auth: "bearer", description } } });
    const installed = await groundwork.plugins.install(principal, {
      zip: await plugin({ ".mcp.json": mcp("http://127.0.0.1:9/mcp", "one") }),
    });
    const [connectorId] = installed.plugin.components.connectorIds;
    const member = await groundwork.principal("acme", "member");
    await groundwork.connectors.connect(member, connectorId as string, { token: "secret-token" });
    expect((await groundwork.connectors.connection(member, connectorId as string)).status).toBe("connected");

    const same = await groundwork.plugins.update(principal, installed.plugin.id, {
      zip: await plugin({ ".mcp.json": mcp("http://127.0.0.1:9/mcp", "two") }),
    });
    expect(same.changes.connectors.updated).toEqual(["docs"]);
    expect((await groundwork.connectors.connection(member, connectorId as string)).status).toBe("connected");

    const moved = await groundwork.plugins.update(principal, installed.plugin.id, {
      zip: await plugin({ ".mcp.json": mcp("http://127.0.0.2:9/mcp", "two") }),
    });
    expect(moved.changes.connectors.updated).toEqual(["docs"]);
    expect(moved.plugin.components.connectorIds).toEqual([connectorId]);
    expect((await groundwork.connectors.connection(member, connectorId as string)).status).toBe(
      "not_connected",
    );

    const unchanged = await groundwork.plugins.update(principal, installed.plugin.id, {
      zip: await plugin({ ".mcp.json": mcp("http://127.0.0.2:9/mcp", "two") }),
    });
    expect(unchanged.changes.connectors).toEqual({ created: [], updated: [], removed: [] });
  });

  it("stores plugins per organization, newest first", async () => {
    const other = await groundwork.principal("other", "admin");
    await groundwork.plugins.install(principal, { zip: await plugin({}, "one") });
    await groundwork.plugins.install(principal, { zip: await plugin({}, "two") });
    await groundwork.plugins.install(other, { zip: await plugin({}, "one") });
    const listed = await groundwork.plugins.list(principal.organizationId, { page: 0, size: 10 });
    expect(listed.total).toBe(2);
    expect(listed.items.map((p) => p.name).sort()).toEqual(["one", "two"]);
    expect(await store.plugins.byName(other.organizationId, "two")).toBeNull();
    const [first] = listed.items;
    await expect(groundwork.plugins.get(other.organizationId, first?.id as string)).rejects.toThrow(
      /No plugin/,
    );
  });
});
