export { type ComparedRun, type Comparison, type ComparisonRow, compareRuns } from "./comparison.js";
export {
  DEFAULT_REGRESSION_THRESHOLD,
  type RegressionEntry,
  type RegressionReport,
  type RegressionResult,
  regression,
  type Verdict,
  type VerdictCounts,
  verdictOf,
} from "./regression.js";
export {
  addToTotals,
  aggregateScores,
  type ItemScore,
  type ScoreAggregate,
  type ScoreTotals,
} from "./run-aggregates.js";
