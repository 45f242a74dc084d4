/**
 * Bounds concurrent BYOK calls per organization (spec: breach gives 429). A slot
 * is held for the whole call, streaming included, and released exactly once.
 */
import { rateLimited } from "@groundwork/core";

export class ConcurrencyLimiter {
  private readonly active = new Map<string, number>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error("The concurrency limit must be a positive integer");
  }

  /** Takes a slot or throws 429 with Retry-After; call the returned function to release it. */
  acquire(key: string): () => void {
    const current = this.active.get(key) ?? 0;
    if (current >= this.limit) {
      throw rateLimited(
        `Too many concurrent calls to your own providers (limit ${this.limit}); retry shortly`,
        1,
      );
    }
    this.active.set(key, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.active.get(key) ?? 1) - 1;
      if (now === 0) this.active.delete(key);
      else this.active.set(key, now);
    };
  }

  inUse(key: string): number {
    return this.active.get(key) ?? 0;
  }
}
