// Imports a skill package from a file map, labels a version, and resolves a binding as agent runs do.
// From the repository root, after a build: node --import tsx examples/skills/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const org = await groundwork.principal("acme", "member");
const skillMd = (steps: string) =>
  `---\nname: release-notes\ndescription: Writes release notes from a changelog\n---\n${steps}\n`;
// A package is SKILL.md (YAML frontmatter: name, description) plus any files; zips work the same way.
const v1 = await groundwork.skills.import(org, {
  files: { "SKILL.md": skillMd("1. Read CHANGELOG.md"), "templates/notes.md": "## {{version}}\n" },
});
await groundwork.skills.createLabel(org.organizationId, "release-notes", "production", v1.version.id);
// A second import with other files is version 2 (`latest`); the same files again would be `unchanged`.
const v2 = await groundwork.skills.import(org, {
  files: {
    "SKILL.md": skillMd("1. Read CHANGELOG.md\n2. Group by type"),
    "templates/notes.md": "## {{version}}\n",
  },
});
const pinned = await groundwork.skills.resolve(org.organizationId, "release-notes@production");
const latest = await groundwork.skills.resolve(org.organizationId, "release-notes");
console.log(v1.result, v2.result, `production=v${pinned.versionNumber}`, `latest=v${latest.versionNumber}`);
// #endregion readme
