/**
 * Requests per organization in the current UTC minute, counted in this process
 * (PLATFORM.md §15 `requests_per_minute`). Several server processes on one database would
 * each count their own share: a shared counter is issue #24's (PostgreSQL), see BI decisions.
 */
import { minuteWindow } from "./billing-period.js";

export class RequestWindow {
  private readonly counts = new Map<string, { start: number; count: number }>();

  /** Requests counted for the organization in the minute holding `now`. */
  count(organizationId: string, now: number): number {
    const entry = this.counts.get(organizationId);
    return entry !== undefined && entry.start === minuteWindow(now).start ? entry.count : 0;
  }

  /** Counts one request in the minute holding `now`; answers the new count. */
  add(organizationId: string, now: number): number {
    const start = minuteWindow(now).start;
    const entry = this.counts.get(organizationId);
    if (entry === undefined || entry.start !== start) {
      // A new minute: the organizations idle since the last one are dropped (the map stays small).
      if (entry === undefined && this.counts.size > 10_000) this.prune(start);
      this.counts.set(organizationId, { start, count: 1 });
      return 1;
    }
    entry.count++;
    return entry.count;
  }

  private prune(currentStart: number): void {
    for (const [organizationId, entry] of this.counts) {
      if (entry.start !== currentStart) this.counts.delete(organizationId);
    }
  }
}
