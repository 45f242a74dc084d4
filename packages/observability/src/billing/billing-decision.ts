/**
 * The pure decisions of PLATFORM.md §15: what remains of a limit and whether an amount
 * fits. `null` limits are unlimited; a feature limit (`byok`) is included or not.
 */

export interface BillingDecision {
  allowed: boolean;
  /** What is left before the amount; null when unlimited (or a feature the plan includes). */
  remaining: number | null;
}

/**
 * `remaining` = limit − used, never below 0; `allowed` ⇔ unlimited or remaining ≥ amount.
 * A feature is allowed exactly when included (remaining 0 when it is not).
 */
export function decide(limit: number | boolean | null, used: number, amount: number): BillingDecision {
  if (limit === null || limit === true) return { allowed: true, remaining: null };
  if (limit === false) return { allowed: false, remaining: 0 };
  const remaining = Math.max(0, limit - used);
  return { allowed: remaining >= amount, remaining };
}
