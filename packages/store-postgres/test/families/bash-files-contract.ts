/**
 * The bash files family's contract (store-sqlite's `BashFileStore`): the committed tree,
 * held changes until their approval, usage, and the tree's revision — which moves with this
 * store's own commits (`writes`) and with another process's (`dataVersion`), never on staging.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BashFileStore } from "../../../store-sqlite/src/bash-files.js";
import { type Awaitable, type Backend, familyUnderTest, type TestClock } from "./family-fixture.js";

export type BashFilesFamily = Omit<Awaitable<BashFileStore>, "db">;

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | null | undefined) =>
  value === null || value === undefined ? value : new TextDecoder().decode(value);

export function describeBashFilesContract(
  label: string,
  open: (clock: TestClock) => Promise<{
    family: BashFilesFamily;
    backend: Backend;
    /** The same family over another connection (another process's view of the same database). */
    another(): BashFilesFamily;
    close(): Promise<void> | void;
  }>,
): void {
  describe(`bash files contract on ${label}`, () => {
    let another: () => BashFilesFamily = () => {
      throw new Error("inside tests only");
    };
    const under = familyUnderTest(async (clock) => {
      const opened = await open(clock);
      another = opened.another;
      return opened;
    });
    const conversation = async () => {
      const org = await under.backend().organization();
      return { org, conv: await under.backend().conversation(org) };
    };

    it("applies changes to the committed tree and reports usage", async () => {
      const files = under.family();
      const { org, conv } = await conversation();
      await files.apply(org, conv, [
        { path: "/workspace/d", kind: "dir", bytes: null },
        { path: "/workspace/d/a", kind: "file", bytes: bytes("hello") },
        { path: "/tmp/t", kind: "file", bytes: bytes("x") },
        { path: "/workspace/empty", kind: "file", bytes: new Uint8Array() },
        { path: "/workspace/D", kind: "file", bytes: new Uint8Array([0, 255, 1]) },
      ]);
      await files.apply(org, conv, [
        { path: "/tmp/t", kind: "deleted", bytes: null },
        { path: "/workspace/d/a", kind: "file", bytes: bytes("hi") },
      ]);
      const tree = await files.load(conv);
      expect([...tree.keys()]).toEqual([
        "/workspace/D",
        "/workspace/d",
        "/workspace/d/a",
        "/workspace/empty",
      ]);
      expect(tree.get("/workspace/d")).toBeNull();
      expect(text(tree.get("/workspace/d/a"))).toBe("hi");
      expect(tree.get("/workspace/empty")).toEqual(new Uint8Array());
      expect(tree.get("/workspace/D")).toEqual(new Uint8Array([0, 255, 1]));
      expect(await files.usage(conv)).toEqual({ bytes: 5, files: 3 });
      expect(await files.usage(await under.backend().conversation(org))).toEqual({ bytes: 0, files: 0 });
    });

    it("keeps held changes apart until they are committed or discarded", async () => {
      const files = under.family();
      const { org, conv } = await conversation();
      await files.apply(org, conv, [{ path: "/workspace/old", kind: "file", bytes: bytes("o") }]);
      const result = { stdout: "ok\n", stderr: "", exitCode: 0, truncated: false };
      await files.stage(
        org,
        conv,
        "call_1",
        [
          { path: "/workspace/old", kind: "deleted", bytes: null },
          { path: "/workspace/new", kind: "file", bytes: bytes("n") },
        ],
        result,
      );
      expect([...(await files.load(conv)).keys()]).toEqual(["/workspace/old"]);
      expect(await files.heldOutput(conv, "call_1")).toEqual(result);
      expect(await files.heldOutput(conv, "call_9")).toBeNull();
      expect(await files.commitStage(org, conv, "call_1")).toEqual(result);
      expect([...(await files.load(conv)).keys()]).toEqual(["/workspace/new"]);
      expect(await files.commitStage(org, conv, "call_1")).toBeNull();

      // Staging again under the same call replaces what it held.
      await files.stage(
        org,
        conv,
        "call_2",
        [{ path: "/workspace/x", kind: "file", bytes: bytes("x") }],
        result,
      );
      await files.stage(
        org,
        conv,
        "call_2",
        [{ path: "/workspace/y", kind: "file", bytes: bytes("y") }],
        "again",
      );
      await files.stage(org, conv, "call_3", [{ path: "/workspace/z", kind: "file", bytes: bytes("z") }], 3);
      await files.discardStages(conv, ["call_3"]);
      expect(await files.heldOutput(conv, "call_2")).toBeNull();
      expect(await files.commitStage(org, conv, "call_2")).toBeNull();
      expect(await files.commitStage(org, conv, "call_3")).toBe(3);
      expect([...(await files.load(conv)).keys()]).toEqual(["/workspace/new", "/workspace/z"]);
      await files.stage(
        org,
        conv,
        "call_4",
        [{ path: "/workspace/w", kind: "file", bytes: bytes("w") }],
        null,
      );
      await files.discardStages(conv);
      expect(await files.commitStage(org, conv, "call_4")).toBeNull();
    });

    it("keeps conversations apart", async () => {
      const files = under.family();
      const { org, conv } = await conversation();
      const other = await under.backend().conversation(org);
      await files.apply(org, conv, [{ path: "/workspace/a", kind: "file", bytes: bytes("a") }]);
      await files.stage(
        org,
        conv,
        "call_1",
        [{ path: "/workspace/b", kind: "file", bytes: bytes("b") }],
        "held",
      );
      expect((await files.load(other)).size).toBe(0);
      expect(await files.heldOutput(other, "call_1")).toBeNull();
      expect(await files.commitStage(org, other, "call_1")).toBeNull();
      await files.discardStages(other);
      expect(await files.heldOutput(conv, "call_1")).toBe("held");
    });

    it("moves the revision with this store's commits, not with staging, and with another connection's commits", async () => {
      const files = under.family();
      const { org, conv } = await conversation();
      const other = await under.backend().conversation(org);
      const start = await files.revision(conv);
      await files.apply(org, conv, [{ path: "/workspace/a", kind: "file", bytes: bytes("a") }]);
      expect(await files.revision(conv)).toEqual({ ...start, writes: start.writes + 1 });
      await files.stage(org, conv, "call_1", [{ path: "/workspace/b", kind: "file", bytes: bytes("b") }], {});
      expect(await files.revision(conv)).toEqual({ ...start, writes: start.writes + 1 });
      await files.commitStage(org, conv, "call_1");
      expect(await files.revision(conv)).toEqual({ ...start, writes: start.writes + 2 });
      expect((await files.revision(other)).writes).toBe(0);

      const before = await files.revision(conv);
      await another().apply(org, conv, [{ path: "/workspace/c", kind: "file", bytes: bytes("c") }]);
      const after = await files.revision(conv);
      expect(after.writes).toBe(before.writes);
      expect(after.dataVersion).not.toBe(before.dataVersion);
      expect([...(await files.load(conv)).keys()]).toEqual(["/workspace/a", "/workspace/b", "/workspace/c"]);
    });

    it("loads what a model of the tree holds, for random changes (property)", async () => {
      const files = under.family();
      const path = fc.constantFrom("/w/a", "/w/b", "/w/a/b", "/w/A", "/w/é", "/tmp/x");
      const change = fc.record({
        path,
        kind: fc.constantFrom("file" as const, "dir" as const, "deleted" as const),
        bytes: fc.uint8Array({ maxLength: 8 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 4 }), async (batches) => {
          const { org, conv } = await conversation();
          const model = new Map<string, Uint8Array | null>();
          for (const batch of batches) {
            // One change per path within a batch (a run reports each path once).
            const unique = [...new Map(batch.map((c) => [c.path, c])).values()];
            await files.apply(
              org,
              conv,
              unique.map((c) => ({ ...c, bytes: c.kind === "file" ? c.bytes : null })),
            );
            for (const c of unique) {
              if (c.kind === "deleted") model.delete(c.path);
              else model.set(c.path, c.kind === "dir" ? null : c.bytes);
            }
          }
          const tree = await files.load(conv);
          const sorted = [...model.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
          expect([...tree.keys()]).toEqual(sorted);
          for (const [p, value] of model)
            expect(tree.get(p)).toEqual(value === null ? null : new Uint8Array(value));
          const fileBytes = [...model.values()].filter((v) => v !== null);
          expect(await files.usage(conv)).toEqual({
            bytes: fileBytes.reduce((sum, v) => sum + v.length, 0),
            files: fileBytes.length,
          });
        }),
        { numRuns: 15 },
      );
    });
  });
}
