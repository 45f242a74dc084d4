/**
 * Memory path fuzzing through the service: whatever paths and commands a caller
 * sends, every file that ends up stored lies in the caller's own tree under
 * `/memories/` in its canonical spelling, and another member's tree is untouched.
 */
import { memoryPathProblem } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork } from "../create-groundwork.js";

const piece = fc.constantFrom(
  "/memories",
  "/",
  "..",
  ".",
  "a",
  "b c",
  "\\",
  "//",
  "%2e%2e",
  "~",
  "/etc",
  " ",
  "x.md",
);
const path = fc.oneof(
  fc.array(piece, { maxLength: 10 }).map((parts) => parts.join("")),
  fc.string({ maxLength: 40 }).map((s) => `/memories/${s}`),
);
const command = fc.oneof(
  fc.record({
    command: fc.constant("create" as const),
    path,
    content: fc.string({ maxLength: 20 }),
    overwrite: fc.boolean(),
  }),
  fc.record({ command: fc.constant("rename" as const), path, newPath: path }),
  fc.record({
    command: fc.constant("insert" as const),
    path,
    insertLine: fc.nat(3),
    insertText: fc.string({ maxLength: 10 }),
  }),
);

describe("memory paths through the service", () => {
  // 300 runs of store writes: a networked store on a shared machine needs more than the default.
  it("never stores a file outside the caller's canonical /memories tree", { timeout: 90_000 }, async () => {
    const store = await openTestStore();
    const groundwork = createGroundwork({ store });
    const base = await groundwork.principal("acme", "member");
    const member = async (name: string): Promise<Principal> => ({
      ...base,
      apiKeyId: (await store.apiKeys.create({ organizationId: base.organizationId, role: "member", name }))
        .record.id,
    });
    const [ada, bob] = [await member("ada"), await member("bob")];
    await groundwork.memory.write(bob, { command: "create", path: "/memories/bob.md", content: "bob's" });
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 8 }), async (commands) => {
        for (const input of commands) {
          try {
            await groundwork.memory.write(ada, input);
          } catch (error) {
            expect((error as { status: number }).status).toBeLessThan(500);
          }
        }
        // Every file of the organization, read through the store: the members holding memory, and
        // each one's files — all of them, as `usage` counts every row whatever its path.
        const members = await store.memoryFiles.usageByMember(base.organizationId, 0, 100);
        expect(members.items.every((m) => m.memberId === ada.apiKeyId || m.memberId === bob.apiKeyId)).toBe(
          true,
        );
        for (const principal of [ada, bob]) {
          const scope = { organizationId: base.organizationId, memberId: principal.apiKeyId };
          const files = await store.memoryFiles.below(scope, "");
          expect(files).toHaveLength((await store.memoryFiles.usage(scope)).fileCount);
          for (const file of files) {
            expect(file.path.startsWith("/memories/")).toBe(true);
            expect(memoryPathProblem(file.path, false)).toBeNull();
          }
          if (principal === bob) expect(files.map((file) => file.path)).toEqual(["/memories/bob.md"]);
        }
      }),
      { numRuns: 300 },
    );
    await store.close();
  });
});
