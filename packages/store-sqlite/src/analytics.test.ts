/** Migration 022 on a database with earlier rows: rollups and quality columns filled in, rows kept. */
import { describe, expect, it } from "vitest";
import { databaseBefore } from "../test/database-before.js";
import { runMigrations } from "./run-migrations.js";

const HOUR = 3_600_000;
const T0 = Date.parse("2025-03-01T00:00:00.000Z");

describe("migration 022 (analytics)", () => {
  it("builds the rollups from existing usage rows and marks resultless extractions as computed", () => {
    const db = databaseBefore(22);
    const usage = db.prepare(
      `INSERT INTO usage_records (id, organization_id, api_key_id, model, surface, byok, prompt_tokens, completion_tokens,
         cached_tokens, cost_eur, latency_ms, outcome, end_user, created_at)
       VALUES (?, 'org_1', NULL, ?, 'CHAT', 0, 10, 5, NULL, 0.5, ?, ?, NULL, ?)`,
    );
    usage.run("use_1", "m", 100, "ok", T0 + 1);
    usage.run("use_2", "m", 200, "error", T0 + 2);
    usage.run("use_3", "m", 300, "ok", T0 + HOUR + 3);
    const extraction = db.prepare(
      `INSERT INTO extractions (id, organization_id, schema_id, schema_version_id, status, strategy, model, result,
         created_at, updated_at) VALUES (?, 'org_1', 'sch', 'scv', ?, 'SINGLE_SHOT', 'm', ?, 0, 0)`,
    );
    extraction.run("ext_done", "COMPLETED", JSON.stringify({ resultMetadata: {} }));
    extraction.run("ext_failed", "FAILED", null);

    expect(runMigrations(db)).toContain(22);
    expect(
      db.prepare("SELECT hour, requests, errors, cost_eur AS cost FROM usage_hourly ORDER BY hour").all(),
    ).toEqual([
      { hour: T0, requests: 2, errors: 1, cost: 1 },
      { hour: T0 + HOUR, requests: 1, errors: 0, cost: 0.5 },
    ]);
    const bins = db.prepare("SELECT sum(requests) AS n FROM usage_latency_daily").get() as { n: number };
    expect(bins.n).toBe(3);
    // New rows go through the trigger into the same rollups.
    usage.run("use_4", "m", 400, "ok", T0 + 4);
    expect(db.prepare("SELECT requests FROM usage_hourly WHERE hour = ?").get(T0)).toEqual({ requests: 3 });
    expect(db.prepare("SELECT sum(requests) AS n FROM usage_latency_hourly WHERE hour = ?").get(T0)).toEqual({
      n: 3,
    });
    // Bins are ordered like the latencies.
    const binOf = db.prepare("SELECT latency_bin AS bin FROM usage_records WHERE id = ?");
    const ordered = ["use_1", "use_2", "use_3", "use_4"].map((id) => (binOf.get(id) as { bin: number }).bin);
    expect([...ordered].sort((a, b) => a - b)).toEqual(ordered);
    expect(db.prepare("SELECT id, quality_computed AS q FROM extractions ORDER BY id").all()).toEqual([
      { id: "ext_done", q: 0 },
      { id: "ext_failed", q: 1 },
    ]);
    db.close();
  });
});
