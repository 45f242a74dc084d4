/**
 * Garbage-collection pauses inside timed intervals: a leg's tail can be a collection of garbage
 * that other work made (the hybrid search, the vector leg), so the benches say which timed calls a
 * pause fell into and how long it was, beside the percentiles (which keep every pause).
 */
import { type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";

export class GcPauses {
  private readonly pauses: PerformanceEntry[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    this.pauses.push(...list.getEntries());
  });

  constructor() {
    this.observer.observe({ entryTypes: ["gc"] });
  }

  /** Per interval (`performance.now()` at its start and end), the milliseconds of collection pauses that overlap it. */
  async within(intervals: ReadonlyArray<readonly [number, number]>): Promise<number[]> {
    // Node makes a pause's entry on the event loop's next turn (its times are taken at the pause):
    // a synchronous loop of timed calls sees none until the loop turns.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    this.pauses.push(...this.observer.takeRecords());
    return intervals.map(([start, end]) => {
      let paused = 0;
      for (const pause of this.pauses) {
        const overlap = Math.min(end, pause.startTime + pause.duration) - Math.max(start, pause.startTime);
        if (overlap > 0) paused += overlap;
      }
      return paused;
    });
  }

  stop(): void {
    this.observer.disconnect();
  }
}
