/**
 * Comparison across variants (PLATFORM.md §11): each run's mean per evaluator, its delta to the
 * baseline run's mean, and the regression totals against the baseline at the default threshold.
 */

import { DEFAULT_REGRESSION_THRESHOLD, type RegressionResult, regression } from "./regression.js";
import { aggregateScores, type ScoreTotals } from "./run-aggregates.js";

export interface ComparedRun {
  runId: string;
  variantId: string;
  variantName: string;
  evaluators: readonly string[];
  totals: ScoreTotals;
  results: readonly RegressionResult[];
}

export interface ComparisonRow {
  runId: string;
  variantId: string;
  variantName: string;
  means: Record<string, number | null>;
  deltaVsBaseline: Record<string, number | null> | null;
  improvements: number;
  regressions: number;
}

export interface Comparison {
  runs: ComparisonRow[];
  baselineRunId: string | null;
}

/** Means of the evaluators a run scored; null for one that scored nothing. */
function meansOf(run: ComparedRun): Record<string, number | null> {
  const aggregates = aggregateScores(run.totals, run.evaluators);
  const means: Record<string, number | null> = {};
  for (const [name, aggregate] of Object.entries(aggregates))
    means[name] = aggregate.count === 0 ? null : aggregate.mean;
  return means;
}

/**
 * Compares the runs with the baseline (null: no baseline — deltas are null and the counts 0).
 * Deltas and counts use the evaluators both runs have.
 */
export function compareRuns(
  runs: readonly ComparedRun[],
  baseline: ComparedRun | null,
  threshold = DEFAULT_REGRESSION_THRESHOLD,
): Comparison {
  const baselineMeans = baseline === null ? null : meansOf(baseline);
  return {
    baselineRunId: baseline?.runId ?? null,
    runs: runs.map((run) => {
      const means = meansOf(run);
      if (baseline === null || baselineMeans === null) {
        return { ...identity(run), means, deltaVsBaseline: null, improvements: 0, regressions: 0 };
      }
      const shared = run.evaluators.filter((name) => baseline.evaluators.includes(name));
      const deltaVsBaseline: Record<string, number | null> = {};
      for (const name of shared) {
        const mine = means[name] ?? null;
        const theirs = baselineMeans[name] ?? null;
        deltaVsBaseline[name] = mine === null || theirs === null ? null : mine - theirs;
      }
      const { total } = regression(baseline.results, run.results, shared, threshold).summary;
      return {
        ...identity(run),
        means,
        deltaVsBaseline,
        improvements: total.improved,
        regressions: total.regressed,
      };
    }),
  };
}

function identity(run: ComparedRun) {
  return { runId: run.runId, variantId: run.variantId, variantName: run.variantName };
}
