/**
 * The skill family's contract: what store-sqlite's `SkillStore` answers, the PostgreSQL family
 * must answer too. Every call is awaited.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SkillRecord, SkillStore, SkillVersionInput } from "../../../store-sqlite/src/skills.js";
import { bytewise, type OpenFamily, readAllPages, settle } from "./family-harness.js";

const file = (path: string, text: string | Uint8Array) => {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  return { path, size: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex"), bytes };
};

const version = (
  description: string,
  files = [file("SKILL.md", `---\nname: s\n---\n${description}`)],
): SkillVersionInput => ({
  name: "s",
  description,
  frontmatter: { name: "s", description, zeta: 1, alpha: [true] },
  skillMd: `---\nname: s\n---\n${description}`,
  files,
  totalSize: files.reduce((sum, each) => sum + each.size, 0),
  source: "import",
});

export function describeSkillContract(label: string, open: OpenFamily<SkillStore>): void {
  describe(`skills contract (${label})`, () => {
    it("creates, finds and deletes skills, per organization; a qualified name is taken once", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const made = await family.create(org, { name: "pdf", namespace: null, description: "Reads PDFs" });
      expect(made).toEqual({
        id: made.id,
        organizationId: org,
        name: "pdf",
        namespace: null,
        qualifiedName: "pdf",
        description: "Reads PDFs",
        pluginId: null,
        latestVersionId: null,
        latestVersionNumber: null,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      expect(made.id).toMatch(/^skl_/);
      const plugged = await family.create(org, {
        name: "pdf",
        namespace: "tools",
        description: "d",
        pluginId: "plg_1",
      });
      expect(plugged).toMatchObject({ qualifiedName: "tools:pdf", namespace: "tools", pluginId: "plg_1" });
      const early = await family.create(org, { name: "pdf", namespace: "Alpha", description: "d" });
      await expect(
        settle(() => family.create(org, { name: "pdf", namespace: null, description: "again" })),
      ).rejects.toThrow();
      expect((await family.create(other, { name: "pdf", namespace: null, description: "x" })).id).not.toBe(
        made.id,
      );
      expect(await family.get(org, made.id)).toEqual(made);
      expect(await family.get(other, made.id)).toBeNull();
      expect(await family.byQualifiedName(org, "tools:pdf")).toEqual(plugged);
      expect(await family.byQualifiedName(org, "nope")).toBeNull();
      expect((await family.byName(org, "pdf")).map((s) => s.qualifiedName)).toEqual([
        "pdf",
        "Alpha:pdf",
        "tools:pdf",
      ]);
      expect(await family.byName(org, "PDF")).toEqual([]);
      expect(early.qualifiedName).toBe("Alpha:pdf");
      expect(await family.delete(other, made.id)).toBe(false);
      expect(await family.delete(org, made.id)).toBe(true);
      expect(await family.delete(org, made.id)).toBe(false);
      expect(await family.get(org, made.id)).toBeNull();
    });

    it("commits versions with their files; latest and the description follow the newest active one", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const skill = await family.create(org, { name: "s", namespace: null, description: "initial" });
      clock.advance();
      const binary = new Uint8Array([0, 255, 1, 128, 0]);
      const input = version("first", [
        file("SKILL.md", "# first"),
        file("b/ü.bin", binary),
        file("a.txt", "a"),
      ]);
      const v1 = await family.commitVersion(skill.id, { ...input, changeDescription: "c" });
      expect(v1).toEqual({
        id: v1.id,
        skillId: skill.id,
        versionNumber: 1,
        name: "s",
        description: "first",
        frontmatter: { name: "s", description: "first", zeta: 1, alpha: [true] },
        skillMd: input.skillMd,
        files: input.files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
        totalSize: input.totalSize,
        source: "import",
        changeDescription: "c",
        active: true,
        copiedFromVersionId: null,
        createdAt: clock.now(),
        deactivatedAt: null,
      });
      expect(v1.id).toMatch(/^skv_/);
      expect(Object.keys(v1.frontmatter)).toEqual(["name", "description", "zeta", "alpha"]);
      expect(await family.get(org, skill.id)).toMatchObject({
        description: "first",
        latestVersionId: v1.id,
        latestVersionNumber: 1,
        updatedAt: clock.now(),
      });
      expect((await family.files(v1.id)).map((f) => f.path)).toEqual(["SKILL.md", "a.txt", "b/ü.bin"]);
      const stored = await family.fileContent(v1.id, "b/ü.bin");
      expect(stored).toEqual({ path: "b/ü.bin", size: 5, sha256: input.files[1]?.sha256, bytes: binary });
      expect(stored?.bytes).toBeInstanceOf(Uint8Array);
      expect(await family.fileContent(v1.id, "missing")).toBeNull();
      expect(await family.files("skv_missing")).toEqual([]);

      clock.advance();
      const v2 = await family.commitVersion(skill.id, {
        ...version("second"),
        source: "plugin",
        copiedFromVersionId: v1.id,
      });
      expect(v2).toMatchObject({ versionNumber: 2, source: "plugin", copiedFromVersionId: v1.id });
      expect(await family.latestVersion(skill.id)).toEqual(v2);
      expect(await family.getVersion(org, skill.id, v1.id)).toEqual(v1);
      expect(await family.getVersion(other, skill.id, v1.id)).toBeNull();
      expect(await family.getVersionByNumber(skill.id, 1)).toEqual(v1);
      expect(await family.versionById(v2.id)).toEqual(v2);
      expect(await readAllPages((page) => family.listVersions(skill.id, page), 1)).toEqual({
        items: [v2, v1].map((each) => ({ ...each, skillMd: "" })),
        total: 2,
      });
      expect(await family.storedBytes(org)).toBe(v1.totalSize + v2.totalSize);
      expect(await family.storedBytes(other)).toBe(0);

      clock.advance();
      expect(await family.deactivateVersion(skill.id, v2.id)).toBe(true);
      expect(await family.deactivateVersion(skill.id, v2.id)).toBe(false);
      expect(await family.get(org, skill.id)).toMatchObject({
        description: "first",
        latestVersionId: v1.id,
        updatedAt: clock.now(),
      });
      expect(await family.versionById(v2.id)).toMatchObject({ active: false, deactivatedAt: clock.now() });
      clock.advance();
      expect(await family.deactivateVersion(skill.id, v1.id)).toBe(true);
      // No active version: latest points at nothing, the description stays the last one.
      expect(await family.get(org, skill.id)).toMatchObject({
        description: "first",
        latestVersionId: null,
        latestVersionNumber: null,
        updatedAt: clock.now(),
      });
      expect(await family.latestVersion(skill.id)).toBeNull();
      expect(await family.delete(org, skill.id)).toBe(true);
      expect(await family.files(v1.id)).toEqual([]);
      expect(await family.storedBytes(org)).toBe(0);
    });

    it("keeps labels and resolves version references", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const skill = await family.create(org, { name: "s", namespace: null, description: "d" });
      const v1 = await family.commitVersion(skill.id, version("one"));
      const v2 = await family.commitVersion(skill.id, version("two"));
      for (const name of ["prod", "Zeta", "_x", "é"])
        expect(await family.createLabel(skill.id, name, v1.id)).toBe(true);
      expect(await family.createLabel(skill.id, "prod", v2.id)).toBe(false);
      expect((await family.listLabels(skill.id)).map((l) => [l.name, l.versionNumber])).toEqual([
        ["latest", 2],
        ["Zeta", 1],
        ["_x", 1],
        ["prod", 1],
        ["é", 1],
      ]);
      expect(await family.getLabel(skill.id, "prod")).toEqual({
        skillId: skill.id,
        name: "prod",
        skillVersionId: v1.id,
        versionNumber: 1,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      expect(await family.labelledVersionRef(skill.id, "prod")).toEqual({
        id: v1.id,
        versionNumber: 1,
        description: "one",
        active: true,
      });
      expect(await family.labelledVersionRef(skill.id, "none")).toBeNull();
      expect(await family.versionRefByNumber(skill.id, 2)).toEqual({
        id: v2.id,
        versionNumber: 2,
        description: "two",
        active: true,
      });
      expect(await family.versionRefByNumber(skill.id, 3)).toBeNull();
      await family.deactivateVersion(skill.id, v1.id);
      expect(await family.labelledVersionRef(skill.id, "prod")).toMatchObject({ active: false });
      clock.advance(3);
      expect(await family.updateLabel(skill.id, "prod", v2.id)).toBe(true);
      expect(await family.getLabel(skill.id, "prod")).toMatchObject({
        versionNumber: 2,
        updatedAt: clock.now(),
      });
      expect(await family.deleteLabel(skill.id, "prod")).toBe(true);
      expect(await family.getLabel(skill.id, "prod")).toBeNull();
      await family.deactivateVersion(skill.id, v2.id);
      expect(await family.getLabel(skill.id, "latest")).toMatchObject({
        skillVersionId: null,
        versionNumber: null,
      });
    });

    it("lists by qualified name with namespace and search filters", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const make = (name: string, namespace: string | null, description: string) =>
        family.create(org, { name, namespace, description });
      await make("Report_Writer", null, "Writes reports");
      await make("reporter", "tools", "100% SAFE");
      await make("élan", "tools", "ÉLAN");
      await make("b", "Alpha", "x");
      const names = async (filter: Parameters<SkillStore["list"]>[2]) =>
        (await family.list(org, { page: 0, size: 20 }, filter)).items.map((s) => s.qualifiedName);
      expect(await names({})).toEqual(["Alpha:b", "Report_Writer", "tools:reporter", "tools:élan"]);
      expect(await names(undefined)).toEqual(await names({}));
      expect(await names({ namespace: null })).toEqual(["Report_Writer"]);
      expect(await names({ namespace: "tools" })).toEqual(["tools:reporter", "tools:élan"]);
      expect(await names({ namespace: "TOOLS" })).toEqual([]);
      expect(await names({ search: "REPORT" })).toEqual(["Report_Writer", "tools:reporter"]);
      expect(await names({ search: "t_w" })).toEqual(["Report_Writer"]);
      expect(await names({ search: "0%", namespace: "tools" })).toEqual(["tools:reporter"]);
      expect(await names({ search: "safe", namespace: null })).toEqual([]);
      expect(await names({ search: "élan" })).toEqual(["tools:élan"]);
      expect(await names({ search: "Élan" })).toEqual(["tools:élan"]);
      expect((await family.list(org, { page: 0, size: 20 }, { search: "report" })).total).toBe(2);
      expect((await family.list(await organization(), { page: 0, size: 20 })).total).toBe(0);
    });

    it("runs a unit of work as one: nothing stays when it throws", async () => {
      const { family, organization } = await open();
      const org = await organization();
      await expect(
        settle(() =>
          family.atomically(async () => {
            const skill = await family.create(org, { name: "gone", namespace: null, description: "d" });
            await family.commitVersion(skill.id, version("v"));
            throw new Error("abort");
          }),
        ),
      ).rejects.toThrow("abort");
      expect(await family.byQualifiedName(org, "gone")).toBeNull();
      expect(await family.storedBytes(org)).toBe(0);
    });

    it("pages every skill once, ordered by qualified name bytewise", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(
            fc.record({
              name: fc.stringMatching(/^[A-Za-z0-9_é-]{1,4}$/),
              namespace: fc.option(fc.stringMatching(/^[A-Za-z]{1,2}$/), { nil: null }),
            }),
            {
              minLength: 1,
              maxLength: 8,
              selector: (s) => (s.namespace === null ? s.name : `${s.namespace}:${s.name}`),
            },
          ),
          fc.integer({ min: 1, max: 3 }),
          async (skills, size) => {
            const { family, organization } = await open();
            const org = await organization();
            const made: SkillRecord[] = [];
            for (const each of skills) made.push(await family.create(org, { ...each, description: "d" }));
            made.sort((x, y) => bytewise(x.qualifiedName, y.qualifiedName));
            expect(await readAllPages((page) => family.list(org, page), size)).toEqual({
              items: made,
              total: made.length,
            });
          },
        ),
        { numRuns: 10 },
      );
    });
  });
}
