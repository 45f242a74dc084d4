/**
 * What one evaluator says about one case: a score in [0, 1] with `passed` and a comment, a skip
 * (the case lacks what the type needs, e.g. an expected output), or an error (no score: an
 * unusable judge answer, a pattern over its matching budget).
 */
import type { ExtractionGrounding } from "./evaluators/grounding.js";

/** One case as evaluators see it: the variant's output text and the dataset item's fields. */
export interface EvaluationCase {
  input?: unknown;
  /** The output text; JSON is parsed from it where a type needs it. */
  output: string;
  /** `undefined` or `null`: the item has none. */
  expectedOutput?: unknown;
  metadata?: unknown;
  /**
   * An extraction's grounding report (`resultMetadata.scoring`), for the `grounding` type;
   * absent for outputs that are not an extraction's.
   */
  grounding?: ExtractionGrounding | undefined;
}

export interface ScoredOutcome {
  score: number;
  passed: boolean;
  comment: string | null;
}

export interface SkippedOutcome {
  skipped: true;
  reason: string;
}

export interface ErrorOutcome {
  error: string;
}

export type EvaluationOutcome = ScoredOutcome | SkippedOutcome | ErrorOutcome;

export function isScored(outcome: EvaluationOutcome): outcome is ScoredOutcome {
  return "score" in outcome;
}

export function isSkipped(outcome: EvaluationOutcome): outcome is SkippedOutcome {
  return "skipped" in outcome;
}

/** A score clamped into [0, 1] (NaN → 0) with `passed` against the threshold. */
export function scored(score: number, passThreshold: number, comment: string | null = null): ScoredOutcome {
  const bounded = Number.isNaN(score) ? 0 : Math.min(1, Math.max(0, score));
  return { score: bounded, passed: bounded >= passThreshold, comment };
}

export function skipped(reason: string): SkippedOutcome {
  return { skipped: true, reason };
}

/** Whether a case has an expected output (`null` and `undefined` count as none). */
export function hasExpected(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export const NOT_JSON = "output is not JSON";
