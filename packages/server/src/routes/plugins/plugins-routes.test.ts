/** `/v1/plugins…`: install, update, sync, delete; validation, roles, isolation, URL sources. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createGroundwork, storePlanAllowance } from "@groundwork/platform";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type PluginSpec, pluginZip } from "../../../test/plugin-zips.js";
import { lieAboutSizes, multipartOf, skillMd, zipOf } from "../../../test/skill-zips.js";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { SERVER_SETTING_NAMES } from "../../config.js";

let tenant: TestTenant;
let app: App;
let stranger: string;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({
    groundwork: createGroundwork({
      store: tenant.store,
      allowance: storePlanAllowance(tenant.store),
      config: { allowPrivateNetwork: true, settingNames: SERVER_SETTING_NAMES },
    }),
  });
  stranger = await tenant.keyFor("admin", "enterprise");
});

const admin = () => tenant.keys.admin;
const member = () => tenant.keys.member;
const viewer = () => tenant.keys.viewer;

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const upload = (key: string, zip: Uint8Array, method = "POST", path = "/v1/plugins") =>
  app.request(path, { method, headers: bearer(key), body: multipartOf(zip, "plugin.zip") });
const install = async (spec: PluginSpec = {}, key = admin()) => upload(key, await pluginZip(spec));

async function expectError(response: Response, status: number, code: string, param?: string | null) {
  const body = await bodyOf(response);
  expect(response.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  if (param !== undefined) expect(body.error.param).toBe(param);
  return body;
}

// ---- a loopback source server ----

let server: Server;
let base: string;
let served: Uint8Array = new Uint8Array();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const hops = /^\/r\/(\d+)$/.exec(url.pathname);
    if (hops !== null) {
      const left = Number(hops[1]);
      res.writeHead(302, { Location: left === 0 ? "/plugin.zip" : `/r/${left - 1}` });
      res.end();
    } else if (url.pathname === "/plugin.zip") {
      res.writeHead(200, { "Content-Type": "application/zip" });
      res.end(served);
    } else {
      res.writeHead(404);
      res.end("missing");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("POST /v1/plugins", () => {
  it("installs a zip: namespaced skills, agents, warnings for skipped parts", async () => {
    const response = await install({
      skills: { "pdf-tools": "", "csv-tools": "" },
      agents: { helper: { skills: [{ name: "acme:pdf-tools" }] } },
      mcpServers: { local: { command: "node" } },
    });
    const body = await bodyOf(response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.plugin).toMatchObject({
      id: expect.stringMatching(/^plg_/),
      name: "acme",
      version: "1.0.0",
      description: "The acme plugin",
      manifest: { name: "acme", version: "1.0.0" },
      source: { type: "upload", url: null },
      installedAt: expect.stringMatching(/Z$/),
      lastSyncedAt: null,
    });
    expect(body.changes).toEqual({
      skills: { created: ["acme:csv-tools", "acme:pdf-tools"], versioned: [], unchanged: [], removed: [] },
      connectors: { created: [], updated: [], removed: [] },
      agents: { created: ["helper"], versioned: [], unchanged: [], removed: [] },
    });
    expect((body.warnings as string[]).join("\n")).toMatch(/local.*skipped/);
    const plugin = body.plugin as { id: string; components: { skillIds: string[]; agentIds: string[] } };
    expect(plugin.components.skillIds).toHaveLength(2);
    expect(plugin.components.agentIds).toHaveLength(1);

    const skill = await bodyOf(await json(viewer(), "GET", "/v1/skills/acme%3Apdf-tools"));
    expect(skill).toMatchObject({ namespace: "acme", pluginId: plugin.id, qualifiedName: "acme:pdf-tools" });
    const version = await bodyOf(await json(viewer(), "GET", "/v1/skills/acme%3Apdf-tools/versions/latest"));
    expect(version.source).toBe("plugin");
    // Hand edits of plugin skills are refused.
    await expectError(await json(admin(), "DELETE", "/v1/skills/acme%3Apdf-tools"), 409, "managed_by_plugin");

    const listed = await bodyOf(await json(viewer(), "GET", "/v1/plugins"));
    expect(listed).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    const got = await bodyOf(await json(viewer(), "GET", `/v1/plugins/${plugin.id}`));
    expect(got).toMatchObject({ id: plugin.id, name: "acme", warnings: body.warnings });
  });

  it("refuses a second plugin of the same name and names owned by others", async () => {
    expect((await install()).status).toBe(201);
    await expectError(await install(), 409, "conflict");
    expect(
      (await json(admin(), "POST", "/v1/agents/apply", { name: "taken", model: "gw-chat-1" })).status,
    ).toBe(201);
    await expectError(
      await install({ name: "other", agents: { taken: {} } }),
      409,
      "name_conflict",
      "agents/taken.json:name",
    );
    // Nothing of the refused plugin was written.
    expect((await bodyOf(await json(viewer(), "GET", "/v1/plugins"))).totalElements).toBe(1);
    await expectError(await json(viewer(), "GET", "/v1/skills/other%3Apdf-tools"), 404, "not_found");
  });

  it("validates bodies: 400 with param, never a 500", async () => {
    await expectError(await json(admin(), "POST", "/v1/plugins", {}), 400, "invalid_request", "sourceUrl");
    await expectError(
      await json(admin(), "POST", "/v1/plugins", { sourceUrl: "ftp://x" }),
      400,
      "invalid_request",
      "sourceUrl",
    );
    await expectError(await json(admin(), "POST", "/v1/plugins", "{not json"), 400, "invalid_request");
    await expectError(await upload(admin(), new TextEncoder().encode("nope")), 400, "invalid_plugin", "file");
    const form = new FormData();
    form.set("other", "x");
    await expectError(
      await app.request("/v1/plugins", { method: "POST", headers: bearer(admin()), body: form }),
      400,
      "invalid_request",
      "file",
    );
    await expectError(await json(viewer(), "GET", "/v1/plugins?size=0"), 400, "invalid_request", "size");
    await expectError(await upload(admin(), new Uint8Array(10_485_761)), 413, "payload_too_large");
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (value) => {
        const response = await json(
          admin(),
          "POST",
          "/v1/plugins",
          value === undefined ? "null" : JSON.stringify(value),
        );
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });

  it("fuzzes manifests inside zips: never a 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.anything(), fc.string()), fc.anything(), async (manifest, mcp) => {
        const zip = await zipOf({
          ".claude-plugin/plugin.json":
            typeof manifest === "string" ? manifest : (JSON.stringify(manifest) ?? "null"),
          ".mcp.json": JSON.stringify(mcp) ?? "null",
          "skills/a/SKILL.md": skillMd("a"),
        });
        const response = await upload(admin(), zip);
        expect(response.status).toBeLessThan(500);
        if (response.status === 201) {
          const { plugin } = (await bodyOf(response)) as unknown as { plugin: { id: string } };
          expect((await json(admin(), "DELETE", `/v1/plugins/${plugin.id}`)).status).toBe(204);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("roles and isolation", () => {
  it("viewers and members read; only admins install, update, sync, delete", async () => {
    const zip = await pluginZip();
    await expectError(await upload(member(), zip), 403, "forbidden");
    await expectError(await upload(viewer(), zip), 403, "forbidden");
    const { plugin } = (await bodyOf(await upload(admin(), zip))) as unknown as { plugin: { id: string } };
    expect((await json(viewer(), "GET", `/v1/plugins/${plugin.id}`)).status).toBe(200);
    expect((await json(member(), "GET", "/v1/plugins")).status).toBe(200);
    await expectError(await upload(member(), zip, "PUT", `/v1/plugins/${plugin.id}`), 403, "forbidden");
    await expectError(await json(member(), "POST", `/v1/plugins/${plugin.id}/sync`), 403, "forbidden");
    await expectError(await json(member(), "DELETE", `/v1/plugins/${plugin.id}`), 403, "forbidden");
  });

  it("another organization's plugin is 404 everywhere", async () => {
    const zip = await pluginZip();
    const { plugin } = (await bodyOf(await upload(admin(), zip))) as unknown as { plugin: { id: string } };
    await expectError(await json(stranger, "GET", `/v1/plugins/${plugin.id}`), 404, "not_found");
    await expectError(await upload(stranger, zip, "PUT", `/v1/plugins/${plugin.id}`), 404, "not_found");
    await expectError(await json(stranger, "POST", `/v1/plugins/${plugin.id}/sync`), 404, "not_found");
    await expectError(await json(stranger, "DELETE", `/v1/plugins/${plugin.id}`), 404, "not_found");
    expect((await bodyOf(await json(stranger, "GET", "/v1/plugins"))).totalElements).toBe(0);
    // The other organization may install its own plugin of the same name.
    expect((await upload(stranger, zip)).status).toBe(201);
  });
});

describe("PUT /v1/plugins/{id}", () => {
  it("creates, versions, keeps and removes skills and agents", async () => {
    const first = await bodyOf(
      await install({ skills: { keep: "", change: "", drop: "" }, agents: { same: {}, edit: {}, gone: {} } }),
    );
    const id = (first.plugin as { id: string }).id;
    const response = await upload(
      admin(),
      await pluginZip({
        version: "2.0.0",
        skills: { keep: "", change: "\nMore.\n", fresh: "" },
        agents: { same: {}, edit: { instructions: "Changed." }, added: {} },
      }),
      "PUT",
      `/v1/plugins/${id}`,
    );
    const body = await bodyOf(response);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.changes).toEqual({
      skills: {
        created: ["acme:fresh"],
        versioned: ["acme:change"],
        unchanged: ["acme:keep"],
        removed: ["acme:drop"],
      },
      connectors: { created: [], updated: [], removed: [] },
      agents: { created: ["added"], versioned: ["edit"], unchanged: ["same"], removed: ["gone"] },
    });
    expect(body.plugin).toMatchObject({ version: "2.0.0", manifest: { version: "2.0.0" } });
    await expectError(await json(viewer(), "GET", "/v1/skills/acme%3Adrop"), 404, "not_found");
    const agents = await bodyOf(await json(viewer(), "GET", "/v1/agents"));
    expect((agents.content as Array<{ agent?: { name: string }; name?: string }>).length).toBe(3);
  });

  it("refuses another plugin's package and a 404 id", async () => {
    const { plugin } = (await bodyOf(await install())) as unknown as { plugin: { id: string } };
    await expectError(
      await upload(admin(), await pluginZip({ name: "other" }), "PUT", `/v1/plugins/${plugin.id}`),
      400,
      "plugin_name_mismatch",
      ".claude-plugin/plugin.json:name",
    );
    await expectError(
      await upload(admin(), await pluginZip(), "PUT", "/v1/plugins/plg_missing"),
      404,
      "not_found",
    );
  });

  it("refuses removing a skill an outside agent binds (plugin_in_use naming it); delete may force", async () => {
    const { plugin } = (await bodyOf(
      await install({ skills: { "pdf-tools": "", "csv-tools": "" } }),
    )) as unknown as {
      plugin: { id: string };
    };
    expect(
      (
        await json(admin(), "POST", "/v1/agents/apply", {
          name: "outsider",
          model: "gw-chat-1",
          skills: [{ name: "acme:csv-tools" }],
        })
      ).status,
    ).toBe(201);
    const refused = await expectError(
      await upload(
        admin(),
        await pluginZip({ skills: { "pdf-tools": "" } }),
        "PUT",
        `/v1/plugins/${plugin.id}`,
      ),
      409,
      "plugin_in_use",
    );
    expect(refused.error.message).toMatch(/outsider/);
    expect(refused.error.message).toMatch(/acme:csv-tools/);
    expect((await json(viewer(), "GET", "/v1/skills/acme%3Acsv-tools")).status).toBe(200);

    const deleteRefused = await expectError(
      await json(admin(), "DELETE", `/v1/plugins/${plugin.id}`),
      409,
      "plugin_in_use",
    );
    expect(deleteRefused.error.message).toMatch(/outsider/);
    await expectError(
      await json(admin(), "DELETE", `/v1/plugins/${plugin.id}?force=maybe`),
      400,
      "invalid_request",
      "force",
    );
    expect((await json(admin(), "DELETE", `/v1/plugins/${plugin.id}?force=true`)).status).toBe(204);
    await expectError(await json(viewer(), "GET", `/v1/plugins/${plugin.id}`), 404, "not_found");
    await expectError(await json(viewer(), "GET", "/v1/skills/acme%3Acsv-tools"), 404, "not_found");
    const skills = await bodyOf(await json(viewer(), "GET", `/v1/agents/${await outsiderId()}/skills`));
    expect((skills.skills as Array<{ status: string }>)[0]?.status).toBe("skill_not_found");
  });
});

async function outsiderId(): Promise<string> {
  const agents = await bodyOf(await json(viewer(), "GET", "/v1/agents"));
  const content = agents.content as Array<Record<string, unknown>>;
  const found = content.find((entry) => JSON.stringify(entry).includes('"outsider"')) as Record<
    string,
    unknown
  >;
  return ((found.agent as { id: string } | undefined)?.id ?? found.id) as string;
}

describe("DELETE /v1/plugins/{id}", () => {
  it("removes every component", async () => {
    const { plugin } = (await bodyOf(await install({ agents: { helper: {} } }))) as unknown as {
      plugin: { id: string };
    };
    expect((await json(admin(), "DELETE", `/v1/plugins/${plugin.id}`)).status).toBe(204);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/agents"))).totalElements).toBe(0);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills"))).totalElements).toBe(0);
    await expectError(await json(admin(), "DELETE", `/v1/plugins/${plugin.id}`), 404, "not_found");
  });
});

describe("URL sources and sync", () => {
  it("installs from a URL (redirects up to 3), syncs it, and refuses syncing an upload", async () => {
    served = await pluginZip({ name: "remote" });
    const response = await json(admin(), "POST", "/v1/plugins", { sourceUrl: `${base}/r/2` });
    const body = await bodyOf(response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    const plugin = body.plugin as { id: string; source: unknown; lastSyncedAt: string | null };
    expect(plugin.source).toEqual({ type: "url", url: `${base}/r/2` });
    expect(plugin.lastSyncedAt).toMatch(/Z$/);

    served = await pluginZip({ name: "remote", version: "1.1.0", skills: { "pdf-tools": "\nNew.\n" } });
    const synced = await bodyOf(await json(admin(), "POST", `/v1/plugins/${plugin.id}/sync`));
    expect(synced).toMatchObject({
      plugin: { version: "1.1.0" },
      changes: { skills: { versioned: ["remote:pdf-tools"] } },
    });
    const again = await bodyOf(await json(admin(), "POST", `/v1/plugins/${plugin.id}/sync`));
    expect(again).toMatchObject({ changes: { skills: { unchanged: ["remote:pdf-tools"] } } });

    const uploaded = (await bodyOf(await install())).plugin as { id: string };
    await expectError(
      await json(admin(), "POST", `/v1/plugins/${uploaded.id}/sync`),
      409,
      "source_not_syncable",
    );
  });

  it("answers source_unreachable for 404s, too many redirects and dead hosts", async () => {
    served = await pluginZip();
    await expectError(
      await json(admin(), "POST", "/v1/plugins", { sourceUrl: `${base}/missing` }),
      400,
      "source_unreachable",
      "sourceUrl",
    );
    await expectError(
      await json(admin(), "POST", "/v1/plugins", { sourceUrl: `${base}/r/3` }),
      400,
      "source_unreachable",
      "sourceUrl",
    );
    await expectError(
      await json(admin(), "POST", "/v1/plugins", { sourceUrl: "http://127.0.0.1:1/x.zip" }),
      400,
      "source_unreachable",
    );
    served = new TextEncoder().encode("not a zip");
    await expectError(
      await json(admin(), "POST", "/v1/plugins", { sourceUrl: `${base}/plugin.zip` }),
      400,
      "invalid_plugin",
    );
  });

  it("refuses private network sources unless allowed", async () => {
    const strict = createApp({ store: tenant.store });
    served = await pluginZip();
    const response = await strict.request("/v1/plugins", {
      method: "POST",
      headers: { ...bearer(admin()), "Content-Type": "application/json" },
      body: JSON.stringify({ sourceUrl: `${base}/plugin.zip` }),
    });
    const body = await expectError(response, 400, "private_network", "sourceUrl");
    expect(body.error.message).toMatch(/GROUNDWORK_ALLOW_PRIVATE_NETWORK/);
  });
});

describe("install from a zip with one top-level folder", () => {
  it("strips it", async () => {
    const zip = await zipOf({
      "pkg/.claude-plugin/plugin.json": JSON.stringify({ name: "wrapped" }),
      "pkg/skills/a/SKILL.md": skillMd("a"),
    });
    const body = await bodyOf(await upload(admin(), zip));
    expect(body).toMatchObject({
      plugin: { name: "wrapped", version: "0.0.0" },
      changes: { skills: { created: ["wrapped:a"] } },
    });
  });
});

describe("connectors from .mcp.json", () => {
  const http = (url: string, extra: Record<string, unknown> = {}) => ({ type: "http", url, ...extra });

  it("creates, updates, keeps and removes connectors owned by the plugin", async () => {
    const first = await install({
      agents: { helper: {} },
      mcpServers: {
        docs: http("http://127.0.0.1:9/docs", { auth: "bearer", description: "Docs" }),
        same: http("http://127.0.0.1:9/same"),
        gone: http("http://127.0.0.1:9/gone"),
        local: { type: "stdio", command: "node" },
      },
    });
    const body = await bodyOf(first);
    expect(first.status, JSON.stringify(body)).toBe(201);
    const plugin = body.plugin as { id: string; components: { connectorIds: string[]; agentIds: string[] } };
    expect(body.changes).toMatchObject({
      connectors: { created: ["docs", "same", "gone"], updated: [], removed: [] },
    });
    expect(plugin.components.connectorIds).toHaveLength(3);
    const docs = await bodyOf(
      await json(viewer(), "GET", `/v1/connectors/${plugin.components.connectorIds[0]}`),
    );
    expect(docs).toMatchObject({
      serverLabel: "docs",
      authKind: "bearer",
      description: "Docs",
      pluginId: plugin.id,
      agentIds: plugin.components.agentIds,
    });
    // Hand edits are refused.
    await expectError(
      await json(admin(), "PATCH", `/v1/connectors/${docs.id}`, { description: "mine" }),
      409,
      "managed_by_plugin",
    );
    await expectError(await json(admin(), "DELETE", `/v1/connectors/${docs.id}`), 409, "managed_by_plugin");

    const updated = await bodyOf(
      await upload(
        admin(),
        await pluginZip({
          agents: { helper: {} },
          mcpServers: {
            docs: http("http://127.0.0.1:9/docs", { auth: "bearer", description: "Better docs" }),
            same: http("http://127.0.0.1:9/same"),
            fresh: http("http://127.0.0.1:9/fresh"),
          },
        }),
        "PUT",
        `/v1/plugins/${plugin.id}`,
      ),
    );
    expect(updated.changes).toMatchObject({
      connectors: { created: ["fresh"], updated: ["docs"], removed: ["gone"] },
    });
    expect((await bodyOf(await json(viewer(), "GET", `/v1/connectors/${docs.id}`))).description).toBe(
      "Better docs",
    );

    expect((await json(admin(), "DELETE", `/v1/plugins/${plugin.id}`)).status).toBe(204);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/connectors"))).totalElements).toBe(0);
  });

  it("refuses a label owned by a hand-made connector, and private URLs unless allowed", async () => {
    expect(
      (await json(admin(), "POST", "/v1/connectors", { serverLabel: "docs", url: "http://127.0.0.1:9/x" }))
        .status,
    ).toBe(201);
    await expectError(
      await install({ mcpServers: { docs: http("http://127.0.0.1:9/docs") } }),
      409,
      "name_conflict",
      ".mcp.json:mcpServers.docs",
    );
    const strict = createApp({ store: tenant.store });
    const response = await strict.request("/v1/plugins", {
      method: "POST",
      headers: bearer(admin()),
      body: multipartOf(
        await pluginZip({ name: "strict", mcpServers: { near: http("http://127.0.0.1:9/x") } }),
      ),
    });
    await expectError(response, 400, "private_network", ".mcp.json:mcpServers.near.url");
    expect((await bodyOf(await json(viewer(), "GET", "/v1/plugins"))).totalElements).toBe(0);
  });
});

describe("hostile archives over HTTP", () => {
  it("refuses symlinks and lying size headers without writing anything", async () => {
    const link = await pluginZip({
      extra: { "skills/pdf-tools/link": { content: "/etc/passwd", unixPermissions: 0o120777 } },
    });
    await expectError(await upload(admin(), link), 400, "invalid_plugin", "skills/pdf-tools/link");
    const liar = lieAboutSizes(
      await pluginZip({ extra: { "skills/pdf-tools/zeros.bin": new Uint8Array(2 * 1024 * 1024) } }),
      100,
    );
    await expectError(await upload(admin(), liar), 413, "payload_too_large", "skills/pdf-tools/zeros.bin");
    expect((await bodyOf(await json(viewer(), "GET", "/v1/plugins"))).totalElements).toBe(0);
    expect((await bodyOf(await json(viewer(), "GET", "/v1/skills"))).totalElements).toBe(0);
  });
});
