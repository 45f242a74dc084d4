/**
 * The prompt family's contract — with it, the versioned-resource machinery (labels, numbered
 * versions, `latest`): what store-sqlite's `PromptStore` answers, every PostgreSQL family must
 * answer too. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PromptRecord, PromptStore } from "../../../store-sqlite/src/prompts.js";
import { bytewise, type OpenFamily, readAllPages, scriptedIds, settle } from "./family-harness.js";

const version = (text: string) => ({ prompt: text, config: { temperature: 0.2 }, variables: ["x"] });

export function describePromptContract(label: string, open: OpenFamily<PromptStore>): void {
  describe(`prompts contract (${label})`, () => {
    it("creates, reads, renames and deletes prompts, per organization", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const made = await family.create(org, { name: "greet", type: "text", tags: ["a", "b"] });
      expect(made).toMatchObject({
        organizationId: org,
        name: "greet",
        type: "text",
        description: null,
        tags: ["a", "b"],
        latestVersionId: null,
        latestVersionNumber: null,
      });
      expect(made?.id).toMatch(/^prm_/);
      const id = made?.id ?? "";
      expect(await family.create(org, { name: "greet", type: "chat" })).toBeNull();
      expect(await family.get(org, id)).toEqual(made);
      expect(await family.getByName(org, "greet")).toEqual(made);
      expect(await family.get(other, id)).toBeNull();
      expect(await family.getByName(other, "greet")).toBeNull();
      await family.create(org, { name: "taken", type: "chat" });
      expect(await family.update(org, id, { name: "taken" })).toBe("conflict");
      expect(await family.update(other, id, { name: "x" })).toBeNull();
      clock.advance(3);
      expect(await family.update(org, id, { name: "hello", description: "d" })).toEqual({
        ...made,
        name: "hello",
        description: "d",
        updatedAt: (made?.createdAt ?? 0) + 3,
      });
      expect(await family.update(org, id, { tags: [] })).toMatchObject({
        name: "hello",
        description: "d",
        tags: [],
      });
      expect(await family.delete(other, id)).toBe(false);
      expect(await family.delete(org, id)).toBe(true);
      expect(await family.get(org, id)).toBeNull();
    });

    it("commits numbered versions; latest follows the newest active one", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const prompt = (await family.create(org, { name: "p", type: "chat" })) as PromptRecord;
      clock.advance();
      const chat = [{ role: "user" as const, content: "{{x}}" }];
      const v1 = await family.commitVersion(prompt.id, {
        ...version("one"),
        prompt: chat,
        changeDescription: "c",
      });
      expect(v1).toMatchObject({
        promptId: prompt.id,
        versionNumber: 1,
        prompt: chat,
        config: { temperature: 0.2 },
        variables: ["x"],
        changeDescription: "c",
        active: true,
        copiedFromVersionId: null,
        deactivatedAt: null,
      });
      const v2 = await family.commitVersion(prompt.id, { ...version("two"), copiedFromVersionId: v1.id });
      expect(v2).toMatchObject({ versionNumber: 2, prompt: "two", copiedFromVersionId: v1.id });
      expect(await family.get(org, prompt.id)).toMatchObject({
        latestVersionId: v2.id,
        latestVersionNumber: 2,
        updatedAt: prompt.createdAt + 1,
      });
      expect(await family.latestVersion(prompt.id)).toEqual(v2);
      expect(await family.getVersion(prompt.id, v1.id)).toEqual(v1);
      expect(await family.getVersion("prm_other", v1.id)).toBeNull();
      expect(await family.versionById(v2.id)).toEqual(v2);
      expect(await family.getVersionByNumber(prompt.id, 1)).toEqual(v1);
      expect(await family.getVersionByNumber(prompt.id, 3)).toBeNull();
      expect(await readAllPages((page) => family.listVersions(prompt.id, page), 1)).toEqual({
        items: [v2, v1],
        total: 2,
      });

      clock.advance();
      expect(await family.deactivateVersion(prompt.id, v2.id)).toBe(true);
      expect(await family.deactivateVersion(prompt.id, v2.id)).toBe(false);
      expect(await family.getVersion(prompt.id, v2.id)).toEqual({
        ...v2,
        active: false,
        deactivatedAt: clock.now(),
      });
      expect(await family.latestVersion(prompt.id)).toEqual(v1);
      expect(await family.deactivateVersion(prompt.id, v1.id)).toBe(true);
      expect(await family.latestVersion(prompt.id)).toBeNull();
      expect(await family.get(org, prompt.id)).toMatchObject({
        latestVersionId: null,
        latestVersionNumber: null,
      });
      const v3 = await family.commitVersion(prompt.id, version("three"));
      expect(v3.versionNumber).toBe(3);
      expect(await family.labelsOf(v3.id)).toEqual(["latest"]);
    });

    it("keeps labels: latest first, then by name bytewise; create, update, delete", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const prompt = (await family.create(org, { name: "p", type: "text" })) as PromptRecord;
      const v1 = await family.commitVersion(prompt.id, version("one"));
      const v2 = await family.commitVersion(prompt.id, version("two"));
      for (const name of ["prod", "Zeta", "alpha", "_x"])
        expect(await family.createLabel(prompt.id, name, v1.id)).toBe(true);
      expect(await family.createLabel(prompt.id, "prod", v2.id)).toBe(false);
      expect((await family.listLabels(prompt.id)).map((l) => l.name)).toEqual([
        "latest",
        "Zeta",
        "_x",
        "alpha",
        "prod",
      ]);
      expect(await family.labelsOf(v1.id)).toEqual(["Zeta", "_x", "alpha", "prod"]);
      expect(await family.getLabel(prompt.id, "prod")).toEqual({
        promptId: prompt.id,
        name: "prod",
        promptVersionId: v1.id,
        versionNumber: 1,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      clock.advance(7);
      expect(await family.updateLabel(prompt.id, "prod", v2.id)).toBe(true);
      expect(await family.updateLabel(prompt.id, "none", v2.id)).toBe(false);
      expect(await family.getLabel(prompt.id, "prod")).toMatchObject({
        versionNumber: 2,
        updatedAt: clock.now(),
      });
      expect(await family.deleteLabel(prompt.id, "prod")).toBe(true);
      expect(await family.deleteLabel(prompt.id, "prod")).toBe(false);
      expect(await family.getLabel(prompt.id, "prod")).toBeNull();
      expect(await family.getLabel(prompt.id, "latest")).toMatchObject({
        promptVersionId: v2.id,
        versionNumber: 2,
      });
    });

    it("filters by name (ASCII case-insensitive, wildcards literal), tag, type and label", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const make = async (name: string, type: "text" | "chat", tags: string[]) =>
        (await family.create(org, { name, type, tags })) as PromptRecord;
      const a = await make("Support_Reply", "text", ["support"]);
      const b = await make("supportXreply 100%", "chat", ["sales", "support"]);
      const c = await make("Élan", "text", []);
      await family.createLabel(a.id, "prod", (await family.commitVersion(a.id, version("x"))).id);
      const names = async (filter: Parameters<PromptStore["list"]>[1]) =>
        (await family.list(org, filter, { page: 0, size: 20 })).items.map((p) => p.name).sort();
      expect(await names({ name: "SUPPORT" })).toEqual([a.name, b.name].sort());
      expect(await names({ name: "t_r" })).toEqual([a.name]);
      expect(await names({ name: "0%" })).toEqual([b.name]);
      expect(await names({ name: "élan" })).toEqual([]);
      expect(await names({ name: "Élan" })).toEqual([]);
      expect(await names({ name: "lan" })).toEqual([c.name]);
      expect(await names({ tag: "support" })).toEqual([a.name, b.name].sort());
      expect(await names({ tag: "sales" })).toEqual([b.name]);
      expect(await names({ type: "chat" })).toEqual([b.name]);
      expect(await names({ label: "prod" })).toEqual([a.name]);
      expect(await names({ label: "latest" })).toEqual([a.name]);
      expect((await family.list(await organization(), {}, { page: 0, size: 20 })).total).toBe(0);
    });

    it("runs a transaction as one unit: nothing stays when it throws", async () => {
      const { family, organization } = await open();
      const org = await organization();
      await expect(
        settle(() =>
          family.atomically(async () => {
            await family.create(org, { name: "gone", type: "text" });
            throw new Error("abort");
          }),
        ),
      ).rejects.toThrow("abort");
      expect(await family.getByName(org, "gone")).toBeNull();
    });

    it("lists newest first, ties by id bytewise, in pages", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_-]{1,5}$/), { minLength: 1, maxLength: 8 }),
          fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
          fc.integer({ min: 1, max: 3 }),
          async (keys, ticks, size) => {
            const { family, clock, organization } = await open({ ids: scriptedIds(keys) });
            const org = await organization();
            const made: PromptRecord[] = [];
            for (const [index] of keys.entries()) {
              if (ticks[index]) clock.advance();
              made.push((await family.create(org, { name: `p${index}`, type: "text" })) as PromptRecord);
            }
            made.sort((x, y) => y.createdAt - x.createdAt || bytewise(y.id, x.id));
            expect(await readAllPages((page) => family.list(org, {}, page), size)).toEqual({
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
