/**
 * The charged total the plan allowance reads before every built-in call: kept in memory and
 * advanced by every written batch, it always equals the SUM over the raw rows (queued ones
 * included), and a write by another process is seen within a second.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

const opened: Store[] = [];
const directories: string[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const MONTH_START = Date.UTC(2026, 10, 1);

function event(organizationId: string, byok: boolean, costEur: number) {
  return {
    organizationId,
    apiKeyId: null,
    model: "gpt-x",
    surface: "CHAT" as const,
    byok,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: null,
    costEur,
    latencyMs: 1,
    outcome: "ok" as const,
    endUser: null,
    errorCode: null,
    status: null,
  };
}

function rawSum(store: Store, organizationId: string, since: number): number {
  return (
    store.db
      .prepare(
        "SELECT COALESCE(SUM(cost_eur), 0) AS total FROM usage_records WHERE organization_id = ? AND byok = 0 AND created_at >= ?",
      )
      .get(organizationId, since) as { total: number }
  ).total;
}

describe("charged total", () => {
  it("equals the raw rows' sum through any mix of calls, flushes, hours and organizations", () => {
    fc.assert(
      fc.property(
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
          { maxLength: 60 },
        ),
        (steps) => {
          const clock = { time: MONTH_START - HOUR, now: () => clock.time };
          const store = openStore({ file: ":memory:", clock });
          try {
            const orgs = [
              store.organizations.create("a", "team").id,
              store.organizations.create("b", "team").id,
            ];
            // The model: every call recorded so far, with the time it was recorded at.
            const calls: Array<{ org: string; byok: boolean; cost: number; at: number }> = [];
            const expected = (org: string) =>
              calls
                .filter((c) => c.org === org && !c.byok && c.at >= MONTH_START)
                .reduce((sum, c) => sum + c.cost, 0);
            for (const step of steps) {
              if (step.kind === "record") {
                const org = orgs[step.org] ?? "";
                store.usage.record(event(org, step.byok, step.cost));
                calls.push({ org, byok: step.byok, cost: step.cost, at: clock.time });
              } else if (step.kind === "advance") clock.time += step.ms;
              else if (step.kind === "flush") store.usage.flush();
              // After every step, without flushing: what the allowance would read now.
              for (const org of orgs)
                expect(store.usage.chargedSince(org, MONTH_START)).toBeCloseTo(expected(org), 9);
            }
            store.usage.flush();
            for (const org of orgs) expect(rawSum(store, org, MONTH_START)).toBeCloseTo(expected(org), 9);
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("counts from a start that is no hour boundary too", () => {
    const clock = { time: MONTH_START, now: () => clock.time };
    const store = openStore({ file: ":memory:", clock });
    opened.push(store);
    const org = store.organizations.create("a", "team").id;
    store.usage.record(event(org, false, 1));
    clock.time += 10 * 60_000;
    store.usage.record(event(org, false, 2));
    store.usage.flush();
    expect(store.usage.chargedSince(org, MONTH_START + 5 * 60_000)).toBe(2);
    expect(store.usage.chargedSince(org, MONTH_START)).toBe(3);
  });

  it("sees another process's calls within a second", () => {
    const clock = { time: MONTH_START + HOUR, now: () => clock.time };
    const directory = mkdtempSync(join(tmpdir(), "gw-charged-"));
    directories.push(directory);
    const file = join(directory, "groundwork.db");
    const server = openStore({ file, clock });
    const other = openStore({ file, clock });
    opened.push(server, other);
    const org = server.organizations.create("a", "team").id;
    server.usage.record(event(org, false, 1));
    expect(server.usage.chargedSince(org, MONTH_START)).toBe(1);
    other.usage.record(event(org, false, 4));
    other.usage.flush();
    server.usage.record(event(org, false, 2));
    server.usage.flush();
    // Its own calls at once; the other process's only once the cached total is read again.
    expect(server.usage.chargedSince(org, MONTH_START)).toBe(3);
    clock.time += 1_000;
    expect(server.usage.chargedSince(org, MONTH_START)).toBe(7);
  });
});
