/**
 * The schema family's contract: what store-sqlite's `SchemaStore` answers, the PostgreSQL
 * family must answer too. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SchemaRecord, SchemaStore, SchemaVersionRecord } from "../../../store-sqlite/src/schemas.js";
import { bytewise, type OpenFamily, readAllPages, scriptedIds, settle } from "./family-harness.js";

/** A version as `getVersion` and `getVersionByNumber` answer it: without its schema's organization and name. */
const plain = ({
  organizationId: _o,
  schemaName: _n,
  ...version
}: SchemaVersionRecord & { organizationId?: string; schemaName?: string }): SchemaVersionRecord => version;

/** A JSON Schema whose key order is not sorted: it must come back as written. */
const jsonSchema = (title: string) => ({
  type: "object",
  title,
  properties: { zeta: { type: "string" }, alpha: { type: "number" } },
  required: ["zeta"],
});

export function describeSchemaContract(label: string, open: OpenFamily<SchemaStore>): void {
  describe(`schemas contract (${label})`, () => {
    it("creates, reads, updates and deletes schemas, per organization", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const made = await family.create(org, { name: "invoice", description: "bills" });
      expect(made).toEqual({
        id: made.id,
        organizationId: org,
        name: "invoice",
        description: "bills",
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      expect(made.id).toMatch(/^sch_/);
      expect(await family.get(org, made.id)).toEqual(made);
      expect(await family.get(other, made.id)).toBeNull();
      expect((await family.create(org, { name: "bare" })).description).toBeNull();
      // Names are not unique (SQLite has no such constraint).
      expect((await family.create(org, { name: "invoice" })).name).toBe("invoice");
      clock.advance(5);
      expect(await family.update(other, made.id, { name: "x" })).toBeNull();
      expect(await family.update(org, made.id, { name: "receipt" })).toEqual({
        ...made,
        name: "receipt",
        updatedAt: made.createdAt + 5,
      });
      expect(await family.update(org, made.id, { description: null })).toMatchObject({
        name: "receipt",
        description: null,
      });
      expect(await family.update(org, "sch_missing", { name: "x" })).toBeNull();
      expect(await family.getLabel(made.id, "latest")).toMatchObject({ schemaVersionId: null });
      const version = await family.commitVersion(made.id, { jsonSchema: jsonSchema("a") });
      expect(await family.delete(other, made.id)).toBe(false);
      expect(await family.delete(org, made.id)).toBe(true);
      expect(await family.delete(org, made.id)).toBe(false);
      expect(await family.get(org, made.id)).toBeNull();
      // Its versions and labels went with it.
      expect(await family.versionById(version.id)).toBeNull();
      expect(await family.listLabels(made.id)).toEqual([]);
    });

    it("commits numbered versions that keep their JSON as written; latest follows the newest active one", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const schema = await family.create(org, { name: "s" });
      clock.advance();
      const v1 = await family.commitVersion(schema.id, {
        jsonSchema: jsonSchema("one"),
        changeDescription: "first",
        extractionConfig: { strategy: "CHUNKED", b: 1, a: 2 },
      });
      expect(v1).toEqual({
        id: v1.id,
        schemaId: schema.id,
        versionNumber: 1,
        jsonSchema: jsonSchema("one"),
        changeDescription: "first",
        extractionConfig: { strategy: "CHUNKED", b: 1, a: 2 },
        active: true,
        copiedFromVersionId: null,
        createdAt: clock.now(),
        deactivatedAt: null,
        organizationId: org,
        schemaName: "s",
      });
      expect(v1.id).toMatch(/^scv_/);
      expect(Object.keys(v1.jsonSchema)).toEqual(["type", "title", "properties", "required"]);
      expect(Object.keys(v1.extractionConfig ?? {})).toEqual(["strategy", "b", "a"]);
      const v2 = await family.commitVersion(schema.id, {
        jsonSchema: jsonSchema("two"),
        copiedFromVersionId: v1.id,
        extractionConfig: null,
      });
      expect(v2).toMatchObject({ versionNumber: 2, copiedFromVersionId: v1.id, extractionConfig: null });
      expect((await family.get(org, schema.id))?.updatedAt).toBe(clock.now());
      expect(await family.latestVersion(schema.id)).toEqual(v2);
      expect(await family.getVersion(org, schema.id, v1.id)).toEqual(plain(v1));
      expect(await family.getVersion(other, schema.id, v1.id)).toBeNull();
      expect(await family.getVersion(org, "sch_other", v1.id)).toBeNull();
      expect(await family.getVersionByNumber(schema.id, 2)).toEqual(plain(v2));
      expect(await family.getVersionByNumber(schema.id, 3)).toBeNull();
      expect(await family.versionById("scv_missing")).toBeNull();
      const pages = await readAllPages((page) => family.listVersions(schema.id, page), 1);
      expect(pages.items.map((v) => v.id)).toEqual([v2.id, v1.id]);

      clock.advance();
      expect(await family.deactivateVersion(schema.id, v2.id)).toBe(true);
      expect(await family.deactivateVersion(schema.id, v2.id)).toBe(false);
      expect(await family.deactivateVersion("sch_other", v1.id)).toBe(false);
      expect(await family.versionById(v2.id)).toEqual({ ...v2, active: false, deactivatedAt: clock.now() });
      expect(await family.latestVersion(schema.id)).toEqual(v1);
      expect(await family.getLabel(schema.id, "latest")).toMatchObject({ schemaVersionId: v1.id });
      expect(await family.deactivateVersion(schema.id, v1.id)).toBe(true);
      expect(await family.latestVersion(schema.id)).toBeNull();
      expect((await family.commitVersion(schema.id, { jsonSchema: {} })).versionNumber).toBe(3);

      expect(await family.setExtractionConfig(v1.id, { z: true, a: [1, 2] })).toBe(true);
      expect((await family.versionById(v1.id))?.extractionConfig).toEqual({ z: true, a: [1, 2] });
      expect(Object.keys((await family.versionById(v1.id))?.extractionConfig ?? {})).toEqual(["z", "a"]);
      expect(await family.setExtractionConfig(v1.id, null)).toBe(true);
      expect((await family.versionById(v1.id))?.extractionConfig).toBeNull();
      expect(await family.setExtractionConfig("scv_missing", null)).toBe(false);
    });

    it("keeps labels: latest first, then by name bytewise; create, update, delete", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const schema = await family.create(org, { name: "s" });
      const v1 = await family.commitVersion(schema.id, { jsonSchema: {} });
      const v2 = await family.commitVersion(schema.id, { jsonSchema: {} });
      for (const name of ["prod", "Zeta", "alpha", "_x", "é"])
        expect(await family.createLabel(schema.id, name, v1.id)).toBe(true);
      expect(await family.createLabel(schema.id, "prod", v2.id)).toBe(false);
      expect((await family.listLabels(schema.id)).map((l) => l.name)).toEqual([
        "latest",
        "Zeta",
        "_x",
        "alpha",
        "prod",
        "é",
      ]);
      expect(await family.getLabel(schema.id, "prod")).toEqual({
        schemaId: schema.id,
        name: "prod",
        schemaVersionId: v1.id,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      clock.advance(7);
      expect(await family.updateLabel(schema.id, "prod", v2.id)).toBe(true);
      expect(await family.updateLabel(schema.id, "none", v2.id)).toBe(false);
      expect(await family.getLabel(schema.id, "prod")).toMatchObject({
        schemaVersionId: v2.id,
        updatedAt: clock.now(),
      });
      expect(await family.deleteLabel(schema.id, "prod")).toBe(true);
      expect(await family.deleteLabel(schema.id, "prod")).toBe(false);
      expect(await family.getLabel(schema.id, "prod")).toBeNull();
      expect(await family.getLabel(schema.id, "latest")).toMatchObject({ schemaVersionId: v2.id });
    });

    it("searches name and description (ASCII case-insensitive, wildcards literal)", async () => {
      const { family, organization } = await open();
      const org = await organization();
      await family.create(org, { name: "Invoice_Lines", description: null });
      await family.create(org, { name: "receipt", description: "100% PAID" });
      await family.create(org, { name: "Élan" });
      const names = async (search?: string) =>
        (await family.list(org, { page: 0, size: 20 }, search)).items.map((s) => s.name).sort();
      expect(await names()).toEqual(["Invoice_Lines", "receipt", "Élan"]);
      expect(await names("")).toEqual(["Invoice_Lines", "receipt", "Élan"]);
      expect(await names("INVOICE")).toEqual(["Invoice_Lines"]);
      expect(await names("e_l")).toEqual(["Invoice_Lines"]);
      expect(await names("paid")).toEqual(["receipt"]);
      expect(await names("0%")).toEqual(["receipt"]);
      expect(await names("%")).toEqual(["receipt"]);
      expect(await names("élan")).toEqual([]);
      expect(await names("lan")).toEqual(["Élan"]);
      expect((await family.list(org, { page: 0, size: 20 }, "paid")).total).toBe(1);
      expect((await family.list(await organization(), { page: 0, size: 20 })).total).toBe(0);
    });

    it("runs a unit of work as one: nothing stays when it throws", async () => {
      const { family, organization } = await open();
      const org = await organization();
      await expect(
        settle(() =>
          family.atomically(async () => {
            const schema = await family.create(org, { name: "gone" });
            await family.commitVersion(schema.id, { jsonSchema: {} });
            throw new Error("abort");
          }),
        ),
      ).rejects.toThrow("abort");
      expect((await family.list(org, { page: 0, size: 20 })).total).toBe(0);
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
            const made: SchemaRecord[] = [];
            for (const [index] of keys.entries()) {
              if (ticks[index]) clock.advance();
              made.push(await family.create(org, { name: `s${index}` }));
            }
            made.sort((x, y) => y.createdAt - x.createdAt || bytewise(y.id, x.id));
            expect(await readAllPages((page) => family.list(org, page), size)).toEqual({
              items: made,
              total: made.length,
            });
          },
        ),
        { numRuns: 10 },
      );
    });

    it("numbers versions 1…n whatever the interleaving of commits and deactivations", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 8 }), async (steps) => {
          const { family, organization } = await open();
          const schema = await family.create(await organization(), { name: "s" });
          const ids: string[] = [];
          const active = new Set<string>();
          for (const step of steps) {
            if (step < 3 || ids.length === 0) {
              const version = await family.commitVersion(schema.id, { jsonSchema: { step } });
              expect(version.versionNumber).toBe(ids.length + 1);
              ids.push(version.id);
              active.add(version.id);
            } else {
              const target = ids[step % ids.length] as string;
              expect(await family.deactivateVersion(schema.id, target)).toBe(active.delete(target));
            }
            const newest = [...ids].reverse().find((id) => active.has(id)) ?? null;
            expect((await family.latestVersion(schema.id))?.id ?? null).toBe(newest);
          }
        }),
        { numRuns: 10 },
      );
    });
  });
}
