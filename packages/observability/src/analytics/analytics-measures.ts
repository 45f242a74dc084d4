/** Small definitions every analytics answer shares (PLATFORM.md §14). */

/** A share in [0, 1]; null when the denominator is 0. */
export function rate(numerator: number, denominator: number): number | null {
  if (denominator <= 0) return null;
  return Math.min(1, Math.max(0, numerator / denominator));
}

/** The provider of a model string: its prefix (`hosted-a/gpt-x` → `hosted-a`), `builtin` for a bare name. */
export function providerOf(model: string): string {
  const slash = model.indexOf("/");
  return slash <= 0 ? "builtin" : model.slice(0, slash);
}

/** Euro sums rounded to 1e-9: sums of floats added in different orders then agree. */
export function roundEur(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
