/** exact_match: the output equals the expected output — structurally when both are JSON. */
import { canonicalJson } from "@groundwork/scoring";
import { z } from "zod";
import { excerpt, expectedValue, parseJson, textOf } from "../json-text.js";
import { scored } from "../outcome.js";
import { passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

export const exactMatch = defineEvaluator({
  type: "exact_match",
  description:
    "1 if the output equals the expected output (JSON values compared structurally when the output parses), else 0.",
  needsExpectedOutput: true,
  booleanLike: true,
  params: z.object({
    caseSensitive: z.boolean().default(true).describe("compare letter case"),
    trim: z.boolean().default(true).describe("ignore leading and trailing whitespace"),
    passThreshold: passThreshold(1),
  }),
  run(params, testCase) {
    const fold = (text: string) => (params.caseSensitive ? text : text.toLowerCase());
    const output = params.trim ? testCase.output.trim() : testCase.output;
    const expectedText = params.trim
      ? textOf(testCase.expectedOutput).trim()
      : textOf(testCase.expectedOutput);
    const outputJson = parseJson(output);
    if (outputJson.ok) {
      // The expected output is a JSON value; a string holding JSON text counts as that JSON too.
      const candidates = [testCase.expectedOutput];
      const parsed = expectedValue(testCase.expectedOutput);
      if (typeof testCase.expectedOutput === "string" && parsed.ok) candidates.push(parsed.value);
      const actual = fold(canonicalJson(outputJson.value));
      if (candidates.some((candidate) => fold(canonicalJson(candidate)) === actual)) {
        return scored(1, params.passThreshold);
      }
      if (typeof testCase.expectedOutput !== "string" || parsed.ok) {
        return scored(0, params.passThreshold, "JSON values differ");
      }
    }
    const equal = fold(output) === fold(expectedText);
    return scored(
      equal ? 1 : 0,
      params.passThreshold,
      equal ? null : `expected ${JSON.stringify(excerpt(expectedText))}`,
    );
  },
});
