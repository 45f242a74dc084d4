/**
 * The report objects of spec document 2 (`resultMetadata.schemaValidation`, `.rules`, `.scoring`),
 * named after the spec's objects so that the server can serialise them as they are.
 */

export type ViolationSource = "MODEL" | "RESTORED_NULL";

export interface SchemaViolation {
  /** RFC 6901 pointer into the output; "" is the document root. */
  fieldPath: string;
  keyword: string;
  /** The field the violation is about when the keyword names one (`required`), otherwise null. */
  property: string | null;
  /** English display text; wording may change. */
  message: string;
  source: ViolationSource;
}

export interface SchemaValidationReport {
  /** False means the check did not run; it never means passed. */
  applied: boolean;
  violationCount: number;
  truncated: boolean;
  violations: SchemaViolation[];
}

export type RuleType = "REGEX" | "RANGE" | "ENUM" | "ARITHMETIC" | "CROSS_FIELD" | "FORMAT";
export type RuleSeverity = "ERROR" | "WARNING" | "INFO";
export type RuleAction = "WARN" | "FLAG" | "REJECT" | "RETRY";
export type RuleVerdict = "PASS" | "FAIL" | "SKIPPED" | "ERROR";

export interface RuleOutcome {
  ruleId: string;
  /** Concrete pointer, the configured pointer when nothing resolved, or "" when no location applies. */
  field: string;
  verdict: RuleVerdict;
  expected: string;
  /** Display text of the value; for ERROR, the reason. */
  actual: string;
  severity: RuleSeverity;
  automationBlocker: boolean;
  action: RuleAction;
}

export interface RuleReport {
  applied: boolean;
  passCount: number;
  failCount: number;
  skippedCount: number;
  errorCount: number;
  truncated: boolean;
  outcomes: RuleOutcome[];
}

export type GroundingBasis =
  | "exact_match"
  | "normalized_match"
  | "partial_match"
  | "unverifiable"
  | "not_found"
  | "default_absent"
  | "system_assigned";

/**
 * Where a grounded value lies in the input text. Provenance, not scoring: it never changes a basis or
 * a score (docs/provenance.md).
 */
export interface SourceSpan {
  /** Offset into the extraction's input text in Unicode code points (not UTF-16 units). */
  start: number;
  /** End offset, exclusive, in code points. */
  end: number;
  /** 1-based page, when the input text came from a converted document that knows its pages. */
  page?: number;
  /** `[x0, y0, x1, y1]` in PDF points of the text block the span starts in, for a PDF. */
  bbox?: [number, number, number, number];
}

export interface FieldGrounding {
  score: number;
  basis: GroundingBasis;
  /**
   * For `exact_match`, `normalized_match` and `partial_match` (one per located element, in order, for
   * an array of strings); for a number (`unverifiable`) only when located. Absent otherwise.
   */
  spans?: SourceSpan[];
}

export interface TopLevelGrounding {
  score: number;
  /** Always null at the top level. */
  basis: null;
}

export type ConfidenceBasis =
  | "blocker_capped"
  | "schema_capped"
  | "rule_capped"
  | "rule_penalized"
  | "low_information"
  | "grounded";

export interface FieldConfidence {
  score: number;
  basis: ConfidenceBasis;
}

/** `history` and `human` are reserved by the spec and never written. */
export type Provenance = "grounding" | "rule" | "threshold";

export interface FieldEntry {
  grounding: FieldGrounding;
  confidence: FieldConfidence | null;
  /** Null only when `confidence` is null. */
  provenance: readonly Provenance[] | null;
}

export interface ItemEntry {
  grounding: FieldGrounding;
  fields: Record<string, FieldEntry>;
}

export type FlagSource = "LEGACY_GROUNDING" | "COMPOSITE";

export interface ConfidenceFlag {
  /** `<property>[<index>].<field>`, `[<index>].<field>` or a root field name. */
  field: string;
  confidence: number;
  threshold: number;
  source: FlagSource;
}

export interface ConfidenceSummary {
  /** Always false: scores are an ordering, not probabilities. */
  calibrated: false;
  flags: ConfidenceFlag[];
  flagCount: number;
  truncated: boolean;
}

/** Thresholds configured for an array property or `$root`; null when that kind is not configured. */
export interface ThresholdHint {
  /** `validation.properties.<p>.confidenceThreshold`, compared with grounding scores. */
  confidenceThreshold: number | null;
  /** `confidence.properties.<p>.threshold`, compared with composite scores. */
  threshold: number | null;
}

export type ScoringMethod = "grounding" | "confidence";

export interface ScoringReport {
  methods: ScoringMethod[];
  grounding: TopLevelGrounding;
  thresholds: Record<string, ThresholdHint>;
  fields: Record<string, FieldEntry>;
  items: Record<string, ItemEntry>;
  confidence: ConfidenceSummary | null;
}

export interface ResultScoring {
  schemaValidation: SchemaValidationReport;
  rules: RuleReport;
  scoring: ScoringReport | null;
}
