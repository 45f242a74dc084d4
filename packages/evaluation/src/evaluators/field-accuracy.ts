/**
 * field_accuracy: the share of the expected output's chosen leaves (JSON pointers; default every
 * leaf) that the output has equal — the extraction-aware evaluator. Strings are compared in Unicode
 * NFC with ends trimmed (and case-folded unless caseSensitive), numbers within numericTolerance,
 * anything else structurally.
 */
import { appendPointer, getAtPointer, isValidPointer } from "@groundwork/core";
import { canonicalJson } from "@groundwork/scoring";
import { z } from "zod";
import { expectedValue, parseJson } from "../json-text.js";
import { NOT_JSON, scored } from "../outcome.js";
import { passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

/** Mismatched pointers named in the comment, at most. */
const LISTED_MISMATCHES = 10;

/** Pointers of every leaf: scalars, empty objects and empty arrays; a scalar document is its own leaf (""). */
export function leafPointers(value: unknown, base = ""): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [base];
    return value.flatMap((item, index) => leafPointers(item, appendPointer(base, index)));
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return [base];
    return keys.flatMap((key) =>
      leafPointers((value as Record<string, unknown>)[key], appendPointer(base, key)),
    );
  }
  return [base];
}

export interface FieldComparison {
  caseSensitive: boolean;
  numericTolerance: number;
}

export function valuesEqual(expected: unknown, actual: unknown, rules: FieldComparison): boolean {
  if (expected === undefined || actual === undefined) return expected === actual;
  if (typeof expected === "number" && typeof actual === "number") {
    return Math.abs(expected - actual) <= rules.numericTolerance;
  }
  if (typeof expected === "string" && typeof actual === "string") {
    const fold = (text: string) => {
      const normal = text.normalize("NFC").trim();
      return rules.caseSensitive ? normal : normal.toLowerCase();
    };
    return fold(expected) === fold(actual);
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return (
      expected.length === actual.length &&
      expected.every((item, index) => valuesEqual(item, actual[index], rules))
    );
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = Object.keys(expected);
    return (
      keys.length === Object.keys(actual).length &&
      keys.every((key) => Object.hasOwn(actual, key) && valuesEqual(expected[key], actual[key], rules))
    );
  }
  return canonicalJson(expected) === canonicalJson(actual);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export const fieldAccuracy = defineEvaluator({
  type: "field_accuracy",
  description:
    "Share of the chosen leaves of the expected output (JSON pointers; default every leaf) that the output has equal — for extraction outputs.",
  needsExpectedOutput: true,
  booleanLike: false,
  params: z.object({
    fields: z
      .array(z.string().refine(isValidPointer, "must be a JSON pointer (RFC 6901), e.g. /invoiceNumber"), {
        error: "must be an array of JSON pointers",
      })
      .min(1, "must name at least one field")
      .max(1000, "must name at most 1000 fields")
      .optional()
      .describe("JSON pointers of the compared fields; default every leaf of the expected output"),
    caseSensitive: z.boolean().default(true).describe("compare letter case of strings"),
    numericTolerance: z
      .number()
      .min(0, "must be ≥ 0")
      .default(0)
      .describe("allowed difference between numbers"),
    passThreshold: passThreshold(0.5),
  }),
  run(params, testCase) {
    const expected = expectedValue(testCase.expectedOutput);
    // A string expectation that is not JSON is compared as that string.
    const expectedDocument = expected.ok ? expected.value : testCase.expectedOutput;
    const output = parseJson(testCase.output);
    if (!output.ok) return scored(0, params.passThreshold, NOT_JSON);
    const pointers = params.fields ?? leafPointers(expectedDocument);
    const mismatched = pointers.filter(
      (pointer) =>
        !valuesEqual(getAtPointer(expectedDocument, pointer), getAtPointer(output.value, pointer), params),
    );
    const matched = pointers.length - mismatched.length;
    const listed = mismatched
      .slice(0, LISTED_MISMATCHES)
      .map((pointer) => (pointer === "" ? "(root)" : pointer));
    const more = mismatched.length > LISTED_MISMATCHES ? ", …" : "";
    return scored(
      matched / pointers.length,
      params.passThreshold,
      `${matched}/${pointers.length} fields match${mismatched.length === 0 ? "" : `; mismatched: ${listed.join(", ")}${more}`}`,
    );
  },
});
