/** numeric_tolerance: the output number is within a tolerance of the expected number. */
import { z } from "zod";
import { excerpt, numberOf, textOf } from "../json-text.js";
import { scored } from "../outcome.js";
import { passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

export const numericTolerance = defineEvaluator({
  type: "numeric_tolerance",
  description:
    "1 if |output − expected| ≤ tolerance (× |expected| when relative), else 0; a non-number on either side scores 0.",
  needsExpectedOutput: true,
  booleanLike: true,
  params: z.object({
    tolerance: z.number().min(0, "must be ≥ 0").default(0).describe("allowed difference"),
    relative: z.boolean().default(false).describe("tolerance is a share of |expected|"),
    passThreshold: passThreshold(1),
  }),
  run(params, testCase) {
    const output = numberOf(testCase.output);
    const expected = numberOf(testCase.expectedOutput);
    if (expected === null) {
      return scored(
        0,
        params.passThreshold,
        `expected output is not a number: ${excerpt(textOf(testCase.expectedOutput))}`,
      );
    }
    if (output === null) return scored(0, params.passThreshold, "output is not a number");
    const allowed = params.relative ? params.tolerance * Math.abs(expected) : params.tolerance;
    const difference = Math.abs(output - expected);
    const within = difference <= allowed;
    return scored(
      within ? 1 : 0,
      params.passThreshold,
      within ? null : `off by ${difference} (allowed ${allowed})`,
    );
  },
});
