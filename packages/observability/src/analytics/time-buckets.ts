/**
 * Analytics time buckets (PLATFORM.md §14): hours and days aligned to UTC. A range [from, to)
 * is covered by the buckets whose start is the aligned start of `from` up to the last bucket
 * holding an instant before `to`; every one of them is reported, empty or not.
 */

export type AnalyticsBucket = "hour" | "day";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export function bucketMs(bucket: AnalyticsBucket): number {
  return bucket === "hour" ? HOUR_MS : DAY_MS;
}

/** The UTC-aligned start of the bucket holding `time` (epoch ms). */
export function bucketStart(time: number, bucket: AnalyticsBucket): number {
  const size = bucketMs(bucket);
  return Math.floor(time / size) * size;
}

/** Starts of the buckets covering [from, to) (from < to), ascending. */
export function alignedBuckets(from: number, to: number, bucket: AnalyticsBucket): number[] {
  const size = bucketMs(bucket);
  const starts: number[] = [];
  for (let start = bucketStart(from, bucket); start < to; start += size) starts.push(start);
  return starts;
}
