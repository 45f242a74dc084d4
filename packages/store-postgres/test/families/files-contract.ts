/** The files contract: the same answers from every store. */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OpenFamilies, testClock, uniqueName } from "./tenants-documents-harness.js";

export function describeFilesContract(label: string, open: OpenFamilies<"organizations" | "files">): void {
  describe(`files on ${label}`, () => {
    it("stores the bytes with their hash, gets, reads content and soft-deletes", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const data = new Uint8Array([0, 1, 2, 255, 254, 10, 13, 0]);
      const file = await store.files.create({
        organizationId: org.id,
        filename: "a.bin",
        purpose: "assistants",
        mime: "application/octet-stream",
        bytes: data.subarray(1, 7),
      });
      expect(file).toEqual({
        id: expect.stringMatching(/^file_/),
        organizationId: org.id,
        filename: "a.bin",
        purpose: "assistants",
        mime: "application/octet-stream",
        byteSize: 6,
        sha256: createHash("sha256").update(data.subarray(1, 7)).digest("hex"),
        createdAt: clock.time,
        deletedAt: null,
      });
      expect(await store.files.get(org.id, file.id)).toEqual(file);
      const content = await store.files.content(org.id, file.id);
      expect(content).toBeInstanceOf(Uint8Array);
      expect(Array.from(content ?? [])).toEqual([1, 2, 255, 254, 10, 13]);
      clock.time += 10;
      expect(await store.files.delete(org.id, file.id)).toBe(true);
      expect(await store.files.delete(org.id, file.id)).toBe(false);
      expect(await store.files.get(org.id, file.id)).toEqual({ ...file, deletedAt: clock.time });
      expect(await store.files.content(org.id, file.id)).toBeNull();
      expect(await store.files.list(org.id, { page: 0, size: 10 })).toEqual({ items: [], total: 0 });
    });

    it("stores an empty file", async () => {
      const store = await open(testClock());
      const org = await store.organizations.create(uniqueName(), "team");
      const file = await store.files.create({
        organizationId: org.id,
        filename: "empty.txt",
        purpose: "user_data",
        mime: "text/plain",
        bytes: new Uint8Array(0),
      });
      expect(file.byteSize).toBe(0);
      expect(Array.from((await store.files.content(org.id, file.id)) ?? [1])).toEqual([]);
    });

    it("keeps organizations apart", async () => {
      const store = await open(testClock());
      const mine = await store.organizations.create(uniqueName(), "team");
      const theirs = await store.organizations.create(uniqueName(), "team");
      const file = await store.files.create({
        organizationId: mine.id,
        filename: "f",
        purpose: "p",
        mime: "text/plain",
        bytes: new Uint8Array([1]),
      });
      expect(await store.files.get(theirs.id, file.id)).toBeNull();
      expect(await store.files.content(theirs.id, file.id)).toBeNull();
      expect(await store.files.delete(theirs.id, file.id)).toBe(false);
      expect(await store.files.list(theirs.id, { page: 0, size: 10 })).toEqual({ items: [], total: 0 });
      expect((await store.files.get(mine.id, file.id))?.deletedAt).toBeNull();
    });

    it("lists live files newest first (ties by id), by purpose, in pages (0-based) that add up", async () => {
      const clock = testClock();
      const store = await open(clock);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              purpose: fc.constantFrom("a", "b"),
              advance: fc.integer({ min: 0, max: 1 }),
              drop: fc.boolean(),
            }),
            {
              maxLength: 9,
            },
          ),
          fc.integer({ min: 1, max: 4 }),
          async (steps, size) => {
            const org = await store.organizations.create(uniqueName(), "team");
            const live: Array<{ id: string; createdAt: number; purpose: string }> = [];
            for (const step of steps) {
              clock.time += step.advance;
              const file = await store.files.create({
                organizationId: org.id,
                filename: "f",
                purpose: step.purpose,
                mime: "text/plain",
                bytes: new Uint8Array([7]),
              });
              if (step.drop) await store.files.delete(org.id, file.id);
              else live.push(file);
            }
            const newestFirst = (purpose?: string) =>
              live
                .filter((f) => purpose === undefined || f.purpose === purpose)
                .sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1))
                .map((f) => f.id);
            for (const purpose of [undefined, "a", "b"]) {
              const expected = newestFirst(purpose);
              const seen: string[] = [];
              for (let page = 0; page <= Math.ceil(expected.length / size); page++) {
                const answer = await store.files.list(org.id, { page, size }, purpose);
                expect(answer.total).toBe(expected.length);
                seen.push(...answer.items.map((f) => f.id));
              }
              expect(seen).toEqual(expected);
            }
          },
        ),
        { numRuns: 10 },
      );
    });
  });
}
