/**
 * The latency index behind the usage rows (migration 33, HP65): whatever the batches, flushes,
 * deletions and writers, a latency read finds every usage row's entry exactly once, and the
 * watermark never passes a row it did not index.
 */
import type Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { scratchFiles } from "../test/scratch-files.js";
import { usageInput } from "../test/usage-input.js";
import { openStore, type Store } from "./open-store.js";
import { runMigrations } from "./run-migrations.js";
import { LATENCY_INDEX_AT } from "./usage-latencies.js";

const T0 = Date.parse("2026-03-01T00:00:00.000Z");
const RANGE = { from: T0 - 86_400_000, to: T0 + 86_400_000 };

const scratch = scratchFiles("gw-usage-lat-");

function record(store: Store, organizationId: string, latencyMs: number): void {
  store.usage.record(usageInput(organizationId, { latencyMs }));
}

/** What the index should hold: one entry per usage row, in index order. */
const EXPECTED = `SELECT organization_id, latency_bin, created_at, latency_ms, seq FROM usage_records
  ORDER BY 1, 2, 3, 4, 5`;
const HELD = "SELECT * FROM usage_latencies ORDER BY 1, 2, 3, 4, 5";
const watermark = (db: Database.Database) =>
  db.prepare("SELECT upto FROM usage_latency_watermark").pluck().get() as number;
const maxSeq = (db: Database.Database) =>
  db.prepare("SELECT coalesce(max(seq), 0) FROM usage_records").pluck().get() as number;

/** A latency read (through the analytics store), which indexes every pending row first. */
function readLatency(store: Store, organizationId: string): void {
  store.analytics.latencyInBin(organizationId, RANGE, {}, 0, 0);
}

describe("usage latencies behind the rows", () => {
  it("migration 33 keeps the usage rows and their rowids, indexes them all and keeps the rollups going", () => {
    const db = databaseBefore(33);
    const usage = db.prepare(
      `INSERT INTO usage_records (id, organization_id, api_key_id, model, surface, byok, prompt_tokens, completion_tokens,
         cached_tokens, cost_eur, latency_ms, outcome, end_user, created_at)
       VALUES (?, 'org_1', NULL, 'm', 'CHAT', 0, 10, 5, NULL, 0.5, ?, 'ok', NULL, ?)`,
    );
    usage.run("use_1", 100, T0 + 1);
    usage.run("use_2", 2, T0 + 2);
    usage.run("use_3", 300, T0 + 3);
    db.prepare("DELETE FROM usage_records WHERE id = 'use_2'").run(); // a gap in the rowids
    const before = db.prepare("SELECT rowid, * FROM usage_records ORDER BY rowid").all();

    expect(runMigrations(db)).toContain(33);
    const after = db.prepare("SELECT seq AS rowid, * FROM usage_records ORDER BY seq").all();
    expect(after.map((row) => ({ ...(row as object), seq: undefined }))).toEqual(
      before.map((row) => ({ ...(row as object), seq: undefined })),
    );
    expect(db.prepare(HELD).all()).toEqual(db.prepare(EXPECTED).all());
    expect(watermark(db)).toBe(3);
    // The rollup trigger was made again on the new table; the next row takes a seq above every old one.
    usage.run("use_4", 40, T0 + 4);
    expect(db.prepare("SELECT requests FROM usage_hourly").pluck().get()).toBe(4); // rollups never lose a row
    expect(db.prepare("SELECT seq FROM usage_records WHERE id = 'use_4'").pluck().get()).toBe(4);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'usage_records_latency'").get()).toBe(
      undefined,
    );
    db.close();
  });

  it("are indexed by the batch that reaches the threshold, and by a latency read before it", () => {
    const store = openStore({ file: ":memory:", clock: { now: () => T0 } });
    try {
      const org = store.organizations.create("a", "team").id;
      for (let i = 0; i < LATENCY_INDEX_AT - 1; i++) record(store, org, i % 500);
      store.usage.flush();
      expect(watermark(store.db)).toBe(0); // 4,095 rows written: not yet
      expect(store.db.prepare(HELD).all()).toEqual([]);
      record(store, org, 1);
      store.usage.flush();
      expect(watermark(store.db)).toBe(LATENCY_INDEX_AT);
      expect(store.db.prepare(HELD).all()).toEqual(store.db.prepare(EXPECTED).all());

      for (let i = 0; i < 10; i++) record(store, org, i);
      store.usage.flush();
      expect(watermark(store.db)).toBe(LATENCY_INDEX_AT);
      readLatency(store, org);
      expect(watermark(store.db)).toBe(LATENCY_INDEX_AT + 10);
      expect(store.db.prepare(HELD).all()).toEqual(store.db.prepare(EXPECTED).all());
    } finally {
      store.close();
    }
  });

  it("hold every row exactly once through any mix of calls, flushes, reads and organization deletions", () => {
    const store = openStore({ file: ":memory:", clock: { now: () => T0 } });
    try {
      const step = fc.oneof(
        {
          weight: 8,
          arbitrary: fc.record({
            kind: fc.constant("call" as const),
            org: fc.nat({ max: 2 }),
            latencyMs: fc.double({ min: 0, max: 60_000, noNaN: true }),
          }),
        },
        { weight: 2, arbitrary: fc.constant({ kind: "flush" as const }) },
        { weight: 2, arbitrary: fc.constant({ kind: "read" as const }) },
        {
          weight: 1,
          arbitrary: fc.record({ kind: fc.constant("delete" as const), org: fc.nat({ max: 2 }) }),
        },
      );
      fc.assert(
        fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
          store.usage.flush();
          store.db.exec("DELETE FROM organizations");
          const orgs = ["a", "b", "c"].map((name) => store.organizations.create(name, "team").id);
          for (const next of steps) {
            if (next.kind === "call") record(store, orgs[next.org] as string, next.latencyMs);
            else if (next.kind === "flush") store.usage.flush();
            else if (next.kind === "read") readLatency(store, orgs[0] as string);
            else {
              // An organization goes with its rows (queued ones are written first, as a delete would find them).
              store.usage.flush();
              store.db.prepare("DELETE FROM organizations WHERE id = ?").run(orgs[next.org]);
              orgs[next.org] = store.organizations.create(`again-${next.org}`, "team").id;
            }
          }
          readLatency(store, orgs[0] as string);
          expect(store.db.prepare(HELD).all()).toEqual(store.db.prepare(EXPECTED).all());
          // Seqs never come back (AUTOINCREMENT), so a watermark above the last row after a deletion is right.
          expect(watermark(store.db)).toBeGreaterThanOrEqual(maxSeq(store.db));
        }),
        { numRuns: 60 },
      );
    } finally {
      store.close();
    }
  });

  it("written by another connection to the same file are indexed by this one's latency read", () => {
    const file = scratch.file();
    const writer = openStore({ file, clock: { now: () => T0 } });
    const reader = openStore({ file, clock: { now: () => T0 } });
    try {
      const org = writer.organizations.create("a", "team").id;
      for (let i = 0; i < 25; i++) record(writer, org, i * 3);
      writer.usage.flush();
      const analytics = reader.analytics;
      // Nearest rank over 25 latencies 0, 3, …, 72 in one bin or several: the median is 36.
      let median: number | null = null;
      const bins = analytics.latencyBins(org, RANGE, {}, { by: "all" });
      let rank = 13;
      for (const bin of bins) {
        if (rank <= bin.count) {
          median = analytics.latencyInBin(org, RANGE, {}, bin.bin, rank - 1);
          break;
        }
        rank -= bin.count;
      }
      expect(median).toBe(36);
      expect(reader.db.prepare(HELD).all()).toHaveLength(25);
    } finally {
      writer.close();
      reader.close();
    }
  });
});
