import { describe, expect, it } from "vitest";
import { CASE_KINDS, type CaseKind, plantedCorpus } from "../../test/planted-spans.js";
import { locateSpans } from "./locate-spans.js";

// The floor every kind must reach; the issue's baseline aligner places 53 % overall and none of the
// interrupted values.
const FLOOR = 0.9;

describe("planted-span corpus: exact interval accuracy per case kind", () => {
  it(`places every kind's spans exactly at least ${FLOOR * 100} % of the time`, () => {
    const corpus = plantedCorpus(50);
    const tally = new Map<CaseKind, { exact: number; total: number }>();
    for (const kind of CASE_KINDS) tally.set(kind, { exact: 0, total: 0 });
    for (const planted of corpus) {
      const spans = locateSpans(
        planted.text,
        planted.values.map((value) => ({ value, series: "field", partial: false })),
      );
      const count = tally.get(planted.kind)!;
      planted.truth.forEach((truth, index) => {
        count.total++;
        const span = spans[index];
        if (span?.start === truth.start && span.end === truth.end) count.exact++;
      });
    }
    const rows = [...tally].map(([kind, { exact, total }]) => ({
      kind,
      exact,
      total,
      accuracy: exact / total,
    }));
    const overall =
      rows.reduce((sum, row) => sum + row.exact, 0) / rows.reduce((sum, row) => sum + row.total, 0);
    console.log(
      [
        "kind          exact/total  accuracy",
        ...rows.map(
          (row) =>
            `${row.kind.padEnd(13)} ${`${row.exact}/${row.total}`.padStart(11)}  ${(row.accuracy * 100).toFixed(1)}%`,
        ),
        `${"overall".padEnd(13)} ${"".padStart(11)}  ${(overall * 100).toFixed(1)}%`,
      ].join("\n"),
    );
    for (const row of rows)
      expect({ kind: row.kind, ok: row.accuracy >= FLOOR }).toEqual({ kind: row.kind, ok: true });
    expect(overall).toBeGreaterThan(0.53);
  });
});
