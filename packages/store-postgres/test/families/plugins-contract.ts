/**
 * The plugins family's contract (store-sqlite's `PluginStore`): round-trips, the unique name,
 * newest-first listing and its pages, organization isolation, units of work.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PluginInput, PluginStore } from "../../../store-sqlite/src/plugins.js";
import {
  type Atomic,
  type Awaitable,
  type Backend,
  familyUnderTest,
  type TestClock,
} from "./family-fixture.js";

export type PluginsFamily = Omit<Awaitable<PluginStore>, "atomically"> & Atomic;

const input = (name: string, extra: Partial<PluginInput> = {}): PluginInput => ({
  name,
  version: "1.0.0",
  description: null,
  // Key order and number spelling are kept as written (JSON as text on both stores).
  manifest: { name, homepage: "https://example.com", z: 1, a: { nested: [1, "two", null] } },
  source: { type: "upload", url: null },
  components: { skillIds: ["skl_1"], connectorIds: [], agentIds: ["agt_1"] },
  warnings: ["w"],
  synced: false,
  ...extra,
});

/** Newest first, ties by id descending (bytewise). */
const newestFirst = (a: { installedAt: number; id: string }, b: { installedAt: number; id: string }) =>
  b.installedAt - a.installedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function describePluginsContract(
  label: string,
  open: (
    clock: TestClock,
  ) => Promise<{ family: PluginsFamily; backend: Backend; close(): Promise<void> | void }>,
): void {
  describe(`plugins contract on ${label}`, () => {
    const under = familyUnderTest(open);

    it("creates, reads, updates, lists newest first and deletes", async () => {
      const plugins = under.family();
      const org = await under.backend().organization();
      const start = under.clock.now();
      const id = await plugins.newId();
      expect(id).toMatch(/^plg_/);
      const created = await plugins.create(org, id, input("one"));
      expect(created).toEqual({
        id,
        organizationId: org,
        name: "one",
        version: "1.0.0",
        description: null,
        manifest: input("one").manifest,
        source: { type: "upload", url: null },
        components: { skillIds: ["skl_1"], connectorIds: [], agentIds: ["agt_1"] },
        warnings: ["w"],
        installedAt: start,
        updatedAt: start,
        lastSyncedAt: null,
      });
      expect(JSON.stringify(created.manifest)).toBe(JSON.stringify(input("one").manifest));
      expect(await plugins.get(org, id)).toEqual(created);
      under.clock.advance(1_000);
      const updated = await plugins.update(
        org,
        id,
        input("one", { version: "2.0.0", source: { type: "url", url: "https://x/p.zip" }, synced: true }),
      );
      expect(updated).toMatchObject({
        version: "2.0.0",
        source: { type: "url", url: "https://x/p.zip" },
        installedAt: start,
        updatedAt: start + 1_000,
        lastSyncedAt: start + 1_000,
      });
      under.clock.advance(1_000);
      expect((await plugins.update(org, id, input("one")))?.lastSyncedAt).toBe(start + 1_000);
      expect(await plugins.update(org, "plg_missing", input("one"))).toBeNull();
      const second = await plugins.create(org, await plugins.newId(), input("two"));
      expect((await plugins.list(org, { page: 0, size: 10 })).items.map((p) => p.name)).toEqual([
        "two",
        "one",
      ]);
      expect((await plugins.byName(org, "two"))?.id).toBe(second.id);
      expect(await plugins.byName(org, "three")).toBeNull();
      await expect(
        Promise.resolve().then(() => plugins.create(org, `plg_x${Date.now()}`, input("two"))),
      ).rejects.toThrow(/unique/i);
      expect(await plugins.delete(org, id)).toBe(true);
      expect(await plugins.delete(org, id)).toBe(false);
      expect((await plugins.all(org)).map((p) => p.name)).toEqual(["two"]);
    });

    it("keeps organizations apart", async () => {
      const plugins = under.family();
      const org = await under.backend().organization();
      const other = await under.backend().organization();
      const id = await plugins.newId();
      await plugins.create(org, id, input("same"));
      // The same name in another organization is another plugin.
      await plugins.create(other, await plugins.newId(), input("same"));
      expect(await plugins.get(other, id)).toBeNull();
      expect((await plugins.byName(other, "same"))?.id).not.toBe(id);
      expect(await plugins.update(other, id, input("same"))).toBeNull();
      expect(await plugins.delete(other, id)).toBe(false);
      expect((await plugins.list(other, { page: 0, size: 10 })).total).toBe(1);
      expect((await plugins.all(org)).map((p) => p.id)).toEqual([id]);
    });

    it("writes nothing of a unit of work that throws, and keeps what one that resolves wrote", async () => {
      const plugins = under.family();
      const org = await under.backend().organization();
      await expect(
        Promise.resolve().then(() =>
          plugins.atomically(async () => {
            await plugins.create(org, await plugins.newId(), input("gone"));
            throw new Error("boom");
          }),
        ),
      ).rejects.toThrow("boom");
      expect(await plugins.all(org)).toEqual([]);
      const kept = await plugins.atomically(async () =>
        plugins.create(org, await plugins.newId(), input("kept")),
      );
      expect((await plugins.all(org)).map((p) => p.id)).toEqual([kept.id]);
    });

    it("lists in the same order and pages as a model, for random installs (property)", async () => {
      const plugins = under.family();
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 12 }),
          fc.integer({ min: 1, max: 5 }),
          async (times, size) => {
            const org = await under.backend().organization();
            const made: Array<{ id: string; installedAt: number }> = [];
            for (const [index, time] of times.entries()) {
              under.clock.set(1_700_000_000_000 + time);
              const record = await plugins.create(org, await plugins.newId(), input(`p${index}`));
              made.push({ id: record.id, installedAt: record.installedAt });
            }
            const expected = [...made].sort(newestFirst).map((p) => p.id);
            const pages: string[] = [];
            for (let page = 0; page * size < Math.max(made.length, 1); page++) {
              const listed = await plugins.list(org, { page, size });
              expect(listed.total).toBe(made.length);
              pages.push(...listed.items.map((p) => p.id));
            }
            expect(pages).toEqual(expected);
            expect((await plugins.all(org)).map((p) => p.id)).toEqual([...expected].reverse());
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
