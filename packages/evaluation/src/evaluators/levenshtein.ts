/**
 * levenshtein: 1 − distance / max(length) between the output and the expected text, counted in
 * code points (an astral character is one). The quadratic table is bounded: longer pairs are an
 * error, not a slow request.
 */
import { z } from "zod";
import { textOf } from "../json-text.js";
import { scored } from "../outcome.js";
import { passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

/** Largest length product (cells of the distance table) computed. */
export const MAX_LEVENSHTEIN_CELLS = 25_000_000;

/** Edit distance (insert, delete, substitute; each 1) between two code-point sequences. */
export function levenshteinDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length < b.length) return levenshteinDistance(b, a);
  if (b.length === 0) return a.length;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const char = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (char === b[j - 1] ? 0 : 1);
      const deletion = (previous[j] as number) + 1;
      const insertion = (current[j - 1] as number) + 1;
      current[j] = Math.min(substitution, deletion, insertion);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

/** 1 − distance / max(length); 1 for two empty strings. */
export function levenshteinSimilarity(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const longest = Math.max(left.length, right.length);
  if (longest === 0) return 1;
  return 1 - levenshteinDistance(left, right) / longest;
}

export const levenshtein = defineEvaluator({
  type: "levenshtein",
  description:
    "1 − edit distance / max(length) between the output and the expected output as text; 1 for two empty strings.",
  needsExpectedOutput: true,
  booleanLike: false,
  params: z.object({
    caseSensitive: z.boolean().default(true).describe("compare letter case"),
    passThreshold: passThreshold(0.5),
  }),
  run(params, testCase) {
    const fold = (text: string) => (params.caseSensitive ? text : text.toLowerCase());
    const output = fold(testCase.output);
    const expected = fold(textOf(testCase.expectedOutput));
    if (output.length * expected.length > MAX_LEVENSHTEIN_CELLS) {
      return { error: `texts too long for levenshtein (length product over ${MAX_LEVENSHTEIN_CELLS})` };
    }
    return scored(levenshteinSimilarity(output, expected), params.passThreshold);
  },
});
