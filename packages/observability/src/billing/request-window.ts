/**
 * Requests per organization in the current window, counted in this process (PLATFORM.md §15
 * `requests_per_minute`): the in-memory `RequestCounter`. Several server processes on one
 * database share `PostgresRequestCounter` instead (issue #24, decision PG30).
 */
import type { RequestCounter } from "@groundwork/core";

export class RequestWindow implements RequestCounter {
  private readonly counts = new Map<string, { start: number; count: number }>();

  count(organizationId: string, windowStart: number): number {
    const entry = this.counts.get(organizationId);
    return entry !== undefined && entry.start === windowStart ? entry.count : 0;
  }

  admit(organizationId: string, windowStart: number, limit: number | null): number | null {
    const entry = this.counts.get(organizationId);
    const current = entry !== undefined && entry.start === windowStart ? entry.count : 0;
    if (limit !== null && current >= limit) return null;
    if (entry === undefined || entry.start !== windowStart) {
      // A new window: the organizations idle since the last one are dropped (the map stays small).
      if (entry === undefined && this.counts.size > 10_000) this.prune(windowStart);
      this.counts.set(organizationId, { start: windowStart, count: 1 });
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
