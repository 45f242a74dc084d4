/**
 * Memory path fuzzing through the service: whatever paths and commands a caller
 * sends, every file that ends up stored lies in the caller's own tree under
 * `/memories/` in its canonical spelling, and another member's tree is untouched.
 */
import { memoryPathProblem } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import { openStore } from "@groundwork/store-sqlite";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
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
  it("never stores a file outside the caller's canonical /memories tree", async () => {
    const store = openStore({ file: ":memory:" });
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
        const rows = store.db.prepare("SELECT member_id, path FROM memory_files").all() as Array<{
          member_id: string;
          path: string;
        }>;
        for (const row of rows) {
          expect(row.path.startsWith("/memories/")).toBe(true);
          expect(memoryPathProblem(row.path, false)).toBeNull();
        }
        expect(rows.filter((row) => row.member_id === bob.apiKeyId).map((row) => row.path)).toEqual([
          "/memories/bob.md",
        ]);
      }),
      { numRuns: 300 },
    );
    await store.close();
  });
});
