import DecimalModule from "decimal.js";

/**
 * Exact decimal arithmetic for rule comparisons and score rounding. The precision is high enough that
 * adding any two JSON doubles (down to 1e-308 and up to 1e308) is exact.
 */
export const Dec = DecimalModule.clone({ precision: 1000, rounding: DecimalModule.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

/**
 * A score in whole hundredths, when its shortest decimal form has at most two decimals (every score of
 * the spec's tables does); null otherwise. Integer hundredths keep the hot path exact without decimals.
 */
export function toHundredths(score: number): number | null {
  const hundredths = Math.round(score * 100);
  return hundredths / 100 === score ? hundredths : null;
}

/** `numerator / denominator` hundredths, rounded half up to whole hundredths, as a score. */
export function averageOfHundredths(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator)) / 100;
}

/** Rounds half up to 2 decimals on the number's shortest decimal form, so 0.645 gives 0.65. */
export function round2(value: number | Dec): number {
  return new Dec(value).toDecimalPlaces(2, Dec.ROUND_HALF_UP).toNumber();
}
