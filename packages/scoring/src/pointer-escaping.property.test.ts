import { compilePointer, getAtPointer, parsePointer } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groundOutput } from "./grounding/ground-output.js";
import { evaluateRules } from "./rules/evaluate-rules.js";
import { validateAgainstSchema } from "./schema-validation.js";

// Keys rich in the characters RFC 6901 escapes.
const key = fc.string({
  unit: fc.constantFrom("~", "/", "0", "1", "a", "é", " ", "*"),
  minLength: 1,
  maxLength: 6,
});

describe("pointer escaping round-trips", () => {
  it("violation fieldPaths parse back to the offending keys", () => {
    fc.assert(
      fc.property(key, key, (outer, inner) => {
        const output = { [outer]: { [inner]: 1 } };
        const report = validateAgainstSchema(
          { additionalProperties: { additionalProperties: { type: "string" } } },
          output,
        );
        expect(report.violations).toHaveLength(1);
        expect(parsePointer(report.violations[0]!.fieldPath)).toEqual([outer, inner]);
        expect(getAtPointer(output, report.violations[0]!.fieldPath)).toBe(1);
      }),
    );
  });

  it("scored-field pointers parse back to their keys and address their values", () => {
    fc.assert(
      fc.property(key, key, (root, field) => {
        const output = { [root]: [{ [field]: "value" }] };
        const result = groundOutput({ output, texts: ["value"] });
        expect(result.scoredFields).toHaveLength(1);
        const scored = result.scoredFields[0]!;
        expect(parsePointer(scored.pointer)).toEqual([root, "0", field]);
        expect(getAtPointer(output, scored.pointer)).toBe("value");
      }),
    );
  });

  it("rule outcomes name the concrete, escaped location of what they read", () => {
    fc.assert(
      fc.property(
        key.filter((k) => k !== "*"),
        key.filter((k) => k !== "*"),
        (array, field) => {
          const output = { [array]: [{ [field]: 5 }, { [field]: 50 }] };
          const rule = { id: "r", type: "RANGE", field: compilePointer([array, "*", field]), max: 10 };
          const outcomes = evaluateRules([rule], output).outcomes;
          expect(outcomes.map((o) => [parsePointer(o.field), o.verdict])).toEqual([
            [[array, "0", field], "PASS"],
            [[array, "1", field], "FAIL"],
          ]);
        },
      ),
    );
  });
});
