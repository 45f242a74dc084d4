/**
 * @groundwork/evaluation: evaluators as pure functions (PLATFORM.md §9). Built-in types score a
 * case synchronously; the LLM judge calls a chat-model port. No store, no environment, no I/O.
 */
export {
  BUILTIN_EVALUATOR_TYPES,
  type BuiltinEvaluatorType,
  checkEvaluatorType,
  EVALUATOR_TYPES,
  type EvaluatorType,
  type EvaluatorTypeInfo,
  evaluate,
  evaluateParsed,
  evaluatorTypes,
  isBooleanLike,
  isBuiltinEvaluatorType,
  isEvaluatorType,
  type LlmJudgeParams,
  parseEvaluatorParams,
} from "./evaluator-types.js";
export { leafPointers, valuesEqual } from "./evaluators/field-accuracy.js";
export type { ExtractionGrounding } from "./evaluators/grounding.js";
export {
  levenshteinDistance,
  levenshteinSimilarity,
  MAX_LEVENSHTEIN_CELLS,
} from "./evaluators/levenshtein.js";
export { MAX_PATTERN_LENGTH, MAX_REGEX_OUTPUT_LENGTH } from "./evaluators/regex.js";
export * from "./experiments/index.js";
export {
  JUDGE_VARIABLES,
  type JudgeOptions,
  type JudgeOutcome,
  type JudgeScale,
  type JudgeTemplate,
  type JudgeUsage,
  judge,
  judgeNeedsExpectedOutput,
  judgeRequest,
  judgeScaleSchema,
  judgeVariables,
  MAX_JUDGE_PROMPT_LENGTH,
  MAX_JUDGE_REASON_LENGTH,
  mapJudgeAnswer,
  parseJudgeContent,
  unknownJudgeVariables,
} from "./llm-judge.js";
export {
  type ErrorOutcome,
  type EvaluationCase,
  type EvaluationOutcome,
  isScored,
  isSkipped,
  NOT_JSON,
  type ScoredOutcome,
  type SkippedOutcome,
} from "./outcome.js";
