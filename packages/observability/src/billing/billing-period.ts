/**
 * Period arithmetic of the billing counters (PLATFORM.md §15): monthly resources reset at
 * the start of each UTC calendar month, the request rate at the start of each UTC minute.
 * Ends are exclusive: an instant belongs to the period when start ≤ instant < end.
 */

export interface BillingWindow {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive: the next period's start. */
  end: number;
}

/** The UTC calendar month holding `now`. */
export function monthWindow(now: number): BillingWindow {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

const MINUTE_MS = 60_000;

/** The UTC minute holding `now`. */
export function minuteWindow(now: number): BillingWindow {
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return { start, end: start + MINUTE_MS };
}

/** Whole seconds from `now` to the next UTC minute (1–60): the `Retry-After` of a rate-limit refusal. */
export function secondsToNextMinute(now: number): number {
  return Math.max(1, Math.ceil((minuteWindow(now).end - now) / 1000));
}
