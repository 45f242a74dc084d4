/** The extractions contract: the same answers from every store. */
import type { ExtractionInsert } from "@groundwork/store-rows";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OpenFamilies, testClock, uniqueName } from "./tenants-documents-harness.js";

/** Reads an extraction's quality columns as booleans and numbers (what analytics reads). */
export type ReadQuality = (id: string) => Promise<{
  confidence: number | null;
  flagCount: number | null;
  validationApplied: boolean | null;
  violationCount: number | null;
  computed: boolean;
}>;

const insert = (organizationId: string, changes: Partial<ExtractionInsert> = {}): ExtractionInsert => ({
  organizationId,
  schemaId: "sch_1",
  schemaVersionId: "scv_1",
  status: "PENDING",
  strategy: "ASYNC",
  model: "gpt-4o-mini",
  inputText: "Invoice 42",
  imageCount: 0,
  inputTokens: 12,
  ...changes,
});

export function describeExtractionsContract(
  label: string,
  open: OpenFamilies<"organizations" | "extractions">,
  readQuality: ReadQuality,
): void {
  describe(`extractions on ${label}`, () => {
    it("creates with images and placements, runs, finishes with quality facts and forgets the images", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const sourcePlacements = [
        { start: 0, end: 7, page: 1, bbox: [1, 2.5, 30, 40] as [number, number, number, number] },
        { start: 8, end: 10, page: 2 },
      ];
      const created = await store.extractions.create(
        insert(org.id, { sourcePlacements, apiKeyId: "key_1" }),
        [
          { mimeType: "image/png", data: "iVBORw0KGgo=" },
          { mimeType: "image/jpeg", data: "/9j/4AAQ" },
        ],
      );
      expect(created).toEqual({
        id: expect.stringMatching(/^ext_/),
        organizationId: org.id,
        schemaId: "sch_1",
        schemaVersionId: "scv_1",
        status: "PENDING",
        strategy: "ASYNC",
        model: "gpt-4o-mini",
        inputText: "Invoice 42",
        sourcePlacements,
        imageCount: 0,
        inputTokens: 12,
        result: null,
        errorMessage: null,
        rerunOf: null,
        jobId: null,
        apiKeyId: "key_1",
        createdAt: clock.time,
        updatedAt: clock.time,
        startedAt: null,
        completedAt: null,
      });
      expect(await readQuality(created.id)).toEqual({
        confidence: null,
        flagCount: null,
        validationApplied: null,
        violationCount: null,
        computed: true,
      });
      expect(await store.extractions.get(org.id, created.id)).toEqual(created);
      expect(await store.extractions.getById(created.id)).toEqual(created);
      expect(await store.extractions.images(created.id)).toEqual([
        { mimeType: "image/png", data: "iVBORw0KGgo=" },
        { mimeType: "image/jpeg", data: "/9j/4AAQ" },
      ]);
      clock.time += 1;
      await store.extractions.attachJob(created.id, "job_9");
      clock.time += 1;
      const started = clock.time;
      expect(await store.extractions.markProcessing(created.id)).toBe(true);
      clock.time += 1;
      expect(await store.extractions.markProcessing(created.id)).toBe(true);
      expect(await store.extractions.getById(created.id)).toMatchObject({
        status: "PROCESSING",
        jobId: "job_9",
        startedAt: started,
        updatedAt: clock.time,
      });
      clock.time += 1;
      const result = { structuredOutput: { total: 42, currency: "EUR" }, metadata: { z: 1, a: 2 } };
      expect(
        await store.extractions.finish(created.id, {
          status: "COMPLETED",
          result,
          quality: { confidence: 0.75, flagCount: 2, validationApplied: false, violationCount: 0 },
        }),
      ).toBe(true);
      const finished = await store.extractions.get(org.id, created.id);
      expect(finished).toMatchObject({
        status: "COMPLETED",
        result,
        errorMessage: null,
        completedAt: clock.time,
      });
      expect(JSON.stringify(finished?.result)).toBe(JSON.stringify(result));
      expect(await readQuality(created.id)).toEqual({
        confidence: 0.75,
        flagCount: 2,
        validationApplied: false,
        violationCount: 0,
        computed: true,
      });
      expect(await store.extractions.images(created.id)).toEqual([]);
      expect(await store.extractions.markProcessing(created.id)).toBe(false);
      expect(await store.extractions.finish(created.id, { status: "FAILED", errorMessage: "late" })).toBe(
        false,
      );
      expect((await store.extractions.getById(created.id))?.status).toBe("COMPLETED");
    });

    it("a result written without facts is left to compute; a failure keeps the message", async () => {
      const store = await open(testClock());
      const org = await store.organizations.create(uniqueName(), "team");
      const done = await store.extractions.create(
        insert(org.id, {
          id: `ext_given_${uniqueName()}`,
          status: "COMPLETED",
          strategy: "SINGLE_SHOT",
          result: { a: 1 },
        }),
      );
      expect(done.id).toMatch(/^ext_given_/);
      expect((await readQuality(done.id)).computed).toBe(false);
      const withFacts = await store.extractions.create(
        insert(org.id, {
          status: "COMPLETED",
          result: { a: 1 },
          quality: { confidence: null, flagCount: null, validationApplied: true, violationCount: 3 },
        }),
      );
      expect(await readQuality(withFacts.id)).toMatchObject({
        validationApplied: true,
        violationCount: 3,
        computed: true,
      });
      const failing = await store.extractions.create(insert(org.id));
      expect(
        await store.extractions.finish(failing.id, { status: "FAILED", errorMessage: "model refused" }),
      ).toBe(true);
      expect(await store.extractions.get(org.id, failing.id)).toMatchObject({
        status: "FAILED",
        result: null,
        errorMessage: "model refused",
      });
      expect(await store.extractions.finish("ext_missing", { status: "FAILED", errorMessage: "x" })).toBe(
        false,
      );
      expect(await store.extractions.markProcessing("ext_missing")).toBe(false);
      expect(await store.extractions.getById("ext_missing")).toBeNull();
    });

    it("keeps organizations apart", async () => {
      const store = await open(testClock());
      const mine = await store.organizations.create(uniqueName(), "team");
      const theirs = await store.organizations.create(uniqueName(), "team");
      const record = await store.extractions.create(insert(mine.id));
      expect(await store.extractions.get(theirs.id, record.id)).toBeNull();
      expect(await store.extractions.delete(theirs.id, record.id)).toBe(false);
      expect(await store.extractions.list(theirs.id, { page: 0, size: 10 })).toEqual({ items: [], total: 0 });
      expect(await store.extractions.delete(mine.id, record.id)).toBe(true);
      expect(await store.extractions.get(mine.id, record.id)).toBeNull();
      expect(await store.extractions.images(record.id)).toEqual([]);
    });

    it("searches the model case-insensitively for ASCII only, wildcards taken literally", async () => {
      const store = await open(testClock());
      const org = await store.organizations.create(uniqueName(), "team");
      const models = ["GPT-4o", "gpt_4o", "claude%3", "Émile-1", "émile-2", "a\\b"];
      for (const model of models) await store.extractions.create(insert(org.id, { model }));
      const find = async (search: string) =>
        (await store.extractions.list(org.id, { page: 0, size: 20 }, { search })).items
          .map((e) => e.model)
          .sort();
      expect(await find("gpt")).toEqual(["GPT-4o", "gpt_4o"]);
      expect(await find("T_4")).toEqual(["gpt_4o"]);
      expect(await find("%")).toEqual(["claude%3"]);
      expect(await find("\\")).toEqual(["a\\b"]);
      expect(await find("émile")).toEqual(["émile-2"]);
      expect(await find("MILE")).toEqual(["Émile-1", "émile-2"]);
      expect(await find("")).toEqual([...models].sort());
    });

    it("lists newest first (ties by id), filtered, in pages that add up", async () => {
      const clock = testClock();
      const store = await open(clock);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              version: fc.constantFrom("scv_a", "scv_b"),
              failed: fc.boolean(),
              model: fc.constantFrom("Alpha", "beta", "ALPHA-2"),
              advance: fc.integer({ min: 0, max: 1 }),
            }),
            { maxLength: 8 },
          ),
          fc.integer({ min: 1, max: 3 }),
          fc.record({
            schemaVersionId: fc.option(fc.constantFrom("scv_a", "scv_b"), { nil: undefined }),
            status: fc.option(fc.constantFrom("PENDING" as const, "FAILED" as const), { nil: undefined }),
            search: fc.option(fc.constantFrom("alpha", "BETA", "a-"), { nil: undefined }),
          }),
          async (steps, size, filter) => {
            const org = await store.organizations.create(uniqueName(), "team");
            const made = [];
            for (const step of steps) {
              clock.time += step.advance;
              const record = await store.extractions.create(
                insert(org.id, { schemaVersionId: step.version, model: step.model }),
              );
              if (step.failed)
                await store.extractions.finish(record.id, { status: "FAILED", errorMessage: "x" });
              made.push({ ...record, status: step.failed ? "FAILED" : "PENDING" });
            }
            const clean = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
            const expected = made
              .filter(
                (e) => filter.schemaVersionId === undefined || e.schemaVersionId === filter.schemaVersionId,
              )
              .filter((e) => filter.status === undefined || e.status === filter.status)
              .filter(
                (e) =>
                  filter.search === undefined || e.model.toLowerCase().includes(filter.search.toLowerCase()),
              )
              .sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1))
              .map((e) => e.id);
            const seen: string[] = [];
            for (let page = 0; page <= Math.ceil(expected.length / size); page++) {
              const answer = await store.extractions.list(org.id, { page, size }, clean);
              expect(answer.total).toBe(expected.length);
              seen.push(...answer.items.map((e) => e.id));
            }
            expect(seen).toEqual(expected);
          },
        ),
        { numRuns: 10 },
      );
    });
  });
}
