import type { Clock } from "../src/ports.js";

/** A clock the test moves by hand (lease expiry, retry delays). */
export class ManualClock implements Clock {
  constructor(public time = 1_700_000_000_000) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
