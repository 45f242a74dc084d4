/** Invariants of the analytics maths: buckets tile the range, nearest rank picks a datum, rates stay in [0, 1]. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rate } from "./analytics-measures.js";
import { locateRank, nearestRank, nearestRankIndex } from "./nearest-rank.js";
import { alignedBuckets, bucketMs } from "./time-buckets.js";

const epoch = fc.integer({ min: 0, max: 4_102_444_800_000 }); // up to 2100
const bucket = fc.constantFrom("hour" as const, "day" as const);

describe("alignedBuckets", () => {
  it("covers [from, to) with UTC-aligned buckets, no gaps, no overlaps, none outside", () => {
    fc.assert(
      fc.property(epoch, fc.integer({ min: 1, max: 92 * 86_400_000 }), bucket, (from, span, kind) => {
        const to = from + span;
        const size = bucketMs(kind);
        const starts = alignedBuckets(from, to, kind);
        expect(starts.length).toBeGreaterThan(0);
        const first = starts[0] as number;
        const last = starts[starts.length - 1] as number;
        // Aligned to UTC hours/days (epoch 0 is midnight UTC).
        for (const start of starts) expect(start % size).toBe(0);
        // Adjacent: each bucket ends where the next starts.
        starts.forEach((start, i) => {
          if (i > 0) expect(start - (starts[i - 1] as number)).toBe(size);
        });
        // The first holds `from`, the last holds the last instant before `to`.
        expect(first <= from && from < first + size).toBe(true);
        expect(last <= to - 1 && to - 1 < last + size).toBe(true);
        // Any instant of the range lies in exactly one bucket.
        const t = from + Math.floor(span / 2);
        expect(starts.filter((start) => start <= t && t < start + size)).toHaveLength(1);
      }),
    );
  });
});

describe("nearestRank", () => {
  const data = fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 });
  const p = fc.double({ min: 0, max: 1, noNaN: true });

  it("is an element of the data, at rank ceil(p·n)", () => {
    fc.assert(
      fc.property(data, p, (values, q) => {
        const sorted = [...values].sort((a, b) => a - b);
        const value = nearestRank(sorted, q);
        expect(values).toContain(value);
        const rank = nearestRankIndex(sorted.length, q);
        expect(rank).toBeGreaterThanOrEqual(1);
        expect(rank).toBeLessThanOrEqual(sorted.length);
        // At least ceil(p·n) values are ≤ it (the defining property of the nearest rank).
        expect(sorted.filter((v) => v <= (value as number)).length).toBeGreaterThanOrEqual(rank);
      }),
    );
  });

  it("is monotone in p", () => {
    fc.assert(
      fc.property(data, p, p, (values, a, b) => {
        const sorted = [...values].sort((x, y) => x - y);
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(nearestRank(sorted, low) as number).toBeLessThanOrEqual(nearestRank(sorted, high) as number);
      }),
    );
  });

  it("is null without data and exact on the textbook cases", () => {
    expect(nearestRank([], 0.5)).toBeNull();
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(nearestRank(hundred, 0.5)).toBe(50);
    expect(nearestRank(hundred, 0.95)).toBe(95);
    expect(nearestRank([15, 20, 35, 40, 50], 0.3)).toBe(20);
    expect(nearestRank([15, 20, 35, 40, 50], 0.4)).toBe(20);
    expect(nearestRank([15, 20, 35, 40, 50], 1)).toBe(50);
  });

  it("through bin counts finds the same value as sorting everything", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 300 }),
        p,
        (values, q) => {
          const binOf = (v: number) => Math.floor(Math.log(v + 1) * 5);
          const sorted = [...values].sort((a, b) => a - b);
          const counts = new Map<number, number>();
          for (const v of values) counts.set(binOf(v), (counts.get(binOf(v)) ?? 0) + 1);
          const bins = [...counts].sort((a, b) => a[0] - b[0]).map(([bin, count]) => ({ bin, count }));
          const position = locateRank(bins, nearestRankIndex(values.length, q));
          expect(position).not.toBeNull();
          const inBin = sorted.filter((v) => binOf(v) === position?.bin);
          expect(inBin[position?.offset as number]).toBe(nearestRank(sorted, q));
        },
      ),
    );
  });
});

describe("rate", () => {
  it("is in [0, 1], null on a zero denominator", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        const [part, whole] = a <= b ? [a, b] : [b, a];
        const value = rate(part, whole);
        if (whole === 0) expect(value).toBeNull();
        else {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
          expect(value).toBe(part / whole);
        }
      }),
    );
  });
});
