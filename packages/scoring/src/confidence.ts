import { Dec, round2, toHundredths } from "./decimal.js";
import type { ConfidenceBasis, FieldConfidence, FieldGrounding, Provenance, RuleSeverity } from "./types.js";

export const SCHEMA_CAP = 0.2;
export const BLOCKER_CAP = 0.1;
export const ERROR_RULE_CAP = 0.3;
export const WARNING_DEDUCTION = 0.2;
export const INFO_DEDUCTION = 0.05;
const WARNING_DEDUCTION_HUNDREDTHS = 20;
const INFO_DEDUCTION_HUNDREDTHS = 5;

export interface FailedRuleSignal {
  severity: RuleSeverity;
  automationBlocker: boolean;
}

/** The signals attributed to one scored field. */
export interface FieldSignals {
  readonly schemaViolations: number;
  readonly failedRules: readonly FailedRuleSignal[];
  readonly passedRules: number;
}

export const NO_SIGNALS: FieldSignals = Object.freeze({
  schemaViolations: 0,
  failedRules: Object.freeze([]),
  passedRules: 0,
});

/**
 * score = clamp(min(round(grounding - deductions, 2), smallest applicable cap), 0, 1). Severity and
 * automationBlocker act independently, so one failed rule can both deduct and cap.
 */
export function compositeConfidence(grounding: FieldGrounding, signals: FieldSignals): FieldConfidence {
  let deductionHundredths = 0;
  let blocker = false;
  let errorRule = false;
  for (const failed of signals.failedRules) {
    if (failed.automationBlocker) blocker = true;
    if (failed.severity === "ERROR") errorRule = true;
    else
      deductionHundredths +=
        failed.severity === "WARNING" ? WARNING_DEDUCTION_HUNDREDTHS : INFO_DEDUCTION_HUNDREDTHS;
  }
  // Whole hundredths (all table scores) subtract exactly as integers; anything else goes through decimals.
  const groundingHundredths = toHundredths(grounding.score);
  const raw =
    groundingHundredths === null
      ? round2(new Dec(grounding.score).minus(new Dec(deductionHundredths).dividedBy(100)))
      : (groundingHundredths - deductionHundredths) / 100;

  // Caps in priority order, which is also ascending order: the first that binds is the score, and it
  // binds when it is at or below the deducted score (so a tie goes to the cap).
  const schemaCapped = signals.schemaViolations > 0;
  const smallestCap = blocker ? BLOCKER_CAP : schemaCapped ? SCHEMA_CAP : errorRule ? ERROR_RULE_CAP : 1;
  const score = Math.min(Math.max(Math.min(raw, smallestCap), 0), 1);

  let basis: ConfidenceBasis;
  if (blocker && BLOCKER_CAP <= raw) basis = "blocker_capped";
  else if (schemaCapped && SCHEMA_CAP <= raw) basis = "schema_capped";
  else if (errorRule && ERROR_RULE_CAP <= raw) basis = "rule_capped";
  else if (deductionHundredths > 0) basis = "rule_penalized";
  else if (grounding.basis === "unverifiable") basis = "low_information";
  else basis = "grounded";
  return shared(score, basis);
}

const CONFIDENCE_BASES: readonly ConfidenceBasis[] = [
  "blocker_capped",
  "schema_capped",
  "rule_capped",
  "rule_penalized",
  "low_information",
  "grounded",
];
const sharedConfidences = new Map<number, FieldConfidence>();

/** Scores are whole hundredths, so there are a few hundred possible results: share frozen ones. */
function shared(score: number, basis: ConfidenceBasis): FieldConfidence {
  const hundredths = toHundredths(score);
  if (hundredths === null) return { score, basis };
  const key = hundredths * CONFIDENCE_BASES.length + CONFIDENCE_BASES.indexOf(basis);
  let confidence = sharedConfidences.get(key);
  if (confidence === undefined) {
    confidence = Object.freeze({ score, basis });
    sharedConfidences.set(key, confidence);
  }
  return confidence;
}

const VOUCHING_BASES = new Set(["exact_match", "normalized_match", "partial_match", "system_assigned"]);

// The eight possible lists, shared (and frozen) so that ten thousand fields allocate none.
const PROVENANCE_LISTS: ReadonlyArray<readonly Provenance[]> = Array.from({ length: 8 }, (_, bits) =>
  Object.freeze(
    (["grounding", "rule", "threshold"] as const).filter((_, position) => (bits & (1 << position)) !== 0),
  ),
);

/** Checks that looked at the value and did not object, in the spec's order. */
export function provenanceOf(
  grounding: FieldGrounding,
  signals: FieldSignals,
  confidence: FieldConfidence,
  compositeThreshold: number | null,
): readonly Provenance[] {
  const bits =
    (VOUCHING_BASES.has(grounding.basis) ? 1 : 0) |
    (signals.passedRules > 0 ? 2 : 0) |
    (compositeThreshold !== null && confidence.score >= compositeThreshold ? 4 : 0);
  return PROVENANCE_LISTS[bits]!;
}
