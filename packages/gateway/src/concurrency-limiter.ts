/**
 * Bounds concurrent BYOK calls per organization (spec: breach gives 429). A slot
 * is held for the whole call, streaming included, and released exactly once.
 */
import { rateLimited } from "@groundwork/core";
import { LocalConcurrencySlots } from "./local-concurrency-slots.js";

export class ConcurrencyLimiter {
  private readonly slots = new LocalConcurrencySlots();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error("The concurrency limit must be a positive integer");
  }

  /** Takes a slot or throws 429 with Retry-After; call the returned function to release it. */
  acquire(key: string): () => void {
    const release = this.slots.acquire(key, this.limit);
    if (release === null) {
      throw rateLimited(
        `Too many concurrent calls to your own providers (limit ${this.limit}); retry shortly`,
        1,
      );
    }
    return release;
  }

  inUse(key: string): number {
    return this.slots.inUse(key);
  }
}
