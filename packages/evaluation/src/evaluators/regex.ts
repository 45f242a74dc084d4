/**
 * regex: the output matches a pattern. A JavaScript pattern cannot be interrupted from JavaScript,
 * so matching runs under the scoring engine's time budget (a `node:vm` timeout that V8 enforces
 * inside the regular expression) and on outputs of bounded length; over either → an error, no score.
 */
import { PathologicalPatternError, REGEX_TIME_BUDGET_MS, testAllWithinBudget } from "@groundwork/scoring";
import { z } from "zod";
import { scored } from "../outcome.js";
import { paramError, passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

export const MAX_PATTERN_LENGTH = 1000;
/** Longest output matched (UTF-16 code units); longer outputs are an error. */
export const MAX_REGEX_OUTPUT_LENGTH = 1_000_000;

export const regex = defineEvaluator({
  type: "regex",
  description: "1 if the output matches the pattern (JavaScript syntax), else 0.",
  needsExpectedOutput: false,
  booleanLike: true,
  params: z.object({
    pattern: z
      .string({ error: "is required (a string)" })
      .min(1, "must not be empty")
      .max(MAX_PATTERN_LENGTH, `must be at most ${MAX_PATTERN_LENGTH} characters`)
      .describe("the regular expression (JavaScript syntax), at most 1000 characters"),
    flags: z
      .string()
      .regex(/^(?!.*(.).*\1)[imsu]*$/, "must be distinct letters of imsu")
      .default("")
      .describe("flags, any of i, m, s, u"),
    passThreshold: passThreshold(1),
  }),
  check(params, base) {
    try {
      new RegExp(params.pattern, params.flags);
    } catch (error) {
      throw paramError(base, "pattern", `is not a valid regular expression (${(error as Error).message})`);
    }
  },
  run(params, testCase) {
    if (testCase.output.length > MAX_REGEX_OUTPUT_LENGTH) {
      return { error: `output longer than ${MAX_REGEX_OUTPUT_LENGTH} characters; not matched` };
    }
    try {
      const [matched] = testAllWithinBudget(params.pattern, params.flags, [testCase.output], "regex");
      return scored(matched === true ? 1 : 0, params.passThreshold, matched === true ? null : "no match");
    } catch (error) {
      if (error instanceof PathologicalPatternError) {
        return { error: `pattern exceeded the ${REGEX_TIME_BUDGET_MS} ms matching budget` };
      }
      return { error: `pattern could not run: ${(error as Error).message}` };
    }
  },
});
