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

/** Each completed result's scored values in the evaluators' order (null: no score); failed results have none. */
function valuesByItem(
  results: readonly RegressionResult[],
  index: ReadonlyMap<string, number>,
  width: number,
): Map<string, Array<number | null> | null> {
  const byItem = new Map<string, Array<number | null> | null>();
  for (const result of results) {
    if (result.status !== "completed") {
      byItem.set(result.datasetItemId, null);
      continue;
    }
    const values = new Array<number | null>(width).fill(null);
    for (const score of result.scores) {
      const at = index.get(score.name);
      if (at !== undefined && score.value !== null) values[at] = score.value;
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
  const index = new Map(evaluators.map((name, at) => [name, at]));
  const base = valuesByItem(baseline, index, evaluators.length);
  const cand = valuesByItem(candidate, index, evaluators.length);
  const itemIds = [...cand.keys()];
  for (const id of base.keys()) if (!cand.has(id)) itemIds.push(id);
  const items: RegressionEntry[] = [];
  const total = zero();
  const counts = evaluators.map(zero);
  for (const datasetItemId of itemIds) {
    const b = base.get(datasetItemId);
    const c = cand.get(datasetItemId);
    for (let at = 0; at < evaluators.length; at++) {
      const baselineValue = b?.[at] ?? null;
      const candidateValue = c?.[at] ?? null;
      const delta = baselineValue === null || candidateValue === null ? null : candidateValue - baselineValue;
      const verdict = delta === null ? "missing" : verdictOf(delta, threshold);
      items.push({
        datasetItemId,
        evaluator: evaluators[at] as string,
        baseline: baselineValue,
        candidate: candidateValue,
        delta,
        verdict,
      });
      total[verdict] += 1;
      (counts[at] as VerdictCounts)[verdict] += 1;
    }
  }
  const byEvaluator: Record<string, VerdictCounts> = {};
  evaluators.forEach((name, at) => {
    byEvaluator[name] = counts[at] as VerdictCounts;
  });
  return { threshold, items, summary: { total, byEvaluator } };
}
