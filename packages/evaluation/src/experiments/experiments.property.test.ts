/** Invariants of regression verdicts, summaries, aggregates and comparison (PLATFORM.md §11). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareRuns } from "./comparison.js";
import { type RegressionResult, regression } from "./regression.js";
import { addToTotals, aggregateScores } from "./run-aggregates.js";

const EVALUATORS = ["a", "b", "c"];
const score = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const result = (id: string) =>
  fc.record({
    datasetItemId: fc.constant(id),
    status: fc.constantFrom("completed" as const, "failed" as const),
    scores: fc
      .tuple(score, score, score)
      .map((values) => values.map((value, i) => ({ name: EVALUATORS[i] as string, value }))),
  });
/** A run over a subset of items i0…i9, in order. */
const run = fc
  .subarray(Array.from({ length: 10 }, (_, i) => `i${i}`))
  .chain((ids) => fc.tuple(...ids.map(result)))
  .map((results) => results as RegressionResult[]);
const threshold = fc.double({ min: 0, max: 1, noNaN: true });

describe("regression", () => {
  it("swapping baseline and candidate swaps improved and regressed", () => {
    fc.assert(
      fc.property(run, run, threshold, (base, cand, t) => {
        const forward = regression(base, cand, EVALUATORS, t).summary.total;
        const backward = regression(cand, base, EVALUATORS, t).summary.total;
        expect(backward).toEqual({ ...forward, improved: forward.regressed, regressed: forward.improved });
      }),
    );
  });

  it("a larger threshold never increases improved + regressed", () => {
    fc.assert(
      fc.property(run, run, threshold, threshold, (base, cand, t1, t2) => {
        const [low, high] = t1 <= t2 ? [t1, t2] : [t2, t1];
        const moved = (t: number) => {
          const { total } = regression(base, cand, EVALUATORS, t).summary;
          return total.improved + total.regressed;
        };
        expect(moved(high)).toBeLessThanOrEqual(moved(low));
      }),
    );
  });

  it("summary counts add up to the item × evaluator pairs, in total and per evaluator", () => {
    fc.assert(
      fc.property(run, run, threshold, (base, cand, t) => {
        const report = regression(base, cand, EVALUATORS, t);
        const items = new Set([...base, ...cand].map((r) => r.datasetItemId)).size;
        const sum = (counts: Record<string, number>) => Object.values(counts).reduce((x, y) => x + y, 0);
        expect(report.items).toHaveLength(items * EVALUATORS.length);
        expect(sum(report.summary.total)).toBe(items * EVALUATORS.length);
        for (const name of EVALUATORS) expect(sum(report.summary.byEvaluator[name] ?? {})).toBe(items);
      }),
    );
  });

  it("a run against itself has no improvement or regression", () => {
    fc.assert(
      fc.property(run, threshold, (results, t) => {
        const { total } = regression(results, results, EVALUATORS, t).summary;
        expect(total.improved + total.regressed).toBe(0);
      }),
    );
  });

  it("gives the verdicts of the thresholds, and missing for failed or absent sides", () => {
    const base: RegressionResult[] = [
      { datasetItemId: "x", status: "completed", scores: [{ name: "a", value: 0.5 }] },
      { datasetItemId: "y", status: "completed", scores: [{ name: "a", value: 0.5 }] },
      { datasetItemId: "z", status: "completed", scores: [{ name: "a", value: 0.5 }] },
      { datasetItemId: "w", status: "failed", scores: [] },
    ];
    const cand: RegressionResult[] = [
      { datasetItemId: "x", status: "completed", scores: [{ name: "a", value: 0.6 }] },
      { datasetItemId: "y", status: "completed", scores: [{ name: "a", value: 0.4 }] },
      { datasetItemId: "z", status: "completed", scores: [{ name: "a", value: 0.52 }] },
      { datasetItemId: "w", status: "completed", scores: [{ name: "a", value: 1 }] },
      { datasetItemId: "v", status: "completed", scores: [{ name: "a", value: 1 }] },
    ];
    const report = regression(base, cand, ["a"]);
    expect(report.items.map((entry) => [entry.datasetItemId, entry.verdict])).toEqual([
      ["x", "improved"],
      ["y", "regressed"],
      ["z", "unchanged"],
      ["w", "missing"],
      ["v", "missing"],
    ]);
    expect(report.summary.total).toEqual({ improved: 1, regressed: 1, unchanged: 1, missing: 2 });
  });
});

describe("aggregates", () => {
  it("mean and pass rate of the scored values only; adding results in any split gives the same totals", () => {
    const item = fc.array(
      fc.record({
        name: fc.constantFrom(...EVALUATORS),
        value: score,
        passed: fc.option(fc.boolean(), { nil: null }),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), (items) => {
        const totals = items.reduce(addToTotals, {});
        const aggregates = aggregateScores(totals, EVALUATORS);
        for (const name of EVALUATORS) {
          const values = items.flat().filter((s) => s.name === name && s.value !== null);
          const aggregate = aggregates[name];
          expect(aggregate?.count).toBe(values.length);
          if (values.length > 0) {
            const mean = values.reduce((x, s) => x + (s.value ?? 0), 0) / values.length;
            expect(aggregate?.mean).toBeCloseTo(mean, 9);
            expect(aggregate?.passRate).toBeCloseTo(
              values.filter((s) => s.passed === true).length / values.length,
              9,
            );
          }
        }
      }),
    );
  });
});

describe("comparison", () => {
  it("the baseline compared with itself has zero deltas and no changes; without a baseline deltas are null", () => {
    fc.assert(
      fc.property(run, (results) => {
        const totals = results
          .filter((r) => r.status === "completed")
          .reduce(
            (acc, r) =>
              addToTotals(
                acc,
                r.scores.map((s) => ({ ...s, passed: null })),
              ),
            {},
          );
        const compared = {
          runId: "r",
          variantId: "v",
          variantName: "V",
          evaluators: EVALUATORS,
          totals,
          results,
        };
        const withBaseline = compareRuns([compared], compared).runs[0];
        expect(withBaseline?.improvements).toBe(0);
        expect(withBaseline?.regressions).toBe(0);
        for (const delta of Object.values(withBaseline?.deltaVsBaseline ?? {})) {
          if (delta !== null) expect(delta).toBe(0);
        }
        expect(compareRuns([compared], null)).toMatchObject({
          baselineRunId: null,
          runs: [{ deltaVsBaseline: null }],
        });
      }),
    );
  });
});
