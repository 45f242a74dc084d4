import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reciprocalRankFusion } from "./rrf.js";

describe("reciprocal rank fusion", () => {
  it("scores Σ 1/(60 + rank) and puts items found by both lists first", () => {
    const fused = reciprocalRankFusion([
      ["a", "b", "c"],
      ["c", "d"],
    ]);
    expect(fused[0]?.id).toBe("c");
    expect(fused[0]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused.find((item) => item.id === "a")?.score).toBeCloseTo(1 / 61, 12);
    expect(fused.find((item) => item.id === "d")?.ranks).toEqual([undefined, 2]);
  });

  it("counts an item once per list, at its best rank; ties keep a stable order", () => {
    const fused = reciprocalRankFusion([["x", "x", "y"], ["y"]]);
    expect(fused.map((f) => f.id)).toEqual(["y", "x"]);
    expect(reciprocalRankFusion([["p"], ["q"]]).map((f) => f.id)).toEqual(["p", "q"]);
  });

  it("property: the result holds each distinct item once, ordered by score", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f"), { maxLength: 6 }), { maxLength: 4 }),
        (lists) => {
          const fused = reciprocalRankFusion(lists);
          expect(fused.map((f) => f.id).sort()).toEqual([...new Set(lists.flat())].sort());
          for (let i = 1; i < fused.length; i++)
            expect((fused[i - 1]?.score ?? 0) >= (fused[i]?.score ?? 0)).toBe(true);
        },
      ),
    );
  });
});
