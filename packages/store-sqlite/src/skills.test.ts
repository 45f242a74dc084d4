import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
const file = (path: string, text: string) => {
  const bytes = new TextEncoder().encode(text);
  return { path, size: bytes.length, sha256: `sha-${text}`, bytes };
};
const version = (description: string, files = [file("SKILL.md", description)]) => ({
  name: "s",
  description,
  frontmatter: { name: "s", description },
  skillMd: description,
  files,
  totalSize: files.reduce((n, f) => n + f.size, 0),
  source: "import" as const,
});

beforeEach(() => {
  store = openStore({ file: ":memory:" });
  org = store.organizations.create("acme", "team").id;
});
afterEach(() => store.close());

describe("SkillStore", () => {
  it("commits versions with files, keeps latest and the description on the newest active one", () => {
    const skill = store.skills.create(org, { name: "s", namespace: null, description: "first" });
    expect(skill).toMatchObject({ qualifiedName: "s", latestVersionId: null, latestVersionNumber: null });
    const v1 = store.skills.commitVersion(
      skill.id,
      version("one", [file("SKILL.md", "one"), file("a/b.txt", "b")]),
    );
    const v2 = store.skills.commitVersion(skill.id, version("two"));
    expect(store.skills.get(org, skill.id)).toMatchObject({ description: "two", latestVersionNumber: 2 });
    expect(v1.files).toEqual([
      { path: "SKILL.md", size: 3, sha256: "sha-one" },
      { path: "a/b.txt", size: 1, sha256: "sha-b" },
    ]);
    expect(new TextDecoder().decode(store.skills.fileContent(v1.id, "a/b.txt")?.bytes)).toBe("b");
    expect(store.skills.fileContent(v2.id, "a/b.txt")).toBeNull();
    expect(store.skills.listVersions(skill.id, { page: 0, size: 10 }).items.map((v) => v.skillMd)).toEqual([
      "",
      "",
    ]);
    store.skills.deactivateVersion(skill.id, v2.id);
    expect(store.skills.get(org, skill.id)).toMatchObject({ description: "one", latestVersionId: v1.id });
    expect(store.skills.labelledVersionRef(skill.id, "latest")).toMatchObject({
      id: v1.id,
      versionNumber: 1,
    });
    expect(store.skills.versionRefByNumber(skill.id, 2)).toMatchObject({ active: false });
    expect(store.skills.storedBytes(org)).toBe(4 + 3);
  });

  it("deletes a skill with its versions, files and labels", () => {
    const skill = store.skills.create(org, {
      name: "s",
      namespace: "kit",
      description: "d",
      pluginId: "plg_1",
    });
    expect(skill.qualifiedName).toBe("kit:s");
    const v1 = store.skills.commitVersion(skill.id, version("one"));
    store.skills.createLabel(skill.id, "prod", v1.id);
    expect(store.skills.byName(org, "s").map((s) => s.qualifiedName)).toEqual(["kit:s"]);
    expect(store.skills.delete(org, skill.id)).toBe(true);
    const count = (table: string) =>
      (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count("skill_versions"), count("skill_files"), count("skill_labels")]).toEqual([0, 0, 0]);
    expect(store.skills.delete("org_other", skill.id)).toBe(false);
  });
});
