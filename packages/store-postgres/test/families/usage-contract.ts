/**
 * The usage-records family contract: what store-sqlite's `UsageRecordStore` answers, every call
 * awaited, so the same tests hold the SQLite family (the reference) and the PostgreSQL one.
 */
import type { UsageEvent } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AreaBackend, OpenArea } from "./usage-area-backend.js";

export const HOUR = 3_600_000;
export const MONTH_START = Date.UTC(2026, 10, 1);

export function testClock(start: number): { time: number; now(): number } {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

export function usageEvent(organizationId: string, changes: Partial<UsageEvent> = {}): UsageEvent {
  return {
    organizationId,
    apiKeyId: null,
    model: "gpt-x",
    surface: "CHAT",
    byok: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: null,
    costEur: 0.25,
    latencyMs: 120,
    outcome: "ok",
    endUser: null,
    errorCode: null,
    status: null,
    ...changes,
  };
}

export async function withArea<T>(
  open: OpenArea,
  start: number,
  work: (area: AreaBackend, clock: { time: number; now(): number }) => Promise<T>,
): Promise<T> {
  const clock = testClock(start);
  const area = await open(clock);
  try {
    return await work(area, clock);
  } finally {
    await area.close();
  }
}

export function describeUsageContract(label: string, open: OpenArea): void {
  describe(`usage records contract (${label})`, () => {
    it("records every field and lists an organization's rows newest first, ties by id", async () => {
      await withArea(open, MONTH_START, async (area, clock) => {
        const org = await area.organization();
        const other = await area.organization();
        const full = usageEvent(org, {
          apiKeyId: "key_1",
          model: "mistral-small",
          surface: "EMBEDDINGS",
          byok: true,
          promptTokens: 2_000_000_000_123,
          completionTokens: 0,
          cachedTokens: 7,
          costEur: 0,
          latencyMs: 12.5,
          outcome: "error",
          endUser: "user-42",
          errorCode: "upstream_error",
          status: 502,
        });
        const first = await area.usage.record(full);
        expect(first.id).toMatch(/^use_/);
        expect(first.createdAt).toBe(MONTH_START);
        const tied = await area.usage.record(usageEvent(org));
        clock.time += 5;
        const newest = await area.usage.record(usageEvent(org, { outcome: "aborted" }));
        await area.usage.record(usageEvent(other));
        const listed = await area.usage.list(org);
        expect(listed.map((row) => row.id)).toEqual([newest.id, ...[first.id, tied.id].sort().reverse()]);
        expect(listed.find((row) => row.id === first.id)).toEqual({
          ...full,
          id: first.id,
          createdAt: MONTH_START,
        });
        expect(listed.find((row) => row.id === tied.id)).toEqual({
          ...usageEvent(org),
          id: tied.id,
          createdAt: MONTH_START,
        });
        expect(await area.usage.list(org, 1)).toHaveLength(1);
        expect((await area.usage.list(other)).map((row) => row.organizationId)).toEqual([other]);
        expect(await area.usage.list(await area.organization())).toEqual([]);
      });
    });

    it("lists in the same order as a model for random times and limits", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 30 }),
          fc.integer({ min: 1, max: 40 }),
          async (steps, limit) => {
            await withArea(open, MONTH_START, async (area, clock) => {
              const org = await area.organization();
              const recorded = [];
              for (const step of steps) {
                clock.time += step; // 0: the same millisecond as the previous call
                recorded.push(await area.usage.record(usageEvent(org)));
              }
              const expected = recorded
                .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
                .slice(0, limit)
                .map((row) => row.id);
              expect((await area.usage.list(org, limit)).map((row) => row.id)).toEqual(expected);
            });
          },
        ),
        { numRuns: 15 },
      );
    });

    it("keeps the charged total equal to the rows' sum through any mix of calls, flushes and hours", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.record({
                kind: fc.constant("record" as const),
                org: fc.integer({ min: 0, max: 1 }),
                byok: fc.boolean(),
                cost: fc.integer({ min: 0, max: 1000 }).map((cents) => cents / 100),
              }),
              fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 2 * HOUR }) }),
              fc.record({ kind: fc.constant("flush" as const) }),
            ),
            { maxLength: 25 },
          ),
          async (steps) => {
            await withArea(open, MONTH_START - HOUR, async (area, clock) => {
              const orgs = [await area.organization(), await area.organization()];
              const calls: Array<{ org: string; byok: boolean; cost: number; at: number }> = [];
              const expected = (org: string, since: number) =>
                calls
                  .filter((c) => c.org === org && !c.byok && c.at >= since)
                  .reduce((sum, c) => sum + c.cost, 0);
              for (const step of steps) {
                if (step.kind === "record") {
                  const org = orgs[step.org] ?? "";
                  await area.usage.record(usageEvent(org, { byok: step.byok, costEur: step.cost }));
                  calls.push({ org, byok: step.byok, cost: step.cost, at: clock.time });
                } else if (step.kind === "advance") clock.time += step.ms;
                else await area.usage.flush();
                for (const org of orgs) {
                  expect(await area.usage.chargedSince(org, MONTH_START)).toBeCloseTo(
                    expected(org, MONTH_START),
                    9,
                  );
                }
              }
              // A start that is no hour boundary reads the rows, not the hourly rollup.
              const odd = MONTH_START + 1_234;
              for (const org of orgs)
                expect(await area.usage.chargedSince(org, odd)).toBeCloseTo(expected(org, odd), 9);
            });
          },
        ),
        { numRuns: 12 },
      );
    });

    it("writes many concurrent calls exactly once", async () => {
      await withArea(open, MONTH_START, async (area, clock) => {
        const org = await area.organization();
        const calls = [];
        for (let i = 0; i < 600; i++) {
          clock.time += i % 3 === 0 ? 1 : 0;
          calls.push(area.usage.record(usageEvent(org, { costEur: 0.5 })));
        }
        const ids = (await Promise.all(calls)).map((row) => row.id);
        expect(new Set(ids).size).toBe(600);
        const listed = await area.usage.list(org, 1_000);
        expect(listed.map((row) => row.id).sort()).toEqual([...ids].sort());
        expect(await area.usage.chargedSince(org, MONTH_START)).toBeCloseTo(300, 9);
      });
    });
  });
}
