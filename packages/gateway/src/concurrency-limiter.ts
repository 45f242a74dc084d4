/**
 * Bounds concurrent BYOK calls per organization (spec: breach gives 429). A slot
 * is held for the whole call, streaming included, and released exactly once. The slots are
 * counted in this process unless shared ones are passed (PostgreSQL: every process on the
 * database holds one limit, issue #24).
 */
import { type ConcurrencySlots, type MaybePromise, rateLimited } from "@groundwork/core";
import { LocalConcurrencySlots } from "./local-concurrency-slots.js";

export class ConcurrencyLimiter {
  constructor(
    private readonly limit: number,
    private readonly slots: ConcurrencySlots = new LocalConcurrencySlots(),
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error("The concurrency limit must be a positive integer");
  }

  /**
   * Takes a slot or throws 429 with Retry-After; call the returned function to release it.
   * Answers at once (and throws at once) when the slots do, as the in-process ones do.
   */
  acquire(key: string): MaybePromise<() => void> {
    const taken = this.slots.acquire(key, this.limit);
    return taken instanceof Promise ? taken.then((release) => this.granted(release)) : this.granted(taken);
  }

  inUse(key: string): MaybePromise<number> {
    return this.slots.inUse(key);
  }

  private granted(release: (() => void) | null): () => void {
    if (release === null) {
      throw rateLimited(
        `Too many concurrent calls to your own providers (limit ${this.limit}); retry shortly`,
        1,
      );
    }
    return release;
  }
}
