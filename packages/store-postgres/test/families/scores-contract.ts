/**
 * The score family's contract: what store-sqlite's `ScoreStore` answers, every PostgreSQL
 * family must answer too. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ScoreInsert, ScoreRecord, ScoreStore } from "../../../store-sqlite/src/scores.js";
import { bytewise, type OpenFamily, readAllPages, scriptedIds, settle } from "./family-harness.js";

const score = (organizationId: string, fields: Partial<ScoreInsert> = {}): ScoreInsert => ({
  organizationId,
  subjectType: "response",
  subjectId: "resp_1",
  name: "accuracy",
  dataType: "NUMERIC",
  value: 0.5,
  comment: null,
  source: "API",
  queueItemId: null,
  createdByKeyId: "key_1",
  ...fields,
});

export function describeScoreContract(label: string, open: OpenFamily<ScoreStore>): void {
  describe(`scores contract (${label})`, () => {
    it("creates scores of every data type and reads them back, per organization", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const values: ScoreInsert[] = [
        score(org),
        score(org, { name: "label", dataType: "CATEGORICAL", value: "good", comment: "fine" }),
        score(org, { name: "ok", dataType: "BOOLEAN", value: true, source: "HUMAN", queueItemId: "aqi_1" }),
        score(org, { name: "quoted", dataType: "CATEGORICAL", value: '"1"', createdByKeyId: null }),
      ];
      for (const fields of values) {
        const created = await family.create(fields);
        expect(created).toEqual({ ...fields, id: created.id, createdAt: created.createdAt });
        expect(created.id).toMatch(/^scr_/);
        expect(await family.get(org, created.id)).toEqual(created);
        expect(await family.get(await organization(), created.id)).toBeNull();
      }
      expect(await family.get(org, "scr_missing")).toBeNull();
    });

    it("creates many in one transaction: all or none", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const made = await family.createMany([score(org), score(org, { name: "b" })]);
      expect(made.map((s) => s.name)).toEqual(["accuracy", "b"]);
      expect((await family.list(org, {}, { page: 0, size: 10 })).total).toBe(2);
      const broken = score(org, { name: "c", dataType: "WRONG" as ScoreInsert["dataType"] });
      await expect(settle(() => family.createMany([score(org, { name: "d" }), broken]))).rejects.toThrow();
      expect((await family.list(org, {}, { page: 0, size: 10 })).total).toBe(2);
      expect(await family.createMany([])).toEqual([]);
    });

    it("filters by subject, name, source, data type and time window", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const a = await family.create(score(org));
      clock.advance(10);
      const b = await family.create(
        score(org, {
          subjectType: "trace",
          subjectId: "trc_1",
          name: "tone",
          dataType: "CATEGORICAL",
          value: "x",
        }),
      );
      clock.advance(10);
      const c = await family.create(score(org, { source: "EVAL", dataType: "BOOLEAN", value: false }));
      await family.create(score(await organization()));
      const ids = async (filter: Parameters<ScoreStore["list"]>[1]) =>
        (await family.list(org, filter, { page: 0, size: 50 })).items.map((s) => s.id);
      expect(await ids({})).toEqual([c.id, b.id, a.id]);
      expect(await ids({ subjectType: "trace" })).toEqual([b.id]);
      expect(await ids({ subjectType: "response", subjectId: "resp_1" })).toEqual([c.id, a.id]);
      expect(await ids({ name: "tone" })).toEqual([b.id]);
      expect(await ids({ source: "EVAL" })).toEqual([c.id]);
      expect(await ids({ dataType: "NUMERIC" })).toEqual([a.id]);
      expect(await ids({ from: b.createdAt })).toEqual([c.id, b.id]);
      expect(await ids({ to: b.createdAt })).toEqual([a.id]);
      expect(await ids({ from: a.createdAt, to: c.createdAt, name: "accuracy" })).toEqual([a.id]);
    });

    it("lists newest first, ties by id bytewise, in pages", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_-]{1,5}$/), { minLength: 1, maxLength: 10 }),
          fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
          fc.integer({ min: 1, max: 4 }),
          async (keys, ticks, size) => {
            const { family, clock, organization } = await open({ ids: scriptedIds(keys) });
            const org = await organization();
            const made: ScoreRecord[] = [];
            for (const [index] of keys.entries()) {
              if (ticks[index]) clock.advance();
              made.push(await family.create(score(org, { name: index % 2 === 0 ? "even" : "odd" })));
            }
            const newest = (list: typeof made) =>
              [...list].sort((x, y) => y.createdAt - x.createdAt || bytewise(y.id, x.id));
            expect(await readAllPages((page) => family.list(org, {}, page), size)).toEqual({
              items: newest(made),
              total: made.length,
            });
            const even = made.filter((s) => s.name === "even");
            expect(await readAllPages((page) => family.list(org, { name: "even" }, page), size)).toEqual({
              items: newest(even),
              total: even.length,
            });
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
