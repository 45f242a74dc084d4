/**
 * Nearest-rank percentiles (PLATFORM.md §14): the p-th percentile of n values is the value of
 * rank ⌈p·n⌉ (1-based, at least 1) in ascending order — always one of the values, never an
 * interpolation; null when there are none.
 */

/** The 1-based rank of the p-th percentile (p in [0, 1]) among n > 0 values. */
export function nearestRankIndex(count: number, p: number): number {
  // The epsilon keeps 0.95 × 100 (= 95.00000000000001 in binary) at rank 95.
  return Math.min(count, Math.max(1, Math.ceil(p * count - 1e-9)));
}

/** The p-th percentile of ascending `sorted` values; null when empty. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[nearestRankIndex(sorted.length, p) - 1] as number;
}

/** Where a rank falls among ordered bins: the bin, and the 0-based position inside it. */
export interface BinPosition {
  bin: number;
  offset: number;
}

/**
 * Finds the bin holding the value of 1-based `rank`, given the counts of ordered bins (every value
 * of a lower bin is ≤ every value of a higher one) in ascending bin order; null when the rank is
 * outside the counted values.
 */
export function locateRank(
  bins: ReadonlyArray<{ bin: number; count: number }>,
  rank: number,
): BinPosition | null {
  let before = 0;
  for (const { bin, count } of bins) {
    if (before + count >= rank) return rank > before ? { bin, offset: rank - before - 1 } : null;
    before += count;
  }
  return null;
}
