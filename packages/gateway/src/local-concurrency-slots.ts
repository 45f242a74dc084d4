/**
 * Concurrency slots counted in this process: the in-memory `ConcurrencySlots`. Several server
 * processes on one database share `PostgresConcurrencySlots` instead (issue #24, decision PG30).
 */
import type { ConcurrencySlots } from "@groundwork/core";

export class LocalConcurrencySlots implements ConcurrencySlots {
  private readonly active = new Map<string, number>();

  acquire(key: string, limit: number): (() => void) | null {
    const current = this.active.get(key) ?? 0;
    if (current >= limit) return null;
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
