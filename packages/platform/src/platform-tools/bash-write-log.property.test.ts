/**
 * PT14: the changes found from the paths a command wrote are exactly the changes found by
 * comparing the whole writable tree, over sequences of commands on a reused file system.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BashChange, type BashSnapshot, BashTreeCache, runBash } from "./bash-sandbox.js";

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const bytes = (text: string) => new TextEncoder().encode(text);

const path = fc.constantFrom(
  "a",
  "b",
  "d",
  "d/e",
  "d/e/f",
  "n/m/k",
  "/tmp/t",
  "/tmp/u/v",
  "../x",
  "/skills/s",
  "/workspace",
  "/tmp",
  ".",
  "d/",
);
const word = fc.constantFrom("one", "two", "x y", "");
const step = fc.oneof(
  fc.tuple(word, path).map(([w, p]) => `echo ${quote(w)} > ${quote(p)}`),
  fc.tuple(word, path).map(([w, p]) => `echo ${quote(w)} >> ${quote(p)}`),
  path.map((p) => `mkdir -p ${quote(p)}`),
  path.map((p) => `mkdir ${quote(p)}`),
  path.map((p) => `rm -rf ${quote(p)}`),
  path.map((p) => `rm ${quote(p)}`),
  path.map((p) => `touch ${quote(p)}`),
  fc.tuple(path, path).map(([p, q]) => `cp -r ${quote(p)} ${quote(q)}`),
  fc.tuple(path, path).map(([p, q]) => `mv ${quote(p)} ${quote(q)}`),
  fc.tuple(path, path).map(([p, q]) => `sort ${quote(p)} | tee ${quote(q)}`),
  fc.tuple(path, path).map(([p, q]) => `cd ${quote(p)} && echo in > ${quote(q)}`),
  path.map((p) => `cat ${quote(p)}; ls ${quote(p)}; grep -r o ${quote(p)} | wc -l`),
);
const command = fc.array(step, { minLength: 1, maxLength: 3 }).map((steps) => steps.join("; "));

function initial(): BashSnapshot {
  return new Map<string, Uint8Array | null>([
    ["/workspace/a", bytes("alpha\n")],
    ["/workspace/d", null],
    ["/workspace/d/e", null],
    ["/workspace/d/e/g", bytes("gamma\none\n")],
    ["/tmp/t", bytes("t\n")],
  ]);
}

const view = (changes: readonly BashChange[]) =>
  changes
    .map((c) => `${c.kind} ${c.path} ${c.bytes === null ? "-" : Buffer.from(c.bytes).toString("hex")}`)
    .sort();

describe("write log", () => {
  it("finds the same changes and output as comparing the whole tree, call after call", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 5 }), async (commands) => {
        const logged = new BashTreeCache();
        const whole = new BashTreeCache();
        for (const [index, text] of commands.entries()) {
          const revision = String(index);
          const a = await runBash(initial, text, { cache: { trees: logged, key: "c", revision } });
          const b = await runBash(initial, text, {
            cache: { trees: whole, key: "c", revision },
            compare: "whole-tree",
          });
          expect(a.result, text).toEqual(b.result);
          expect(view(a.changes), text).toEqual(view(b.changes));
          a.keep?.(String(index + 1));
          b.keep?.(String(index + 1));
          if (a.keep === undefined) return;
        }
        // The kept file system is exactly the tree the logged changes describe.
        const check = await runBash(initial, "true", {
          cache: { trees: logged, key: "c", revision: String(commands.length) },
          compare: "whole-tree",
        });
        expect(check.changes).toEqual([]);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
