/**
 * The dataset family's contract: what store-sqlite's `DatasetStore` answers, every PostgreSQL
 * family must answer too. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatasetItemRecord, DatasetRecord, DatasetStore } from "../../../store-sqlite/src/datasets.js";
import { bytewise, type OpenFamily, readAllPages, scriptedIds, settle } from "./family-harness.js";

const fields = (name: string) => ({ name, description: null, metadata: { owner: "qa", a: 1 } });
const item = (n: number) => ({
  input: n % 3 === 0 ? `text ${n}` : { question: n, z: 1, a: 2 },
  expectedOutput: n % 2 === 0 ? null : [n],
  metadata: { n },
  sourceTraceId: n === 1 ? "trc_1" : null,
});

export function describeDatasetContract(label: string, open: OpenFamily<DatasetStore>): void {
  describe(`datasets contract (${label})`, () => {
    it("creates, finds, filters, updates and deletes datasets, per organization", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const ds = await family.create(org, fields("Support QA"));
      expect(ds).toMatchObject({
        organizationId: org,
        name: "Support QA",
        itemCount: 0,
        latestVersionId: null,
        latestVersionNumber: null,
      });
      expect(Object.keys(ds.metadata)).toEqual(["owner", "a"]);
      expect(await family.get(org, ds.id)).toEqual(ds);
      expect(await family.findByName(org, "Support QA")).toEqual(ds);
      expect(await family.get(other, ds.id)).toBeNull();
      expect(await family.findByName(other, "Support QA")).toBeNull();
      await expect(settle(() => family.create(org, fields("Support QA")))).rejects.toThrow();
      const b = await family.create(org, fields("Élan 50%"));
      const names = async (name?: string) =>
        (await family.list(org, { name }, { page: 0, size: 10 })).items.map((d) => d.name);
      expect(await names("support")).toEqual(["Support QA"]);
      expect(await names("%")).toEqual(["Élan 50%"]);
      expect(await names("élan")).toEqual([]);
      expect((await names("")).sort()).toEqual([b.name, "Support QA"].sort());
      clock.advance(4);
      expect(await family.update(org, ds.id, { name: "QA", description: "d", metadata: {} })).toEqual({
        ...ds,
        name: "QA",
        description: "d",
        metadata: {},
        updatedAt: ds.createdAt + 4,
      });
      expect(await family.update(org, ds.id, {})).toMatchObject({ name: "QA", updatedAt: ds.createdAt + 4 });
      expect(await family.delete(other, ds.id)).toBe(false);
      expect(await family.delete(org, ds.id)).toBe(true);
      expect(await family.get(org, ds.id)).toBeNull();
    });

    it("keeps items as revisions: versions see what they froze", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const ds = await family.create(org, fields("d"));
      const added = await family.addItems(ds.id, [item(1), item(2), item(3)]);
      expect(added.map((i) => i.input)).toEqual([item(1).input, item(2).input, item(3).input]);
      expect(await family.getItem(ds.id, added[0]?.id ?? "")).toEqual(added[0]);
      expect(await family.getItem("ds_other", added[0]?.id ?? "")).toBeNull();
      expect(await family.itemExists(org, added[1]?.id ?? "")).toBe(true);
      expect(await family.itemExists(await organization(), added[1]?.id ?? "")).toBe(false);
      expect(await family.addItems(ds.id, [])).toEqual([]);

      clock.advance();
      const edited = await family.updateItem(ds.id, added[0]?.id ?? "", { expectedOutput: "unseen edit" });
      expect(edited).toEqual({ ...added[0], expectedOutput: "unseen edit", updatedAt: clock.now() });
      const v1 = await family.createVersion(ds.id, "first");
      expect(v1).toMatchObject({ datasetId: ds.id, versionNumber: 1, description: "first", itemCount: 3 });
      expect(await family.get(org, ds.id)).toMatchObject({
        latestVersionId: v1.id,
        latestVersionNumber: 1,
        itemCount: 3,
      });

      clock.advance();
      const changed = await family.updateItem(ds.id, added[1]?.id ?? "", { metadata: { changed: true } });
      expect(changed).toMatchObject({
        id: added[1]?.id,
        metadata: { changed: true },
        updatedAt: clock.now(),
      });
      expect(await family.deleteItem(ds.id, added[2]?.id ?? "")).toBe(true);
      expect(await family.deleteItem(ds.id, added[2]?.id ?? "")).toBe(false);
      expect(await family.updateItem(ds.id, added[2]?.id ?? "", { metadata: {} })).toBeNull();
      const [fourth] = await family.addItems(ds.id, [item(4)]);
      const v2 = await family.createVersion(ds.id, null);
      expect(v2).toMatchObject({ versionNumber: 2, itemCount: 3 });

      const current = await family.listItems(ds.id, null, { page: 0, size: 10 });
      expect(current).toEqual({ items: [edited, changed, fourth], total: 3 });
      expect(await family.listItems(ds.id, v1, { page: 0, size: 10 })).toEqual({
        items: [edited, added[1], added[2]],
        total: 3,
      });
      expect(await family.itemExists(org, added[2]?.id ?? "")).toBe(true);
      expect(await family.getVersionById(ds.id, v1.id)).toEqual(v1);
      expect(await family.getVersionById("ds_other", v1.id)).toBeNull();
      expect(await family.getVersionByNumber(ds.id, 2)).toEqual(v2);
      expect(await family.getVersionByNumber(ds.id, 3)).toBeNull();
      expect(await readAllPages((page) => family.listVersions(ds.id, page), 1)).toEqual({
        items: [v2, v1],
        total: 2,
      });
    });

    it("pages items across blocks exactly like a plain list, current and frozen, after deletes", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const ds = await family.create(org, fields("big"));
      const all: DatasetItemRecord[] = await family.addItems(
        ds.id,
        Array.from({ length: 2100 }, (_, n) => ({
          input: n,
          expectedOutput: null,
          metadata: {},
          sourceTraceId: null,
        })),
      );
      const v1 = await family.createVersion(ds.id, null);
      const gone = new Set<string>();
      for (const n of [0, 5, 1023, 1024, 1500, 2099]) {
        const id = all[n]?.id ?? "";
        await family.deleteItem(ds.id, id);
        gone.add(id);
      }
      const kept = all.filter((i) => !gone.has(i.id));
      for (const [page, size] of [
        [0, 7],
        [101, 10],
        [10, 100],
        [104, 20],
        [418, 5],
      ] as const) {
        expect((await family.listItems(ds.id, null, { page, size })).items).toEqual(
          kept.slice(page * size, page * size + size),
        );
      }
      expect((await family.listItems(ds.id, null, { page: 299, size: 7 })).items).toEqual(
        kept.slice(2093, 2100),
      );
      expect((await family.listItems(ds.id, null, { page: 300, size: 7 })).items).toEqual([]);
      expect((await family.listItems(ds.id, v1, { page: 102, size: 10 })).items).toEqual(
        all.slice(1020, 1030),
      );
      expect((await family.listItems(ds.id, v1, { page: 0, size: 3 })).total).toBe(2100);
      expect((await family.listItems(ds.id, null, { page: 0, size: 3 })).total).toBe(2094);
    });

    it("runs a unit of work atomically: nothing stays when it throws", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const ds = await family.create(org, fields("d"));
      await expect(
        settle(() =>
          family.atomically(async () => {
            await family.addItems(ds.id, [item(1)]);
            await family.update(org, ds.id, { name: "renamed" });
            throw new Error("abort");
          }),
        ),
      ).rejects.toThrow("abort");
      expect(await family.get(org, ds.id)).toEqual(ds);
      expect(await family.listItems(ds.id, null, { page: 0, size: 5 })).toEqual({ items: [], total: 0 });
    });

    it("lists datasets newest first, ties by id bytewise, in pages", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_-]{1,5}$/), { minLength: 1, maxLength: 8 }),
          fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
          fc.integer({ min: 1, max: 3 }),
          async (keys, ticks, size) => {
            const { family, clock, organization } = await open({ ids: scriptedIds(keys) });
            const org = await organization();
            const made: DatasetRecord[] = [];
            for (const [index] of keys.entries()) {
              if (ticks[index]) clock.advance();
              made.push(await family.create(org, fields(`d${index}`)));
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
