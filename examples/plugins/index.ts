// Builds a small plugin zip in memory, installs it (a namespaced skill and an agent), then updates it.
// From the repository root, after a build: node --import tsx examples/plugins/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";
import JSZip from "jszip";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const admin = await groundwork.principal("acme", "admin");
// The Claude Code plugin layout: a manifest, skills/<dir>/SKILL.md, agents/*.json (and .mcp.json for connectors).
async function pluginZip(version: string, steps: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(".claude-plugin/plugin.json", JSON.stringify({ name: "release-kit", version }));
  zip.file(
    "skills/notes/SKILL.md",
    `---\nname: release-notes\ndescription: Writes release notes\n---\n${steps}\n`,
  );
  zip.file(
    "agents/writer.json",
    JSON.stringify({ name: "writer", model: "gpt-4o-mini", skills: [{ name: "release-kit:release-notes" }] }),
  );
  return zip.generateAsync({ type: "uint8array" });
}
const installed = await groundwork.plugins.install(admin, {
  zip: await pluginZip("1.0.0", "1. Read CHANGELOG.md"),
});
// An update applies the new package: changed skills get a new version, identical agents stay unchanged.
const updated = await groundwork.plugins.update(admin, installed.plugin.id, {
  zip: await pluginZip("1.1.0", "1. Read CHANGELOG.md\n2. Group by type"),
});
console.log(installed.changes.skills.created, installed.changes.agents.created);
console.log(updated.plugin.version, updated.changes.skills.versioned, updated.changes.agents.unchanged);
// #endregion readme
