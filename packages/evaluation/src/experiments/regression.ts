/**
 * Regression of a candidate run against a baseline run (PLATFORM.md §11): per dataset item and
 * evaluator the two scores, their delta and a verdict — `improved` (delta > threshold),
 * `regressed` (delta < −threshold), `unchanged`, or `missing` when either side has no score
 * (the item is absent from that run, failed there, or the evaluator skipped or failed on it).
 */

export type Verdict = "improved" | "regressed" | "unchanged" | "missing";

export const DEFAULT_REGRESSION_THRESHOLD = 0.05;

/** One run's result on one item, as regression reads it. */
export interface RegressionResult {
  datasetItemId: string;
  status: "completed" | "failed";
  scores: ReadonlyArray<{ name: string; value: number | null }>;
}

export interface RegressionEntry {
  datasetItemId: string;
  evaluator: string;
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
  verdict: Verdict;
}

export type VerdictCounts = Record<Verdict, number>;

export interface RegressionReport {
  threshold: number;
  items: RegressionEntry[];
  summary: { total: VerdictCounts; byEvaluator: Record<string, VerdictCounts> };
}

export function verdictOf(delta: number, threshold: number): Exclude<Verdict, "missing"> {
  if (delta > threshold) return "improved";
  if (delta < -threshold) return "regressed";
  return "unchanged";
}

const zero = (): VerdictCounts => ({ improved: 0, regressed: 0, unchanged: 0, missing: 0 });

/** Each completed result's scored values by evaluator name. */
function valuesByItem(results: readonly RegressionResult[]): Map<string, Map<string, number>> {
  const byItem = new Map<string, Map<string, number>>();
  for (const result of results) {
    const values = new Map<string, number>();
    if (result.status === "completed") {
      for (const score of result.scores) if (score.value !== null) values.set(score.name, score.value);
    }
    byItem.set(result.datasetItemId, values);
  }
  return byItem;
}

/**
 * Compares `candidate` with `baseline` for the evaluators named (in that order). Items come
 * in the candidate's order, then the baseline's items the candidate lacks.
 */
export function regression(
  baseline: readonly RegressionResult[],
  candidate: readonly RegressionResult[],
  evaluators: readonly string[],
  threshold = DEFAULT_REGRESSION_THRESHOLD,
): RegressionReport {
  const base = valuesByItem(baseline);
  const cand = valuesByItem(candidate);
  const itemIds = [...cand.keys()];
  for (const id of base.keys()) if (!cand.has(id)) itemIds.push(id);
  const items: RegressionEntry[] = [];
  const total = zero();
  const byEvaluator: Record<string, VerdictCounts> = {};
  for (const name of evaluators) byEvaluator[name] = zero();
  for (const datasetItemId of itemIds) {
    const b = base.get(datasetItemId);
    const c = cand.get(datasetItemId);
    for (const evaluator of evaluators) {
      const baselineValue = b?.get(evaluator) ?? null;
      const candidateValue = c?.get(evaluator) ?? null;
      const delta = baselineValue === null || candidateValue === null ? null : candidateValue - baselineValue;
      const verdict = delta === null ? "missing" : verdictOf(delta, threshold);
      items.push({
        datasetItemId,
        evaluator,
        baseline: baselineValue,
        candidate: candidateValue,
        delta,
        verdict,
      });
      total[verdict] += 1;
      (byEvaluator[evaluator] as VerdictCounts)[verdict] += 1;
    }
  }
  return { threshold, items, summary: { total, byEvaluator } };
}
