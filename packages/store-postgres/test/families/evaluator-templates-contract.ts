/**
 * The evaluator-template family's contract: what store-sqlite's `EvaluatorTemplateStore`
 * answers, every PostgreSQL family must answer too. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  EvaluatorTemplateRecord,
  EvaluatorTemplateStore,
} from "../../../store-sqlite/src/evaluator-templates.js";
import { bytewise, type OpenFamily, readAllPages, scriptedIds, settle } from "./family-harness.js";

const input = (name: string) => ({
  name,
  description: "judges helpfulness",
  prompt: "Rate {{output}}",
  model: "gpt-judge",
  // Key order is kept exactly (JSON stored as text on both stores).
  scale: { type: "numeric", max: 5, min: 1 },
});

export function describeEvaluatorTemplateContract(
  label: string,
  open: OpenFamily<EvaluatorTemplateStore>,
): void {
  describe(`evaluator templates contract (${label})`, () => {
    it("creates, reads by id and by name, updates with a version bump, deletes", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const created = await family.create(org, input("helpful"));
      expect(created).toMatchObject({ organizationId: org, name: "helpful", version: 1 });
      expect(created.id).toMatch(/^evt_/);
      expect(await family.get(org, created.id)).toEqual(created);
      expect(Object.keys((await family.get(org, created.id))?.scale ?? {})).toEqual(["type", "max", "min"]);
      expect(await family.findByName(org, "helpful")).toEqual(created);
      expect(await family.findByName(org, "HELPFUL")).toBeNull();
      expect(await family.get(other, created.id)).toBeNull();
      expect(await family.findByName(other, "helpful")).toBeNull();

      clock.advance(5);
      const updated = await family.update(created, { ...input("kind"), description: null });
      expect(updated).toEqual({
        ...created,
        name: "kind",
        description: null,
        version: 2,
        updatedAt: created.createdAt + 5,
      });
      expect(await family.get(org, created.id)).toEqual(updated);
      expect(await family.delete(other, created.id)).toBe(false);
      expect(await family.delete(org, created.id)).toBe(true);
      expect(await family.delete(org, created.id)).toBe(false);
      expect(await family.get(org, created.id)).toBeNull();
    });

    it("refuses a second template of the same name in an organization, not in another", async () => {
      const { family, organization } = await open();
      const org = await organization();
      await family.create(org, input("same"));
      await expect(settle(() => family.create(org, input("same")))).rejects.toThrow();
      const elsewhere = await organization();
      await expect(settle(() => family.create(elsewhere, input("same")))).resolves.toMatchObject({
        name: "same",
      });
    });

    it("lists newest first, ties by id bytewise, in pages, per organization", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_-]{1,5}$/), { minLength: 1, maxLength: 9 }),
          fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
          fc.integer({ min: 1, max: 4 }),
          async (keys, ticks, size) => {
            const { family, clock, organization } = await open({ ids: scriptedIds(keys) });
            const org = await organization();
            const made: EvaluatorTemplateRecord[] = [];
            for (const [index] of keys.entries()) {
              if (ticks[index]) clock.advance();
              made.push(await family.create(org, input(`t${index}`)));
            }
            const expected = [...made].sort((a, b) => b.createdAt - a.createdAt || bytewise(b.id, a.id));
            const listed = await readAllPages((page) => family.list(org, page), size);
            expect(listed).toEqual({ items: expected, total: keys.length });
            expect(await family.list(await organization(), { page: 0, size })).toEqual({
              items: [],
              total: 0,
            });
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
