import type { z } from "zod";
import type { EvaluationCase, EvaluationOutcome } from "../outcome.js";

/** One built-in evaluator type: its params, what it needs and how it scores. */
export interface EvaluatorDefinition<S extends z.ZodType = z.ZodType> {
  type: string;
  description: string;
  needsExpectedOutput: boolean;
  /** Scores only 0 or 1 (default passThreshold 1); otherwise a share (default 0.5). */
  booleanLike: boolean;
  params: S;
  /** Checks zod cannot make (a pattern that must compile); throws a 400 naming `<base>.<field>`. */
  check?(params: z.output<S>, base: string): void;
  /** Scores one case; never throws on any output. Cases without a needed expected output never reach it. */
  run(params: z.output<S>, testCase: EvaluationCase): EvaluationOutcome;
}

export function defineEvaluator<S extends z.ZodType>(
  definition: EvaluatorDefinition<S>,
): EvaluatorDefinition {
  return definition as unknown as EvaluatorDefinition;
}
