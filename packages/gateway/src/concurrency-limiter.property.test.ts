import type { GroundworkError } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";

describe("ConcurrencyLimiter", () => {
  it("never holds more than the limit per key, and releasing twice frees one slot", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.boolean(), fc.constantFrom("a", "b")), { maxLength: 60 }),
        (limit, steps) => {
          // In-process slots answer at once: acquire and inUse are synchronous here.
          const limiter = new ConcurrencyLimiter(limit);
          const held: Record<string, Array<() => void>> = { a: [], b: [] };
          for (const [take, key] of steps) {
            const slots = held[key] ?? [];
            if (take) {
              try {
                slots.push(limiter.acquire(key) as () => void);
              } catch (error) {
                expect((error as GroundworkError).status).toBe(429);
                expect(slots.length).toBe(limit);
              }
            } else {
              const release = slots.pop();
              release?.();
              release?.();
            }
            expect(limiter.inUse(key)).toBe(slots.length);
            expect(limiter.inUse(key)).toBeLessThanOrEqual(limit);
          }
        },
      ),
    );
  });
});
