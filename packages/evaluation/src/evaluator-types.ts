/**
 * The one table of evaluator types (PLATFORM.md §9): what `GET /v1/evaluators/types` lists, how
 * params are validated, and the dispatcher that scores a case with a built-in type. `llm_judge`
 * is listed here but scored by {@link judge} (llm-judge.ts), which needs a chat model and a template.
 */
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";
import { contains } from "./evaluators/contains.js";
import type { EvaluatorDefinition } from "./evaluators/definition.js";
import { exactMatch } from "./evaluators/exact-match.js";
import { fieldAccuracy } from "./evaluators/field-accuracy.js";
import { grounding } from "./evaluators/grounding.js";
import { jsonSchemaValid } from "./evaluators/json-schema-valid.js";
import { levenshtein } from "./evaluators/levenshtein.js";
import { numericTolerance } from "./evaluators/numeric-tolerance.js";
import { regex } from "./evaluators/regex.js";
import { type EvaluationCase, type EvaluationOutcome, hasExpected, skipped } from "./outcome.js";
import { parseParams, passThreshold } from "./params.js";

export const BUILTIN_EVALUATOR_TYPES = [
  "exact_match",
  "contains",
  "regex",
  "json_schema_valid",
  "numeric_tolerance",
  "levenshtein",
  "field_accuracy",
  "grounding",
] as const;
export type BuiltinEvaluatorType = (typeof BUILTIN_EVALUATOR_TYPES)[number];
export const EVALUATOR_TYPES = [...BUILTIN_EVALUATOR_TYPES, "llm_judge"] as const;
export type EvaluatorType = (typeof EVALUATOR_TYPES)[number];

/** What `GET /v1/evaluators/types` answers per type. */
export interface EvaluatorTypeInfo {
  type: EvaluatorType;
  description: string;
  /** `llm_judge`: whether depends on the template (`{{expectedOutput}}` in its prompt); listed as false. */
  needsExpectedOutput: boolean;
  /** JSON Schema (2020-12) of the params, with their defaults. */
  paramsSchema: Record<string, unknown>;
}

const llmJudgeParams = z.object({
  templateId: z
    .string({ error: "is required (an evaluator template id)" })
    .min(1, "must not be empty")
    .describe("the evaluator template (evt_…)"),
  passThreshold: passThreshold(0.5),
});
export type LlmJudgeParams = z.output<typeof llmJudgeParams>;

const BUILTINS: Record<BuiltinEvaluatorType, EvaluatorDefinition> = {
  exact_match: exactMatch,
  contains,
  regex,
  json_schema_valid: jsonSchemaValid,
  numeric_tolerance: numericTolerance,
  levenshtein,
  field_accuracy: fieldAccuracy,
  grounding,
};

export function isEvaluatorType(value: unknown): value is EvaluatorType {
  return typeof value === "string" && (EVALUATOR_TYPES as readonly string[]).includes(value);
}

export function isBuiltinEvaluatorType(value: unknown): value is BuiltinEvaluatorType {
  return typeof value === "string" && Object.hasOwn(BUILTINS, value);
}

/** Types scoring only 0 or 1, whose passThreshold defaults to 1 (others: 0.5). */
export function isBooleanLike(type: EvaluatorType): boolean {
  return type !== "llm_judge" && BUILTINS[type].booleanLike;
}

function paramsSchemaOf(schema: z.ZodType, type: EvaluatorType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  if (type === "json_schema_valid") {
    json.oneOf = [{ required: ["jsonSchema"] }, { required: ["schemaVersionId"] }];
  }
  return json;
}

let typeList: EvaluatorTypeInfo[] | null = null;

/** Every type, built-ins first then `llm_judge`, in the order of PLATFORM.md §9. */
export function evaluatorTypes(): EvaluatorTypeInfo[] {
  typeList ??= [
    ...BUILTIN_EVALUATOR_TYPES.map((type) => ({
      type,
      description: BUILTINS[type].description,
      needsExpectedOutput: BUILTINS[type].needsExpectedOutput,
      paramsSchema: paramsSchemaOf(BUILTINS[type].params, type),
    })),
    {
      type: "llm_judge" as const,
      description:
        "The judge model's answer to the template's prompt, mapped to [0, 1] by the template's scale. Needs an expected output when the template's prompt uses {{expectedOutput}}.",
      needsExpectedOutput: false,
      paramsSchema: paramsSchemaOf(llmJudgeParams, "llm_judge"),
    },
  ];
  return structuredClone(typeList);
}

export function checkEvaluatorType(type: unknown, param = "type"): EvaluatorType {
  if (isEvaluatorType(type)) return type;
  throw invalidRequest(`${param}: must be one of ${EVALUATOR_TYPES.join(", ")}`, { param });
}

/**
 * Validates and completes (defaults) the params of a type. Failures are 400s naming
 * `<base>.<field>` (`params.pattern`; experiments pass `evaluators[i].params`).
 */
export function parseEvaluatorParams(type: "llm_judge", params: unknown, base?: string): LlmJudgeParams;
export function parseEvaluatorParams(
  type: EvaluatorType,
  params: unknown,
  base?: string,
): Record<string, unknown>;
export function parseEvaluatorParams(
  type: EvaluatorType,
  params: unknown,
  base = "params",
): Record<string, unknown> {
  if (type === "llm_judge") return parseParams(llmJudgeParams, params, base);
  const definition = BUILTINS[type];
  const parsed = parseParams(definition.params, params, base) as Record<string, unknown>;
  definition.check?.(parsed, base);
  return parsed;
}

/**
 * Scores one case with a built-in type. Params are validated first (a bad one throws the 400
 * above); after that it never throws: a case without a needed expected output is skipped, an
 * evaluator failure (a deeply nested output, a pattern over budget) is an `{error}`.
 */
export function evaluate(
  type: BuiltinEvaluatorType,
  params: unknown,
  testCase: EvaluationCase,
): EvaluationOutcome {
  if (!isBuiltinEvaluatorType(type)) {
    throw invalidRequest(
      type === "llm_judge"
        ? "llm_judge is scored with judge() and a chat model"
        : `Unknown evaluator type ${String(type)}`,
      { param: "type" },
    );
  }
  const parsed = parseEvaluatorParams(type, params);
  return evaluateParsed(type, parsed, testCase);
}

/** As {@link evaluate}, with params already returned by {@link parseEvaluatorParams} (no re-validation). */
export function evaluateParsed(
  type: BuiltinEvaluatorType,
  params: Record<string, unknown>,
  testCase: EvaluationCase,
): EvaluationOutcome {
  const definition = BUILTINS[type];
  if (definition.needsExpectedOutput && !hasExpected(testCase.expectedOutput)) {
    return skipped("no expected output");
  }
  const output = typeof testCase.output === "string" ? testCase.output : String(testCase.output ?? "");
  try {
    return definition.run(params, { ...testCase, output });
  } catch (error) {
    return { error: `${type} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
