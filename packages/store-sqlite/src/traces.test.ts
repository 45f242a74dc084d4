import BetterSqlite3 from "better-sqlite3";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";
import { migrations, runMigrations } from "./run-migrations.js";
import type { TraceSpanInput } from "./traces.js";

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function span(overrides: Partial<TraceSpanInput> & Pick<TraceSpanInput, "traceRecordId">): TraceSpanInput {
  return {
    organizationId: "org_a",
    traceId: "a".repeat(32),
    spanId: "1".repeat(16),
    parentSpanId: null,
    name: "invoke_agent helper",
    startTime: 1_000,
    endTime: 2_000,
    durationMs: 1_000,
    status: "ok",
    statusMessage: null,
    attributes: { "groundwork.trace.kind": "agent" },
    ...overrides,
  };
}

function storeWithOrganization(): { store: Store; organizationId: string } {
  const store = openStore({ file: ":memory:" });
  opened.push(store);
  return { store, organizationId: store.organizations.create("acme", "team").id };
}

describe("trace writes", () => {
  it("merges a trace's later batches into the row its first batch made (by the recorder's id)", () => {
    const { store, organizationId } = storeWithOrganization();
    const child = span({
      traceRecordId: "trc_one",
      organizationId,
      spanId: "2".repeat(16),
      parentSpanId: "1".repeat(16),
      name: "chat m",
      startTime: 1_100,
      endTime: 1_200,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.usage.input_tokens": 5,
        "gen_ai.request.model": "m",
      },
    });
    store.traces.write([child]);
    // Not listed until its root ended.
    expect(store.traces.list(organizationId, {}, 0, { page: 0, size: 10 }).total).toBe(0);
    store.traces.write([span({ traceRecordId: "trc_one", organizationId })]);
    const { items, total } = store.traces.list(organizationId, {}, 0, { page: 0, size: 10 });
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      id: "trc_one",
      kind: "agent",
      spanCount: 2,
      inputTokens: 5,
      model: "m",
    });
    expect(store.traces.spans("trc_one").map((s) => s.name)).toEqual(["invoke_agent helper", "chat m"]);
  });

  it("stores the same traces and spans however the spans are split into batches (many rows to a statement, HP56)", () => {
    const whole = storeWithOrganization();
    const split = openStore({ file: ":memory:" });
    opened.push(split);
    const organizationId = whole.organizationId;
    split.db
      .prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'acme', 'team', 0)")
      .run(organizationId);
    const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
    const traceArbitrary = fc.record({
      children: fc.array(fc.record({ tokens: fc.nat({ max: 50 }), offset: fc.nat({ max: 900 }) }), {
        maxLength: 90,
      }),
      rootFirst: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(traceArbitrary, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 20 }),
        (traces, cuts) => {
          const spans: TraceSpanInput[] = [];
          traces.forEach((t, n) => {
            const traceRecordId = `trc_${n}`;
            const traceId = hex(n + 1, 32);
            const root = span({ traceRecordId, organizationId, traceId, spanId: hex(1, 16) });
            const children = t.children.map((child, i) =>
              span({
                traceRecordId,
                organizationId,
                traceId,
                spanId: hex(i + 2, 16),
                parentSpanId: hex(1, 16),
                name: "chat m",
                startTime: 1_000 + child.offset,
                endTime: 1_050 + child.offset,
                attributes: { "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": child.tokens },
              }),
            );
            spans.push(...(t.rootFirst ? [root, ...children] : [...children, root]));
          });
          for (const store of [whole.store, split]) store.db.exec("DELETE FROM spans; DELETE FROM traces");
          whole.store.traces.write(spans);
          let at = 0;
          for (let i = 0; at < spans.length; i++) {
            const size = cuts[i % cuts.length] ?? 1;
            split.traces.write(spans.slice(at, at + size));
            at += size;
          }
          const rows = (store: Store) => [
            store.db.prepare("SELECT * FROM traces ORDER BY id").all(),
            store.db
              .prepare(
                `SELECT trace_id, otel_span_id, parent_otel_span_id, name, start_time, end_time, status, attributes
                 FROM spans ORDER BY trace_id, otel_span_id`,
              )
              .all(),
          ];
          const [traceRows, spanRows] = rows(whole.store);
          expect(spanRows).toHaveLength(spans.length);
          expect(traceRows).toHaveLength(traces.length);
          expect(rows(split)).toEqual([traceRows, spanRows]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps two recorded roots of one OTel trace apart (an application's trace around two requests)", () => {
    const { store, organizationId } = storeWithOrganization();
    store.traces.write([span({ traceRecordId: "trc_first", organizationId })]);
    store.traces.write([span({ traceRecordId: "trc_second", organizationId, spanId: "3".repeat(16) })]);
    const ids = store.traces.list(organizationId, {}, 0, { page: 0, size: 10 }).items.map((t) => t.id);
    expect(ids.sort()).toEqual(["trc_first", "trc_second"]);
  });
});

describe("migration 034 (traces_time ascending)", () => {
  it("lists newest first by reading the ascending index backwards, with no sort", () => {
    const { store, organizationId } = storeWithOrganization();
    const plan = store.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM traces WHERE organization_id = ? AND root_otel_span_id IS NOT NULL
           AND start_time >= ? ORDER BY start_time DESC, id DESC LIMIT 10`,
      )
      .all(organizationId, 0) as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail)).toEqual([
      "SEARCH traces USING INDEX traces_time (organization_id=? AND start_time>?)",
    ]);
    for (let i = 0; i < 5; i++)
      store.traces.write([span({ organizationId, traceRecordId: `trc_${i}`, startTime: 1_000 + i })]);
    const listed = store.traces.list(organizationId, {}, 0, { page: 0, size: 10 });
    expect(listed.items.map((trace) => trace.id)).toEqual(["trc_4", "trc_3", "trc_2", "trc_1", "trc_0"]);
  });
});

describe("migration 026 (traces without the index on the OTel trace id)", () => {
  it("keeps every trace and span written before it, and spans still go with their trace", () => {
    const db = new BetterSqlite3(":memory:");
    db.pragma("foreign_keys = ON");
    runMigrations(
      db,
      migrations.filter((migration) => migration.version <= 23),
    );
    db.prepare(
      "INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_a', 'a', 'team', 0)",
    ).run();
    db.prepare(
      `INSERT INTO traces (id, organization_id, otel_trace_id, root_otel_span_id, kind, name, start_time, end_time, span_count)
       VALUES ('trc_old', 'org_a', ?, ?, 'experiment', 'experiment_item x', 1, 2, 1)`,
    ).run("c".repeat(32), "d".repeat(16));
    db.prepare(
      `INSERT INTO spans (id, trace_id, otel_span_id, name, start_time, end_time, duration_ms, status, attributes)
       VALUES ('spn_old', 'trc_old', ?, 'experiment_item x', 1, 2, 1, 'ok', '{}')`,
    ).run("d".repeat(16));
    expect(runMigrations(db)).toContain(26);
    expect(db.prepare("SELECT id, kind FROM traces").all()).toEqual([{ id: "trc_old", kind: "experiment" }]);
    expect(db.prepare("SELECT id, trace_id FROM spans").all()).toEqual([
      { id: "spn_old", trace_id: "trc_old" },
    ]);
    // The unique index is gone: a second row with the same OTel id is accepted.
    db.prepare(
      `INSERT INTO traces (id, organization_id, otel_trace_id, start_time, end_time) VALUES ('trc_new', 'org_a', ?, 1, 2)`,
    ).run("c".repeat(32));
    // The foreign key follows the renamed table: deleting a trace deletes its spans.
    db.prepare("DELETE FROM traces WHERE id = 'trc_old'").run();
    expect(db.prepare("SELECT count(*) AS n FROM spans").get()).toEqual({ n: 0 });
    expect(db.pragma("foreign_key_check")).toEqual([]);
    db.close();
  });
});
