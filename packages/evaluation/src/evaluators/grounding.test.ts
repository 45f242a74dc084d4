/** The grounding evaluator (decision EX2): share of checkable leaves grounded in the source. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "../evaluator-types.js";
import type { ExtractionGrounding } from "./grounding.js";

const BASES = [
  "exact_match",
  "normalized_match",
  "partial_match",
  "unverifiable",
  "not_found",
  "default_absent",
  "system_assigned",
] as const;
type Basis = (typeof BASES)[number];

const entry = (basis: Basis) => ({ grounding: { score: 0, basis }, confidence: null, provenance: null });

function report(fields: Basis[], itemFields: Basis[] = []): ExtractionGrounding {
  return {
    fields: Object.fromEntries(fields.map((basis, i) => [`f${i}`, entry(basis)])),
    items: {
      "lines[0]": {
        grounding: { score: 0, basis: "exact_match" },
        fields: Object.fromEntries(itemFields.map((basis, i) => [`g${i}`, entry(basis)])),
      },
    },
  };
}

describe("grounding", () => {
  it("scores grounded ÷ checkable leaves over root and item fields; partial counts unless countPartial is false", () => {
    const grounding = report(
      ["exact_match", "not_found", "unverifiable"],
      ["partial_match", "normalized_match"],
    );
    expect(evaluate("grounding", {}, { output: "{}", grounding })).toEqual({
      score: 0.75,
      passed: true,
      comment: "3 of 4 checkable values grounded in the source",
    });
    expect(evaluate("grounding", { countPartial: false }, { output: "{}", grounding })).toMatchObject({
      score: 0.5,
      passed: true,
    });
  });

  it("skips outputs without a report and reports without a checkable leaf", () => {
    expect(evaluate("grounding", {}, { output: "{}" })).toMatchObject({ skipped: true });
    expect(
      evaluate("grounding", {}, { output: "{}", grounding: report(["unverifiable", "default_absent"]) }),
    ).toMatchObject({ skipped: true });
  });

  it("a score always lies in [0, 1] and turning a not_found leaf into exact_match never lowers it", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BASES), { minLength: 1, maxLength: 20 }), (bases) => {
        const before = evaluate("grounding", {}, { output: "{}", grounding: report(bases) });
        const fixed = bases.map((basis) => (basis === "not_found" ? "exact_match" : basis));
        const after = evaluate("grounding", {}, { output: "{}", grounding: report(fixed) });
        if ("score" in before && "score" in after) {
          expect(before.score).toBeGreaterThanOrEqual(0);
          expect(after.score).toBeLessThanOrEqual(1);
          expect(after.score).toBeGreaterThanOrEqual(before.score);
        }
      }),
    );
  });
});
