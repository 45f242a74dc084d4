/**
 * The memory files family's contract (store-sqlite's `MemoryFileStore`): files per member, the
 * directory range (bytewise, so `a/` and `a-b`/`a0` neighbours stay out), paging, usage, moves,
 * deletions with what they freed, the per-member listing with key names, units of work.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MemoryFileStore, MemoryText } from "../../../store-sqlite/src/memory-files.js";
import {
  type Atomic,
  type Awaitable,
  type Backend,
  familyUnderTest,
  type TestClock,
} from "./family-fixture.js";

export type MemoryFilesFamily = Omit<Awaitable<MemoryFileStore>, "atomically"> & Atomic;

const text = (content: string): MemoryText => ({
  content,
  size: Buffer.byteLength(content),
  sha256: `sha-${content.length}`,
  lineCount: content.split("\n").length,
});

/** Bytewise order, as both stores compare paths. */
const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export function describeMemoryFilesContract(
  label: string,
  open: (
    clock: TestClock,
  ) => Promise<{ family: MemoryFilesFamily; backend: Backend; close(): Promise<void> | void }>,
): void {
  describe(`memory files contract on ${label}`, () => {
    const under = familyUnderTest(open);
    const scopeOf = async () => {
      const organizationId = await under.backend().organization();
      const member = await under.backend().member(organizationId, "reader");
      return { organizationId, memberId: member.id };
    };

    it("creates, reads, updates, moves and tells existence", async () => {
      const files = under.family();
      const scope = await scopeOf();
      const start = under.clock.now();
      const created = await files.create(scope, "/memories/notes.md", text("hello\nworld"));
      expect(created).toEqual({
        id: created.id,
        path: "/memories/notes.md",
        size: 11,
        sha256: "sha-11",
        lineCount: 2,
        createdAt: start,
        updatedAt: start,
      });
      expect(created.id).toMatch(/^mem_/);
      expect(await files.get(scope, "/memories/notes.md")).toEqual({ ...created, content: "hello\nworld" });
      expect(await files.exists(scope, "/memories/notes.md")).toBe(true);
      expect(await files.exists(scope, "/memories/other.md")).toBe(false);
      expect(await files.get(scope, "/memories/other.md")).toBeNull();
      under.clock.advance(5);
      const updated = await files.update(scope, created, text("héllo"));
      expect(updated).toEqual({ ...created, size: 6, sha256: "sha-5", lineCount: 1, updatedAt: start + 5 });
      expect(await files.get(scope, "/memories/notes.md")).toEqual({ ...updated, content: "héllo" });
      under.clock.advance(5);
      await files.move(scope, created.id, "/memories/moved.md");
      expect(await files.exists(scope, "/memories/notes.md")).toBe(false);
      expect(await files.get(scope, "/memories/moved.md")).toMatchObject({
        id: created.id,
        createdAt: start,
        updatedAt: start + 10,
      });
      await expect(
        Promise.resolve().then(() => files.create(scope, "/memories/moved.md", text("again"))),
      ).rejects.toThrow(/unique/i);
    });

    it("lists a path and what is below it bytewise, with pages, and reports usage", async () => {
      const files = under.family();
      const scope = await scopeOf();
      const paths = ["/m/a", "/m/a/x", "/m/a/y/z", "/m/a-b", "/m/a0", "/m/a.txt", "/m/b", "/m/A/q", "/m/a/Ä"];
      for (const path of paths) await files.create(scope, path, text(path));
      const inA = ["/m/a", "/m/a/x", "/m/a/y/z", "/m/a/Ä"];
      expect((await files.list(scope, "/m/a", 0, 10)).items.map((f) => f.path)).toEqual(inA);
      expect(await files.list(scope, "/m/a", 1, 2)).toMatchObject({ total: 4 });
      expect((await files.list(scope, "/m/a", 1, 2)).items.map((f) => f.path)).toEqual(inA.slice(1, 3));
      expect((await files.below(scope, "/m/a")).map((f) => f.path)).toEqual(inA.slice(1));
      expect((await files.list(scope, "/m", 0, 100)).items.map((f) => f.path)).toEqual(
        [...paths].sort(bytewise),
      );
      expect(await files.hasBelow(scope, "/m/a")).toBe(true);
      expect(await files.hasBelow(scope, "/m/b")).toBe(false);
      const bytes = paths.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
      expect(await files.usage(scope)).toEqual({ fileCount: paths.length, totalBytes: bytes });
    });

    it("deletes a file, a directory or everything, and tells what it freed", async () => {
      const files = under.family();
      const scope = await scopeOf();
      for (const path of ["/m/a", "/m/d/1", "/m/d/22", "/m/e"]) await files.create(scope, path, text(path));
      expect(await files.delete(scope, { path: "/m/a" })).toEqual({ deletedFiles: 1, freedBytes: 4 });
      expect(await files.delete(scope, { path: "/m/a" })).toEqual({ deletedFiles: 0, freedBytes: 0 });
      expect(await files.delete(scope, { dir: "/m/d" })).toEqual({ deletedFiles: 2, freedBytes: 13 });
      expect(await files.delete(scope, null)).toEqual({ deletedFiles: 1, freedBytes: 4 });
      expect(await files.usage(scope)).toEqual({ fileCount: 0, totalBytes: 0 });
    });

    it("keeps members and organizations apart", async () => {
      const files = under.family();
      const scope = await scopeOf();
      const colleague = {
        organizationId: scope.organizationId,
        memberId: (await under.backend().member(scope.organizationId, "colleague")).id,
      };
      const stranger = { organizationId: await under.backend().organization(), memberId: scope.memberId };
      const mine = await files.create(scope, "/m/a", text("mine"));
      for (const other of [colleague, stranger]) {
        expect(await files.get(other, "/m/a")).toBeNull();
        expect((await files.list(other, "/m", 0, 10)).total).toBe(0);
        expect(await files.delete(other, null)).toEqual({ deletedFiles: 0, freedBytes: 0 });
        await files.move(other, mine.id, "/m/stolen");
        // The same path is free for another member.
        await files.create(other, "/m/a", text("theirs"));
      }
      expect(await files.get(scope, "/m/a")).toMatchObject({ id: mine.id, content: "mine" });
    });

    it("lists members by the bytes they keep, with their key's name and state", async () => {
      const files = under.family();
      const org = await under.backend().organization();
      const big = await under.backend().member(org, "big");
      const small = await under.backend().member(org, "small");
      const tie = await under.backend().member(org, "tie");
      await files.create({ organizationId: org, memberId: big.id }, "/m/1", text("0123456789"));
      under.clock.advance(7);
      await files.create({ organizationId: org, memberId: big.id }, "/m/2", text("01234"));
      await files.create({ organizationId: org, memberId: small.id }, "/m/1", text("0123"));
      await files.create({ organizationId: org, memberId: tie.id }, "/m/1", text("abcd"));
      await under.backend().revokeMember(small.id);
      const listed = await files.usageByMember(org, 0, 10);
      expect(listed.total).toBe(3);
      expect(listed.items[0]).toEqual({
        memberId: big.id,
        keyName: "big",
        keyPrefix: big.prefix,
        revoked: false,
        fileCount: 2,
        totalBytes: 15,
        lastWriteAt: under.clock.now(),
      });
      const tied = [small, tie].sort((a, b) => bytewise(a.id, b.id));
      expect(listed.items.slice(1).map((m) => [m.memberId, m.revoked])).toEqual(
        tied.map((m) => [m.id, m.id === small.id]),
      );
      expect((await files.usageByMember(org, 1, 1)).items.map((m) => m.memberId)).toEqual([tied[0]?.id]);
      expect(await files.usageByMember(await under.backend().organization(), 0, 10)).toEqual({
        items: [],
        total: 0,
      });
    });

    it("writes nothing of a unit of work that throws", async () => {
      const files = under.family();
      const scope = await scopeOf();
      await expect(
        Promise.resolve().then(() =>
          files.atomically(async () => {
            await files.create(scope, "/m/gone", text("x"));
            throw new Error("boom");
          }),
        ),
      ).rejects.toThrow("boom");
      expect(await files.usage(scope)).toEqual({ fileCount: 0, totalBytes: 0 });
    });

    it("finds exactly the files below a directory, for random trees (property)", async () => {
      const files = under.family();
      const segment = fc.constantFrom("a", "b", "a-b", "a0", "a.b", "A", "é", "z z");
      const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join("/")}`);
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(path, { maxLength: 10 }), path, async (paths, dir) => {
          const scope = await scopeOf();
          for (const p of paths) await files.create(scope, p, text(p));
          const expected = paths.filter((p) => p.startsWith(`${dir}/`)).sort(bytewise);
          expect((await files.below(scope, dir)).map((f) => f.path)).toEqual(expected);
          expect(await files.hasBelow(scope, dir)).toBe(expected.length > 0);
          const listed = await files.list(scope, dir, 0, 100);
          expect(listed.items.map((f) => f.path)).toEqual(
            [...(paths.includes(dir) ? [dir] : []), ...expected].sort(bytewise),
          );
          expect(listed.total).toBe(listed.items.length);
        }),
        { numRuns: 20 },
      );
    });
  });
}
