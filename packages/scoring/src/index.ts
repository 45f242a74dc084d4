export { attributeSignals } from "./attribution.js";
export {
  BLOCKER_CAP,
  compositeConfidence,
  ERROR_RULE_CAP,
  type FailedRuleSignal,
  type FieldSignals,
  INFO_DEDUCTION,
  provenanceOf,
  SCHEMA_CAP,
  WARNING_DEDUCTION,
} from "./confidence.js";
export type {
  BusinessRuleConfig,
  ExtractionConfig,
  FieldHint,
  PropertyConfidenceConfig,
  PropertyValidationConfig,
} from "./extraction-config.js";
export { type FoldedText, foldText, foldValue } from "./grounding/fold-text.js";
export {
  type GroundingInput,
  type GroundingResult,
  groundOutput,
  type ItemGrounding,
  isDefaultish,
  type ScoredField,
} from "./grounding/ground-output.js";
export { detectKeyFields, fieldNameWords, isKeyFieldName } from "./grounding/key-fields.js";
export { locateSpans, type SpanRequest, type TextSpan } from "./grounding/locate-spans.js";
export { normalizeValue } from "./grounding/normalize-text.js";
export { PatternMatcher } from "./grounding/pattern-matcher.js";
export { type MatchBasis, partialCandidates, searchValues } from "./grounding/search-values.js";
export { evaluateRules, MAX_RECORDED_OUTCOMES, type RuleRun, runRules } from "./rules/evaluate-rules.js";
export { isEmail, isHttpUrl, isIban, isIsoDate } from "./rules/format-rule.js";
export { fullMatchSource, type JavaRegexTranslation, translateJavaRegex } from "./rules/java-regex.js";
export { PathologicalPatternError, REGEX_TIME_BUDGET_MS, testAllWithinBudget } from "./rules/regex-budget.js";
export {
  canonicalJson,
  collectViolations,
  MAX_RECORDED_VIOLATIONS,
  type SchemaValidationOptions,
  validateAgainstSchema,
} from "./schema-validation.js";
export { type ScoringInput, scoreResult } from "./score-result.js";
export { MAX_RECORDED_FLAGS } from "./thresholds.js";
export type {
  ConfidenceBasis,
  ConfidenceFlag,
  ConfidenceSummary,
  FieldConfidence,
  FieldEntry,
  FieldGrounding,
  FlagSource,
  GroundingBasis,
  ItemEntry,
  Provenance,
  ResultScoring,
  RuleAction,
  RuleOutcome,
  RuleReport,
  RuleSeverity,
  RuleType,
  RuleVerdict,
  SchemaValidationReport,
  SchemaViolation,
  ScoringMethod,
  ScoringReport,
  SourceSpan,
  ThresholdHint,
  TopLevelGrounding,
  ViolationSource,
} from "./types.js";
export { type ExtractionConfigCheck, validateExtractionConfig } from "./validate-extraction-config.js";
