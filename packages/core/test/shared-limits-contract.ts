/**
 * The contracts of the limits several processes share: `RequestCounter` and `ConcurrencySlots`.
 * Each backend runs them with two handles on one backing store — one instance twice in memory,
 * two connection pools on one database — so "shared" is what the tests check.
 */
import { describe, expect, it } from "vitest";
import type { ConcurrencySlots, RequestCounter } from "../src/ports.js";

const WINDOW = 1_700_000_040_000;

export function describeRequestCounterContract(
  name: string,
  open: () => Promise<[RequestCounter, RequestCounter]>,
): void {
  describe(`RequestCounter contract: ${name}`, () => {
    it("admits up to the limit, then refuses without counting", async () => {
      const [counter] = await open();
      const answers: Array<number | null> = [];
      for (let i = 0; i < 5; i++) answers.push(await counter.admit("org_a", WINDOW, 3));
      expect(answers).toEqual([1, 2, 3, null, null]);
      expect(await counter.count("org_a", WINDOW)).toBe(3);
    });

    it("keeps organizations and windows apart; no limit always admits; zero refuses", async () => {
      const [counter] = await open();
      await counter.admit("org_a", WINDOW, 1);
      expect(await counter.admit("org_a", WINDOW, 1)).toBeNull();
      expect(await counter.admit("org_b", WINDOW, 1)).toBe(1);
      expect(await counter.count("org_a", WINDOW)).toBe(1);
      // Only the current window is read: an in-memory counter forgets the earlier ones.
      expect(await counter.admit("org_a", WINDOW + 60_000, 1)).toBe(1);
      expect(await counter.admit("org_c", WINDOW, null)).toBe(1);
      expect(await counter.admit("org_c", WINDOW, null)).toBe(2);
      expect(await counter.admit("org_d", WINDOW, 0)).toBeNull();
      expect(await counter.count("org_d", WINDOW)).toBe(0);
      expect(await counter.count("org_a", WINDOW + 60_000)).toBe(1);
    });

    it("admits exactly the limit when both handles race for it", async () => {
      const [first, second] = await open();
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? first : second).admit("org_r", WINDOW, 25)),
      );
      const admitted = answers.filter((answer): answer is number => answer !== null);
      expect(admitted).toHaveLength(25);
      expect(new Set(admitted).size).toBe(25);
      expect(Math.max(...admitted)).toBe(25);
      expect(await second.count("org_r", WINDOW)).toBe(25);
    });
  });
}

export function describeConcurrencySlotsContract(
  name: string,
  open: () => Promise<[ConcurrencySlots, ConcurrencySlots]>,
): void {
  describe(`ConcurrencySlots contract: ${name}`, () => {
    it("gives up to the limit, frees a slot on release, and releasing twice frees one", async () => {
      const [slots] = await open();
      const first = await slots.acquire("org_a", 2);
      const second = await slots.acquire("org_a", 2);
      expect(first).not.toBeNull();
      expect(second).not.toBeNull();
      expect(await slots.acquire("org_a", 2)).toBeNull();
      expect(await slots.inUse("org_a")).toBe(2);
      first?.();
      first?.();
      await eventually(() => slots.inUse("org_a"), 1);
      const third = await slots.acquire("org_a", 2);
      expect(third).not.toBeNull();
      expect(await slots.acquire("org_a", 2)).toBeNull();
      second?.();
      third?.();
      await eventually(() => slots.inUse("org_a"), 0);
    });

    it("keeps keys apart", async () => {
      const [slots] = await open();
      const a = await slots.acquire("org_k1", 1);
      expect(await slots.acquire("org_k2", 1)).not.toBeNull();
      expect(await slots.acquire("org_k1", 1)).toBeNull();
      a?.();
    });

    it("gives exactly the limit when both handles race for slots", async () => {
      const [first, second] = await open();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).acquire("org_race", 3)),
      );
      const taken = answers.filter((release) => release !== null);
      expect(taken).toHaveLength(3);
      expect(await first.inUse("org_race")).toBe(3);
      for (const release of taken) release?.();
      await eventually(() => second.inUse("org_race"), 0);
    });
  });
}

/** Giving a slot back may finish after the call returns (a database delete): wait for it to land. */
async function eventually(read: () => number | Promise<number>, expected: number): Promise<void> {
  let value = await read();
  for (let i = 0; i < 200 && value !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  expect(value).toBe(expected);
}
