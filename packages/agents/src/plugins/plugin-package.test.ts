import fc from "fast-check";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { parsePluginManifest, parsePluginMcpServers, pluginPackageFromZip } from "./plugin-package.js";

const skillMd = (name: string, description = `The ${name} skill`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const manifest = (name = "acme-tools", extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: "1.2.0", description: "Tools", ...extra });
const agentFile = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, model: "openai/gpt-4o-mini", instructions: "Help.", ...extra });

type Entries = Record<string, string | Uint8Array | { content: string; unixPermissions: number }>;

async function zipOf(entries: Entries): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [path, value] of Object.entries(entries)) {
    if (typeof value === "object" && !(value instanceof Uint8Array)) {
      zip.file(path, value.content, { unixPermissions: value.unixPermissions });
    } else zip.file(path, value);
  }
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", platform: "UNIX" });
}

/** A zip whose placeholder entry name is patched to `name` (same byte length). */
async function zipWithName(name: string): Promise<Uint8Array> {
  const placeholder = "Q".repeat(new TextEncoder().encode(name).length);
  const bytes = await zipOf({ ".claude-plugin/plugin.json": manifest(), [placeholder]: "x" });
  const encoded = new TextEncoder().encode(name);
  const needle = new TextEncoder().encode(placeholder);
  for (let i = 0; i + needle.length <= bytes.length; i++) {
    if (needle.every((b, k) => bytes[i + k] === b)) bytes.set(encoded, i);
  }
  return bytes;
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; param: string | null }> {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string; param: string | null };
  }
  throw new Error("expected a failure");
}

const full: Entries = {
  ".claude-plugin/plugin.json": manifest(),
  "skills/pdf/SKILL.md": skillMd("pdf-tools"),
  "skills/pdf/scripts/run.py": "print(1)\n",
  "skills/csv/SKILL.md": skillMd("csv-tools"),
  ".mcp.json": JSON.stringify({
    mcpServers: {
      docs: { type: "http", url: "https://mcp.example.com/mcp", auth: "bearer", description: "Docs" },
      local: { command: "node", args: ["server.js"] },
    },
  }),
  "agents/helper.json": agentFile("helper", { skills: [{ name: "acme-tools:pdf-tools" }] }),
  "agents/notes.md": "# not an agent",
  "README.md": "hello",
};

describe("pluginPackageFromZip", () => {
  it("reads the manifest, skills, connectors and agents, with warnings for what it skips", async () => {
    const pkg = await pluginPackageFromZip(await zipOf(full));
    expect(pkg.manifest).toMatchObject({ name: "acme-tools", version: "1.2.0", description: "Tools" });
    expect(pkg.skills.map((s) => [s.dir, s.package.name])).toEqual([
      ["csv", "csv-tools"],
      ["pdf", "pdf-tools"],
    ]);
    expect(pkg.skills[1]?.package.files.map((f) => f.path)).toEqual(["SKILL.md", "scripts/run.py"]);
    expect(pkg.connectors).toEqual([
      { serverLabel: "docs", url: "https://mcp.example.com/mcp", authKind: "bearer", description: "Docs" },
    ]);
    expect(pkg.agents.map((a) => a.definition.name)).toEqual(["helper"]);
    expect(pkg.warnings).toHaveLength(2);
    expect(pkg.warnings.join("\n")).toMatch(/local.*stdio.*skipped/);
    expect(pkg.warnings.join("\n")).toMatch(/agents\/notes\.md skipped/);
  });

  it("strips one top-level folder and defaults version to 0.0.0", async () => {
    const pkg = await pluginPackageFromZip(
      await zipOf({
        "acme/.claude-plugin/plugin.json": JSON.stringify({ name: "acme" }),
        "acme/skills/a/SKILL.md": skillMd("a"),
        "__MACOSX/._x": "litter",
      }),
    );
    expect(pkg.manifest).toMatchObject({ name: "acme", version: "0.0.0", description: null });
    expect(pkg.skills).toHaveLength(1);
  });

  it.each([
    [{ "x.txt": "no manifest" }, ".claude-plugin/plugin.json"],
    [{ ".claude-plugin/plugin.json": "{nope" }, ".claude-plugin/plugin.json"],
    [{ ".claude-plugin/plugin.json": manifest("Bad Name") }, ".claude-plugin/plugin.json:name"],
    [{ ".claude-plugin/plugin.json": manifest("a", { version: 3 }) }, ".claude-plugin/plugin.json:version"],
    [{ ".claude-plugin/plugin.json": manifest(), "skills/x/README.md": "no SKILL.md" }, "skills/x/SKILL.md"],
    [
      {
        ".claude-plugin/plugin.json": manifest(),
        "skills/x/SKILL.md": "---\nname: BAD\ndescription: d\n---\n",
      },
      "skills/x/SKILL.md:name",
    ],
    [
      {
        ".claude-plugin/plugin.json": manifest(),
        "skills/x/SKILL.md": skillMd("same"),
        "skills/y/SKILL.md": skillMd("same"),
      },
      "skills/y/SKILL.md:name",
    ],
    [{ ".claude-plugin/plugin.json": manifest(), "agents/a.json": "[1" }, "agents/a.json"],
    [
      { ".claude-plugin/plugin.json": manifest(), "agents/a.json": JSON.stringify({ name: "a" }) },
      /^agents\/a\.json:/,
    ],
    [
      {
        ".claude-plugin/plugin.json": manifest(),
        ".mcp.json": JSON.stringify({
          mcpServers: { "Bad Label": { type: "http", url: "https://x.example" } },
        }),
      },
      ".mcp.json:mcpServers.Bad Label",
    ],
    [
      {
        ".claude-plugin/plugin.json": manifest(),
        ".mcp.json": JSON.stringify({ mcpServers: { docs: { type: "http", url: "ftp://x.example" } } }),
      },
      ".mcp.json:mcpServers.docs.url",
    ],
  ] as Array<[Entries, string | RegExp]>)(
    "refuses a bad package naming the path (%#)",
    async (entries, param) => {
      const error = await failure(pluginPackageFromZip(await zipOf(entries)));
      expect(error.status).toBe(400);
      expect(error.code).toBe("invalid_plugin");
      if (typeof param === "string") expect(error.param).toBe(param);
      else expect(error.param).toMatch(param);
    },
  );

  it("refuses hostile archives: traversal, absolute, backslash, symlink", async () => {
    for (const name of ["../evil.txt", "/abs.txt", "a\\b.txt", "skills/../../x"]) {
      const error = await failure(pluginPackageFromZip(await zipWithName(name)));
      expect(error, name).toMatchObject({ status: 400, code: "invalid_plugin" });
    }
    const link = await zipOf({
      ".claude-plugin/plugin.json": manifest(),
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/link": { content: "/etc/passwd", unixPermissions: 0o120777 },
    });
    expect(await failure(pluginPackageFromZip(link))).toMatchObject({
      status: 400,
      code: "invalid_plugin",
      param: "skills/a/link",
    });
    expect(await failure(pluginPackageFromZip(new TextEncoder().encode("not a zip")))).toMatchObject({
      status: 400,
      param: "file",
    });
  });

  it("enforces the count limits with 400 and the size limits with 413", async () => {
    const many: Entries = { ".claude-plugin/plugin.json": manifest() };
    for (let i = 0; i < 1001; i++) many[`docs/f${i}.txt`] = "x";
    expect(await failure(pluginPackageFromZip(await zipOf(many)))).toMatchObject({
      status: 400,
      code: "invalid_plugin",
      param: "file",
    });
    const skills: Entries = { ".claude-plugin/plugin.json": manifest() };
    for (let i = 0; i < 51; i++) skills[`skills/s${i}/SKILL.md`] = skillMd(`s${i}`);
    expect(await failure(pluginPackageFromZip(await zipOf(skills)))).toMatchObject({
      status: 400,
      param: "skills",
    });
    const agents: Entries = { ".claude-plugin/plugin.json": manifest() };
    for (let i = 0; i < 21; i++) agents[`agents/a${i}.json`] = agentFile(`a${i}`);
    expect(await failure(pluginPackageFromZip(await zipOf(agents)))).toMatchObject({
      status: 400,
      param: "agents",
    });
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < 21; i++) servers[`s${i}`] = { type: "http", url: "https://x.example" };
    expect(
      await failure(
        pluginPackageFromZip(
          await zipOf({
            ".claude-plugin/plugin.json": manifest(),
            ".mcp.json": JSON.stringify({ mcpServers: servers }),
          }),
        ),
      ),
    ).toMatchObject({ status: 400, param: ".mcp.json:mcpServers" });
    // A bomb: 2 MiB of zeros inflating from a few KiB.
    const bomb = await zipOf({
      ".claude-plugin/plugin.json": manifest(),
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/zeros.bin": new Uint8Array(2 * 1024 * 1024),
    });
    expect(bomb.byteLength).toBeLessThan(100_000);
    expect(await failure(pluginPackageFromZip(bomb))).toMatchObject({
      status: 413,
      param: "skills/a/zeros.bin",
    });
    expect(await failure(pluginPackageFromZip(new Uint8Array(10_485_761)))).toMatchObject({ status: 413 });
  });
});

describe("manifest and .mcp.json parsing", () => {
  it("never throws anything but a 400 invalid_plugin for arbitrary manifests", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          const parsed = parsePluginManifest(value);
          expect(parsed.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        } catch (error) {
          expect(error).toMatchObject({ status: 400, code: "invalid_plugin" });
        }
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.record(
          { name: fc.oneof(fc.string(), fc.constant("ok")), version: fc.anything(), author: fc.anything() },
          { requiredKeys: [] },
        ),
        (value) => {
          try {
            parsePluginManifest(value);
          } catch (error) {
            expect(error).toMatchObject({ status: 400, code: "invalid_plugin" });
          }
        },
      ),
    );
  });

  it("never throws anything but a 400 invalid_plugin for arbitrary .mcp.json", () => {
    const entry = fc.record(
      {
        type: fc.oneof(fc.constant("http"), fc.constant("stdio"), fc.anything()),
        url: fc.oneof(fc.webUrl(), fc.string(), fc.anything()),
        auth: fc.oneof(fc.constant("bearer"), fc.anything()),
        description: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.record({ mcpServers: fc.dictionary(fc.string(), entry) })),
        (value) => {
          try {
            const { connectors } = parsePluginMcpServers(value);
            for (const c of connectors) expect(c.serverLabel).toMatch(/^[a-z0-9_-]{1,32}$/);
          } catch (error) {
            expect(error).toMatchObject({ status: 400, code: "invalid_plugin" });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
