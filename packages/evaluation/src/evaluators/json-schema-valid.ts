/** json_schema_valid: the output is JSON valid under a JSON Schema (2020-12, the scoring engine's ajv). */
import { collectViolations } from "@groundwork/scoring";
import { z } from "zod";
import { parseJson } from "../json-text.js";
import { NOT_JSON, scored } from "../outcome.js";
import { paramError, passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

export const jsonSchemaValid = defineEvaluator({
  type: "json_schema_valid",
  description:
    "1 if the output is JSON valid under the schema (draft 2020-12), else 0. Give jsonSchema or schemaVersionId, exactly one.",
  needsExpectedOutput: false,
  booleanLike: true,
  params: z
    .object({
      jsonSchema: z
        .record(z.string(), z.unknown(), { error: "must be an object" })
        .optional()
        .describe("the JSON Schema (2020-12)"),
      schemaVersionId: z
        .string()
        .min(1, "must not be empty")
        .optional()
        .describe("a schema version of the organization whose jsonSchema is used"),
      passThreshold: passThreshold(1),
    })
    .superRefine((params, context) => {
      if (params.jsonSchema !== undefined && params.schemaVersionId !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["schemaVersionId"],
          message: "give jsonSchema or schemaVersionId, not both",
        });
      } else if (params.jsonSchema === undefined && params.schemaVersionId === undefined) {
        context.addIssue({
          code: "custom",
          path: ["jsonSchema"],
          message: "jsonSchema or schemaVersionId is required",
        });
      }
    }),
  check(params, base) {
    if (params.jsonSchema !== undefined && collectViolations(params.jsonSchema, null) === null) {
      throw paramError(base, "jsonSchema", "is not a valid JSON Schema (2020-12)");
    }
  },
  run(params, testCase) {
    if (params.jsonSchema === undefined) {
      return { error: "schemaVersionId was not resolved to a JSON Schema" };
    }
    const output = parseJson(testCase.output);
    if (!output.ok) return scored(0, params.passThreshold, NOT_JSON);
    const violations = collectViolations(params.jsonSchema, output.value);
    if (violations === null) return { error: "the JSON Schema could not be applied" };
    if (violations.length === 0) return scored(1, params.passThreshold);
    const [first] = violations;
    const where = first?.fieldPath === "" ? "(root)" : first?.fieldPath;
    return scored(
      0,
      params.passThreshold,
      `${violations.length} violation${violations.length === 1 ? "" : "s"}; first at ${where}: ${first?.message}`,
    );
  },
});
