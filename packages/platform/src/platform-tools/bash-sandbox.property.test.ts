/** Invariants of the `platform_bash` sandbox: writes never leave the writable roots; output never exceeds the cap. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BashSnapshot, isWritablePath, runBash } from "./bash-sandbox.js";

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

const segment = fc.constantFrom("..", ".", "a", "b c", "skills", "etc", "tmp", "workspace", "proc", "");
const pathArb = fc
  .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 6 }))
  .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);

describe("platform_bash properties", () => {
  it("every change lies under /workspace or /tmp, whatever path a command writes to", async () => {
    await fc.assert(
      fc.asyncProperty(pathArb, pathArb, async (a, b) => {
        const command = `mkdir -p ${quote(a)}; echo x > ${quote(a)}/f; touch ${quote(b)}; cp ${quote(b)} ${quote(a)}; mv ${quote(a)} ${quote(b)}`;
        const run = await runBash(new Map(), command);
        for (const change of run.changes) expect(isWritablePath(change.path), change.path).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("each stream stays within 64 KiB and `truncated` says when it was cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 150_000 }),
        fc.constantFrom("y", "é", "日"),
        async (count, char) => {
          const text = char.repeat(Math.ceil(count / Buffer.byteLength(char)));
          const tree: BashSnapshot = new Map([["/workspace/f", new TextEncoder().encode(text)]]);
          const { result } = await runBash(tree, "cat f; cat f >&2");
          const limit = 64 * 1024;
          expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(limit);
          expect(Buffer.byteLength(result.stderr)).toBeLessThanOrEqual(limit);
          expect(result.truncated).toBe(Buffer.byteLength(text) > limit);
          expect(text.startsWith(result.stdout)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });
});
