/** contains: the output contains a value (by default the expected output as text). */
import { z } from "zod";
import { excerpt, textOf } from "../json-text.js";
import { hasExpected, scored, skipped } from "../outcome.js";
import { passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

export const contains = defineEvaluator({
  type: "contains",
  description: "1 if the output contains the value (default: the expected output as text), else 0.",
  needsExpectedOutput: false,
  booleanLike: true,
  params: z.object({
    value: z
      .string()
      .min(1, "must not be empty")
      .optional()
      .describe("the text to look for; default the expected output as text"),
    caseSensitive: z.boolean().default(false).describe("compare letter case"),
    passThreshold: passThreshold(1),
  }),
  run(params, testCase) {
    let value = params.value;
    if (value === undefined) {
      if (!hasExpected(testCase.expectedOutput)) return skipped("no value and no expected output");
      value = textOf(testCase.expectedOutput);
    }
    const fold = (text: string) => (params.caseSensitive ? text : text.toLowerCase());
    const found = fold(testCase.output).includes(fold(value));
    return scored(
      found ? 1 : 0,
      params.passThreshold,
      found ? null : `does not contain ${JSON.stringify(excerpt(value))}`,
    );
  },
});
