import { isGroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { evaluate, evaluatorTypes, parseEvaluatorParams } from "./evaluator-types.js";
import { MAX_REGEX_OUTPUT_LENGTH } from "./evaluators/regex.js";

function paramOf(run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    if (isGroundworkError(error) && error.status === 400) return error.param;
    throw error;
  }
  throw new Error("expected a 400");
}

describe("the type table", () => {
  it("lists the eight types of §9 (and grounding, decision EX2) with params schemas carrying their defaults", () => {
    const types = evaluatorTypes();
    expect(types.map((t) => t.type)).toEqual([
      "exact_match",
      "contains",
      "regex",
      "json_schema_valid",
      "numeric_tolerance",
      "levenshtein",
      "field_accuracy",
      "grounding",
      "llm_judge",
    ]);
    const byType = new Map(types.map((t) => [t.type, t]));
    expect(byType.get("exact_match")).toMatchObject({
      needsExpectedOutput: true,
      paramsSchema: {
        type: "object",
        properties: {
          caseSensitive: { type: "boolean", default: true },
          trim: { type: "boolean", default: true },
          passThreshold: { type: "number", default: 1 },
        },
      },
    });
    expect(byType.get("regex")?.paramsSchema).toMatchObject({ required: ["pattern"] });
    expect(byType.get("levenshtein")?.paramsSchema).toMatchObject({
      properties: { passThreshold: { default: 0.5 } },
    });
    expect(byType.get("json_schema_valid")?.paramsSchema).toHaveProperty("oneOf");
    expect(byType.get("llm_judge")?.paramsSchema).toMatchObject({ required: ["templateId"] });
    expect(byType.get("contains")?.needsExpectedOutput).toBe(false);
  });

  it("refuses bad params with a 400 naming params.<field>", () => {
    expect(paramOf(() => parseEvaluatorParams("regex", {}))).toBe("params.pattern");
    expect(paramOf(() => parseEvaluatorParams("regex", { pattern: "a", flags: "g" }))).toBe("params.flags");
    expect(paramOf(() => parseEvaluatorParams("regex", { pattern: "a", flags: "ii" }))).toBe("params.flags");
    expect(paramOf(() => parseEvaluatorParams("regex", { pattern: "(" }))).toBe("params.pattern");
    expect(paramOf(() => parseEvaluatorParams("regex", { pattern: "a".repeat(1001) }))).toBe(
      "params.pattern",
    );
    expect(paramOf(() => parseEvaluatorParams("exact_match", { caseSensitive: "yes" }))).toBe(
      "params.caseSensitive",
    );
    expect(paramOf(() => parseEvaluatorParams("levenshtein", { passThreshold: 2 }))).toBe(
      "params.passThreshold",
    );
    expect(paramOf(() => parseEvaluatorParams("numeric_tolerance", { tolerance: -1 }))).toBe(
      "params.tolerance",
    );
    expect(paramOf(() => parseEvaluatorParams("json_schema_valid", {}))).toBe("params.jsonSchema");
    expect(
      paramOf(() => parseEvaluatorParams("json_schema_valid", { jsonSchema: {}, schemaVersionId: "x" })),
    ).toBe("params.schemaVersionId");
    expect(paramOf(() => parseEvaluatorParams("json_schema_valid", { jsonSchema: { type: 12 } }))).toBe(
      "params.jsonSchema",
    );
    expect(paramOf(() => parseEvaluatorParams("field_accuracy", { fields: ["a"] }))).toBe("params.fields[0]");
    expect(paramOf(() => parseEvaluatorParams("llm_judge", {}))).toBe("params.templateId");
    expect(paramOf(() => parseEvaluatorParams("exact_match", [1]))).toBe("params");
    expect(paramOf(() => parseEvaluatorParams("regex", {}, "evaluators[2].params"))).toBe(
      "evaluators[2].params.pattern",
    );
  });

  it("defaults passThreshold to 1 for boolean-like types and 0.5 otherwise", () => {
    expect(parseEvaluatorParams("contains", {})).toMatchObject({ passThreshold: 1, caseSensitive: false });
    expect(parseEvaluatorParams("field_accuracy", {})).toMatchObject({
      passThreshold: 0.5,
      numericTolerance: 0,
    });
  });
});

describe("built-in evaluators", () => {
  it("skips types that need an expected output when the case has none", () => {
    for (const type of ["exact_match", "numeric_tolerance", "levenshtein", "field_accuracy"] as const) {
      expect(evaluate(type, {}, { output: "x" })).toEqual({ skipped: true, reason: "no expected output" });
      expect(evaluate(type, {}, { output: "x", expectedOutput: null })).toMatchObject({ skipped: true });
    }
  });

  it("exact_match compares text with trim and case options, JSON structurally", () => {
    expect(evaluate("exact_match", {}, { output: " Paris\n", expectedOutput: "Paris" })).toEqual({
      score: 1,
      passed: true,
      comment: null,
    });
    expect(evaluate("exact_match", {}, { output: "paris", expectedOutput: "Paris" })).toMatchObject({
      score: 0,
    });
    expect(
      evaluate("exact_match", { caseSensitive: false }, { output: "paris", expectedOutput: "Paris" }),
    ).toMatchObject({
      score: 1,
    });
    expect(
      evaluate("exact_match", { trim: false }, { output: " Paris", expectedOutput: "Paris" }),
    ).toMatchObject({
      score: 0,
    });
    expect(
      evaluate("exact_match", {}, { output: '{"b": [1, 2], "a": 1.0}', expectedOutput: { a: 1, b: [1, 2] } }),
    ).toMatchObject({ score: 1 });
    expect(evaluate("exact_match", {}, { output: '{"a":1}', expectedOutput: '{ "a": 1 }' })).toMatchObject({
      score: 1,
    });
    expect(evaluate("exact_match", {}, { output: "42.0", expectedOutput: 42 })).toMatchObject({ score: 1 });
    expect(evaluate("exact_match", {}, { output: '{"a":2}', expectedOutput: { a: 1 } })).toMatchObject({
      score: 0,
      passed: false,
      comment: "JSON values differ",
    });
  });

  it("contains looks for the value, by default the expected output, case-insensitively", () => {
    expect(evaluate("contains", { value: "TOTAL" }, { output: "the total is 5" })).toMatchObject({
      score: 1,
    });
    expect(
      evaluate("contains", { value: "TOTAL", caseSensitive: true }, { output: "the total" }),
    ).toMatchObject({
      score: 0,
    });
    expect(evaluate("contains", {}, { output: "Answer: 42", expectedOutput: 42 })).toMatchObject({
      score: 1,
    });
    expect(evaluate("contains", {}, { output: "Answer" })).toMatchObject({ skipped: true });
  });

  it("regex matches with flags and guards against catastrophic patterns", () => {
    expect(evaluate("regex", { pattern: "^INV-\\d+$" }, { output: "INV-42" })).toMatchObject({ score: 1 });
    expect(evaluate("regex", { pattern: "^inv", flags: "i" }, { output: "INV-42" })).toMatchObject({
      score: 1,
    });
    expect(evaluate("regex", { pattern: "^b$", flags: "m" }, { output: "a\nb" })).toMatchObject({ score: 1 });
    expect(evaluate("regex", { pattern: "^x" }, { output: "INV" })).toMatchObject({
      score: 0,
      comment: "no match",
    });
    const slow = evaluate("regex", { pattern: "^(a+)+$" }, { output: `${"a".repeat(40)}!` });
    expect(slow).toEqual({ error: "pattern exceeded the 250 ms matching budget" });
    expect(
      evaluate("regex", { pattern: "a" }, { output: "a".repeat(MAX_REGEX_OUTPUT_LENGTH + 1) }),
    ).toHaveProperty("error");
  });

  it("json_schema_valid validates JSON output under 2020-12", () => {
    const jsonSchema = {
      type: "object",
      properties: { total: { type: "number" } },
      required: ["total"],
      $defs: {},
    };
    expect(evaluate("json_schema_valid", { jsonSchema }, { output: '{"total": 3}' })).toMatchObject({
      score: 1,
    });
    expect(evaluate("json_schema_valid", { jsonSchema }, { output: '{"total": "3"}' })).toMatchObject({
      score: 0,
      comment: expect.stringContaining("/total"),
    });
    expect(evaluate("json_schema_valid", { jsonSchema }, { output: "total: 3" })).toEqual({
      score: 0,
      passed: false,
      comment: "output is not JSON",
    });
    expect(evaluate("json_schema_valid", { schemaVersionId: "sv_1" }, { output: "{}" })).toHaveProperty(
      "error",
    );
  });

  it("numeric_tolerance compares absolute and relative differences; non-numbers score 0", () => {
    expect(evaluate("numeric_tolerance", {}, { output: "42", expectedOutput: 42 })).toMatchObject({
      score: 1,
    });
    expect(
      evaluate("numeric_tolerance", { tolerance: 0.5 }, { output: " 42.4 ", expectedOutput: "42" }),
    ).toMatchObject({ score: 1 });
    expect(
      evaluate("numeric_tolerance", { tolerance: 0.5 }, { output: "43", expectedOutput: 42 }),
    ).toMatchObject({
      score: 0,
    });
    expect(
      evaluate(
        "numeric_tolerance",
        { tolerance: 0.1, relative: true },
        { output: "105", expectedOutput: 100 },
      ),
    ).toMatchObject({ score: 1 });
    expect(
      evaluate(
        "numeric_tolerance",
        { tolerance: 0.1, relative: true },
        { output: "111", expectedOutput: 100 },
      ),
    ).toMatchObject({ score: 0 });
    expect(evaluate("numeric_tolerance", {}, { output: "forty", expectedOutput: 40 })).toMatchObject({
      score: 0,
      comment: "output is not a number",
    });
    expect(evaluate("numeric_tolerance", {}, { output: "40", expectedOutput: { a: 1 } })).toMatchObject({
      score: 0,
    });
  });

  it("levenshtein is 1 − distance / max length, in code points", () => {
    expect(evaluate("levenshtein", {}, { output: "kitten", expectedOutput: "sitting" })).toMatchObject({
      score: 1 - 3 / 7,
      passed: true,
    });
    expect(evaluate("levenshtein", {}, { output: "", expectedOutput: "" })).toMatchObject({ score: 1 });
    expect(evaluate("levenshtein", {}, { output: "abc", expectedOutput: "" })).toMatchObject({ score: 0 });
    expect(
      evaluate("levenshtein", { caseSensitive: false }, { output: "ABC", expectedOutput: "abc" }),
    ).toMatchObject({
      score: 1,
    });
    expect(evaluate("levenshtein", {}, { output: "😀a", expectedOutput: "😀b" })).toMatchObject({
      score: 0.5,
    });
    expect(
      evaluate("levenshtein", {}, { output: "a".repeat(6000), expectedOutput: "b".repeat(6000) }),
    ).toHaveProperty("error");
  });

  it("field_accuracy scores the share of expected leaves equal in the output", () => {
    const expectedOutput = {
      invoiceNumber: "INV-1",
      total: 120.5,
      vendor: { name: "Acme" },
      lines: [{ qty: 2 }],
    };
    expect(
      evaluate("field_accuracy", {}, { output: JSON.stringify(expectedOutput), expectedOutput }),
    ).toEqual({
      score: 1,
      passed: true,
      comment: "4/4 fields match",
    });
    const output = JSON.stringify({
      invoiceNumber: " inv-1 ",
      total: 120.49,
      vendor: { name: "Acme" },
      lines: [],
    });
    expect(evaluate("field_accuracy", {}, { output, expectedOutput })).toEqual({
      score: 0.25,
      passed: false,
      comment: "1/4 fields match; mismatched: /invoiceNumber, /total, /lines/0/qty",
    });
    expect(
      evaluate(
        "field_accuracy",
        { caseSensitive: false, numericTolerance: 0.05 },
        { output, expectedOutput },
      ),
    ).toMatchObject({ score: 0.75 });
    expect(
      evaluate("field_accuracy", { fields: ["/vendor", "/total"] }, { output, expectedOutput }),
    ).toMatchObject({ score: 0.5 });
    expect(evaluate("field_accuracy", {}, { output: "not json", expectedOutput })).toMatchObject({
      score: 0,
      comment: "output is not JSON",
    });
    expect(
      evaluate("field_accuracy", {}, { output: '{"a":1}', expectedOutput: '{"a":1,"b":null}' }),
    ).toMatchObject({
      score: 0.5,
    });
  });

  it("never throws on a deeply nested output", () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    for (const type of ["exact_match", "field_accuracy", "json_schema_valid"] as const) {
      const params = type === "json_schema_valid" ? { jsonSchema: { type: "array" } } : {};
      expect(() => evaluate(type, params, { output: deep, expectedOutput: deep })).not.toThrow();
    }
  });
});
