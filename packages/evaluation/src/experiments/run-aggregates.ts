/**
 * A run's scores per evaluator (PLATFORM.md §11 `scores`): `{mean, count, passRate}` over the
 * results that evaluator scored — skipped and failed evaluations, and failed items, count in
 * neither the mean nor the pass rate.
 */

export interface ScoreAggregate {
  mean: number;
  count: number;
  passRate: number;
}

/** Running totals per evaluator, as a run accumulates them result by result. */
export type ScoreTotals = Readonly<Record<string, { sum: number; count: number; passed: number }>>;

/** One evaluator's score on one item; `value` null when it was skipped or failed. */
export interface ItemScore {
  name: string;
  value: number | null;
  passed: boolean | null;
}

/** Adds one item's scores to the totals (a new object; the input is left as it was). */
export function addToTotals(totals: ScoreTotals, scores: readonly ItemScore[]): ScoreTotals {
  const next: Record<string, { sum: number; count: number; passed: number }> = {};
  for (const [name, entry] of Object.entries(totals)) next[name] = { ...entry };
  for (const score of scores) {
    if (score.value === null) continue;
    const entry = next[score.name] ?? { sum: 0, count: 0, passed: 0 };
    next[score.name] = entry;
    entry.sum += score.value;
    entry.count += 1;
    if (score.passed === true) entry.passed += 1;
  }
  return next;
}

/**
 * The aggregates of the named evaluators (every evaluator of the run, in its order): an
 * evaluator that scored nothing yet is `{mean: 0, count: 0, passRate: 0}` (decision EX6).
 */
export function aggregateScores(
  totals: ScoreTotals,
  evaluatorNames: readonly string[],
): Record<string, ScoreAggregate> {
  const aggregates: Record<string, ScoreAggregate> = {};
  const names = [...evaluatorNames, ...Object.keys(totals).filter((name) => !evaluatorNames.includes(name))];
  for (const name of names) {
    const entry = totals[name];
    aggregates[name] =
      entry === undefined || entry.count === 0
        ? { mean: 0, count: 0, passRate: 0 }
        : { mean: entry.sum / entry.count, count: entry.count, passRate: entry.passed / entry.count };
  }
  return aggregates;
}
