/** Invariants of the built-in evaluators and the judge mapping (PLATFORM.md §9), over arbitrary inputs. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUILTIN_EVALUATOR_TYPES, type BuiltinEvaluatorType, evaluate } from "./evaluator-types.js";
import { levenshteinSimilarity } from "./evaluators/levenshtein.js";
import { mapJudgeAnswer } from "./llm-judge.js";
import { type EvaluationOutcome, isScored } from "./outcome.js";

const json = fc.jsonValue({ maxDepth: 3 });
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  json.map((value) => JSON.stringify(value)),
);

const PARAMS: Record<BuiltinEvaluatorType, fc.Arbitrary<Record<string, unknown>>> = {
  exact_match: fc.record({ caseSensitive: fc.boolean(), trim: fc.boolean() }),
  contains: fc.record(
    { value: fc.string({ minLength: 1, maxLength: 5 }), caseSensitive: fc.boolean() },
    { requiredKeys: [] },
  ),
  regex: fc.record({
    pattern: fc.constantFrom("a", "^\\d+$", "[a-z]+", "\\{.*\\}", "x|y"),
    flags: fc.constantFrom("", "i", "ims", "u"),
  }),
  json_schema_valid: fc.constant({ jsonSchema: { type: "object", required: ["a"] } }),
  numeric_tolerance: fc.record({
    tolerance: fc.double({ min: 0, max: 100, noNaN: true }),
    relative: fc.boolean(),
  }),
  levenshtein: fc.record({ caseSensitive: fc.boolean() }),
  field_accuracy: fc.record({
    caseSensitive: fc.boolean(),
    numericTolerance: fc.double({ min: 0, max: 10, noNaN: true }),
  }),
  grounding: fc.record({ countPartial: fc.boolean() }),
};

function inRange(outcome: EvaluationOutcome): boolean {
  return (
    !isScored(outcome) || (outcome.score >= 0 && outcome.score <= 1 && typeof outcome.passed === "boolean")
  );
}

describe("evaluator properties", () => {
  it.each(BUILTIN_EVALUATOR_TYPES)("%s: every score lies in [0, 1] and nothing throws", (type) => {
    fc.assert(
      fc.property(
        PARAMS[type],
        text,
        fc.option(fc.oneof(json, text), { nil: undefined }),
        (params, output, expectedOutput) => {
          expect(inRange(evaluate(type, params, { output, expectedOutput }))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("exact_match is reflexive: x against x scores 1", () => {
    fc.assert(
      fc.property(text, fc.record({ caseSensitive: fc.boolean(), trim: fc.boolean() }), (x, params) => {
        expect(evaluate("exact_match", params, { output: x, expectedOutput: x })).toMatchObject({ score: 1 });
      }),
    );
    fc.assert(
      fc.property(json, (value) => {
        fc.pre(value !== null);
        expect(
          evaluate("exact_match", {}, { output: JSON.stringify(value), expectedOutput: value }),
        ).toMatchObject({
          score: 1,
        });
      }),
    );
  });

  it("levenshtein is symmetric and 1 exactly when the texts are equal", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (a, b) => {
        const ab = levenshteinSimilarity(a, b);
        expect(ab).toBe(levenshteinSimilarity(b, a));
        expect(ab === 1).toBe(a === b);
        expect(ab).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("numeric_tolerance is monotone in the tolerance", () => {
    const number = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    const tolerance = fc.double({ min: 0, max: 1e4, noNaN: true });
    fc.assert(
      fc.property(number, number, tolerance, tolerance, fc.boolean(), (out, exp, t1, t2, relative) => {
        const [low, high] = t1 <= t2 ? [t1, t2] : [t2, t1];
        const score = (tolerance: number) => {
          const outcome = evaluate(
            "numeric_tolerance",
            { tolerance, relative },
            { output: String(out), expectedOutput: exp },
          );
          return isScored(outcome) ? outcome.score : -1;
        };
        expect(score(high)).toBeGreaterThanOrEqual(score(low));
      }),
    );
  });

  it("field_accuracy is 1 when the output equals the expected output, in [0, 1] otherwise", () => {
    const document = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), json, { maxKeys: 5 });
    fc.assert(
      fc.property(document, document, (expected, other) => {
        expect(
          evaluate("field_accuracy", {}, { output: JSON.stringify(expected), expectedOutput: expected }),
        ).toMatchObject({ score: 1 });
        expect(
          inRange(
            evaluate("field_accuracy", {}, { output: JSON.stringify(other), expectedOutput: expected }),
          ),
        ).toBe(true);
      }),
    );
  });

  it("contains and regex never throw on arbitrary output", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        (output, value) => {
          expect(() => evaluate("contains", { value }, { output })).not.toThrow();
          expect(() => evaluate("regex", { pattern: "(a|b)*c", flags: "su" }, { output })).not.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the judge mapping always lands in [0, 1] or is an error", () => {
    const scale = fc.oneof(
      fc
        .tuple(
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        )
        .map(([min, width]) => ({ type: "numeric" as const, min, max: min + width })),
      fc.constant({ type: "boolean" as const }),
      fc
        .uniqueArray(
          fc.record({
            label: fc.string({ minLength: 1, maxLength: 5 }),
            value: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          {
            minLength: 2,
            maxLength: 5,
            selector: (category) => category.label,
          },
        )
        .map((categories) => ({ type: "categorical" as const, categories })),
    );
    const answer = fc.oneof(
      fc.record({ score: fc.oneof(fc.double(), fc.string()), reason: fc.string() }, { requiredKeys: [] }),
      fc.record({ verdict: fc.oneof(fc.boolean(), fc.string()) }),
      fc.record({ label: fc.string({ maxLength: 5 }) }),
      fc.anything(),
    );
    fc.assert(
      fc.property(scale, answer, (s, a) => {
        const mapped = mapJudgeAnswer(s, a);
        if ("score" in mapped) {
          expect(mapped.score).toBeGreaterThanOrEqual(0);
          expect(mapped.score).toBeLessThanOrEqual(1);
        } else {
          expect(typeof mapped.error).toBe("string");
        }
      }),
    );
  });
});
