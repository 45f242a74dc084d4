/**
 * The traces family contract: batches folded into trace rows (against a model of the merge),
 * listing with filters, order and pages, sessions, spans, retention and the tracing settings
 * with their encrypted export headers — per organization, every call awaited (SQLite is the
 * reference).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TraceRecord, TraceSpanInput } from "../../../store-sqlite/src/traces.js";
import type { OpenArea } from "./usage-area-backend.js";
import { withArea } from "./usage-contract.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
const PAGE = { page: 0, size: 100 };

let serial = 0;
const traceId = () => `trc_${Date.now().toString(36)}_${(++serial).toString().padStart(6, "0")}`;

function span(
  organizationId: string,
  traceRecordId: string,
  changes: Partial<TraceSpanInput> = {},
): TraceSpanInput {
  return {
    organizationId,
    traceRecordId,
    traceId: "a".repeat(32),
    spanId: "1".repeat(16),
    parentSpanId: null,
    name: "invoke_agent helper",
    startTime: T0 + 1_000.5,
    endTime: T0 + 2_000.25,
    durationMs: 999.75,
    status: "ok",
    statusMessage: null,
    attributes: { "groundwork.trace.kind": "agent" },
    ...changes,
  };
}

const chat = (model: string, tokens: number, cost: number, extra: Record<string, unknown> = {}) => ({
  "gen_ai.operation.name": "chat",
  "gen_ai.request.model": model,
  "gen_ai.usage.input_tokens": tokens,
  "gen_ai.usage.output_tokens": tokens * 2,
  "groundwork.cost_eur": cost,
  ...extra,
});

/** The trace row a sequence of batches makes, by the rules of the stores' merge (a model of the upsert). */
function modelTrace(batches: readonly (readonly TraceSpanInput[])[]): Partial<TraceRecord> | null {
  let stored: Record<string, unknown> | null = null;
  for (const batch of batches) {
    const row: Record<string, unknown> = {
      root: null,
      startTime: batch[0]?.startTime,
      endTime: batch[0]?.endTime,
    };
    row.spanCount = 0;
    row.inputTokens = 0;
    row.outputTokens = 0;
    row.costEur = 0;
    for (const s of batch) {
      const a = s.attributes;
      const metered = a["gen_ai.operation.name"] === "chat" || a["gen_ai.operation.name"] === "embeddings";
      const isRoot = s.parentSpanId === null;
      (row.spanCount as number)++;
      if (metered) {
        row.inputTokens = (row.inputTokens as number) + ((a["gen_ai.usage.input_tokens"] as number) ?? 0);
        row.outputTokens = (row.outputTokens as number) + ((a["gen_ai.usage.output_tokens"] as number) ?? 0);
        row.costEur = (row.costEur as number) + ((a["groundwork.cost_eur"] as number) ?? 0);
      }
      const fill = (key: string, value: unknown) => {
        if (typeof value === "string" && value !== "" && (isRoot || row[key] == null)) row[key] = value;
      };
      fill("sessionId", a["gen_ai.conversation.id"]);
      if (isRoot || metered) fill("model", a["gen_ai.request.model"]);
      if (isRoot) {
        row.root = s.spanId;
        row.name = s.name;
        row.status = s.status;
        row.startTime = s.startTime;
        row.endTime = s.endTime;
        row.durationMs = s.durationMs;
      } else if (row.root === null) {
        row.startTime = Math.min(row.startTime as number, s.startTime);
        row.endTime = Math.max(row.endTime as number, s.endTime);
      }
    }
    if (stored === null) {
      stored = { ...row, status: row.status ?? "ok", durationMs: row.durationMs ?? 0 };
      continue;
    }
    const old: Record<string, unknown> = stored;
    const rooted = row.root !== null;
    const pick = (key: string) => (rooted ? (row[key] ?? old[key]) : (old[key] ?? row[key]));
    stored = {
      spanCount: (old.spanCount as number) + (row.spanCount as number),
      inputTokens: (old.inputTokens as number) + (row.inputTokens as number),
      outputTokens: (old.outputTokens as number) + (row.outputTokens as number),
      costEur: (old.costEur as number) + (row.costEur as number),
      sessionId: pick("sessionId"),
      model: pick("model"),
      name: rooted ? row.name : old.name,
      status: rooted ? row.status : old.status,
      durationMs: rooted ? row.durationMs : old.durationMs,
      startTime: rooted
        ? row.startTime
        : old.root === null
          ? Math.min(old.startTime as number, row.startTime as number)
          : old.startTime,
      endTime: rooted
        ? row.endTime
        : old.root === null
          ? Math.max(old.endTime as number, row.endTime as number)
          : old.endTime,
      root: row.root ?? old.root,
    };
  }
  if (stored === null || stored.root === null) return null;
  const { root: _root, ...record } = stored;
  return {
    ...record,
    sessionId: record.sessionId ?? null,
    model: record.model ?? null,
  } as Partial<TraceRecord>;
}

export function describeTracesContract(label: string, open: OpenArea): void {
  describe(`traces contract (${label})`, () => {
    it("merges a trace's later batches into its row: the root's fields win, only model calls count", async () => {
      await withArea(open, T0, async (area) => {
        const org = await area.organization();
        const id = traceId();
        const child = span(org, id, {
          spanId: "2".repeat(16),
          parentSpanId: "1".repeat(16),
          name: "chat m",
          startTime: T0 + 900,
          endTime: T0 + 3_000,
          attributes: chat("m", 5, 0.125, { "gen_ai.conversation.id": "conv_1", "gen_ai.agent.id": "agt_1" }),
        });
        await area.traces.write([child]);
        expect(await area.traces.exists(org, id)).toBe(true);
        expect((await area.traces.list(org, {}, 0, PAGE)).total).toBe(0); // not listed until its root ended
        expect(await area.traces.get(org, id, 0)).toBeNull();
        await area.traces.write([
          span(org, id, { attributes: { "groundwork.trace.kind": "agent", "gen_ai.agent.name": "helper" } }),
          span(org, id, {
            spanId: "3".repeat(16),
            parentSpanId: "1".repeat(16),
            name: "tool",
            attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.usage.input_tokens": 1000 },
          }),
        ]);
        const trace = await area.traces.get(org, id, 0);
        expect(trace).toEqual({
          id,
          organizationId: org,
          otelTraceId: "a".repeat(32),
          kind: "agent",
          name: "invoke_agent helper",
          status: "ok",
          sessionId: "conv_1",
          agentId: "agt_1",
          agentName: "helper",
          model: "m", // the root names none: the model call's stays
          responseId: null,
          requestId: null,
          startTime: T0 + 1_000.5,
          endTime: T0 + 2_000.25,
          durationMs: 999.75,
          inputTokens: 5,
          outputTokens: 10,
          costEur: 0.125,
          spanCount: 3,
        });
        const spans = await area.traces.spans(id);
        expect(spans.map((s) => s.name)).toEqual(["chat m", "invoke_agent helper", "tool"]);
        expect(spans[0]).toMatchObject({
          traceId: id,
          otelSpanId: "2".repeat(16),
          parentOtelSpanId: "1".repeat(16),
          attributes: child.attributes,
        });
        expect(spans[0]?.id).toMatch(/^spn_/);
        const other = await area.organization();
        expect(await area.traces.exists(other, id)).toBe(false);
        expect(await area.traces.get(other, id, 0)).toBeNull();
        expect(await area.traces.spans("trc_unknown")).toEqual([]);
      });
    });

    it("keeps span attributes exactly, whatever they hold", async () => {
      await withArea(open, T0, async (area) => {
        const org = await area.organization();
        const id = traceId();
        const attributes = {
          "gen_ai.input.messages": 'NUL \u0000, emoji 😀, quote " and \\',
          nested: { list: [1, 2.5, null, true], empty: {} },
          big: 2 ** 53 - 1,
        };
        await area.traces.write([span(org, id, { attributes, status: "error", statusMessage: "boom" })]);
        const [stored] = await area.traces.spans(id);
        expect(stored?.attributes).toEqual(attributes);
        expect(stored).toMatchObject({ status: "error", statusMessage: "boom" });
      });
    });

    it("folds random batches of spans the way the merge model says", async () => {
      const spanArb = fc.record({
        trace: fc.integer({ min: 0, max: 2 }),
        root: fc.boolean(),
        model: fc.option(fc.constantFrom("m1", "m2", ""), { nil: undefined }),
        session: fc.option(fc.constantFrom("s1", "s2"), { nil: undefined }),
        metered: fc.boolean(),
        tokens: fc.integer({ min: 0, max: 100 }),
        start: fc.integer({ min: 0, max: 5_000 }),
        length: fc.integer({ min: 0, max: 5_000 }),
        error: fc.boolean(),
        cut: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(spanArb, { minLength: 1, maxLength: 14 }), async (specs) => {
          await withArea(open, T0, async (area) => {
            const org = await area.organization();
            const ids = [traceId(), traceId(), traceId()];
            const batches: TraceSpanInput[][] = [[]];
            specs.forEach((spec, index) => {
              const attributes: Record<string, unknown> = {};
              if (spec.metered) {
                attributes["gen_ai.operation.name"] = "chat";
                attributes["gen_ai.usage.input_tokens"] = spec.tokens;
                attributes["gen_ai.usage.output_tokens"] = spec.tokens + 1;
                attributes["groundwork.cost_eur"] = spec.tokens / 8;
              }
              if (spec.model !== undefined) attributes["gen_ai.request.model"] = spec.model;
              if (spec.session !== undefined) attributes["gen_ai.conversation.id"] = spec.session;
              (batches[batches.length - 1] as TraceSpanInput[]).push(
                span(org, ids[spec.trace] as string, {
                  spanId: index.toString(16).padStart(16, "0"),
                  parentSpanId: spec.root ? null : "f".repeat(16),
                  name: `span ${index}`,
                  startTime: T0 + spec.start,
                  endTime: T0 + spec.start + spec.length,
                  durationMs: spec.length,
                  status: spec.error ? "error" : "ok",
                  attributes,
                }),
              );
              if (spec.cut) batches.push([]);
            });
            for (const batch of batches) await area.traces.write(batch);
            for (const id of ids) {
              const perTrace = batches
                .map((batch) => batch.filter((s) => s.traceRecordId === id))
                .filter((batch) => batch.length > 0);
              const expected = modelTrace(perTrace);
              const stored = await area.traces.get(org, id, 0);
              if (expected === null) expect(stored).toBeNull();
              else {
                const { costEur, ...rest } = expected;
                expect(stored).toMatchObject(rest);
                expect(stored?.costEur).toBeCloseTo(costEur as number, 9);
              }
              expect(await area.traces.spans(id)).toHaveLength(perTrace.flat().length);
            }
          });
        }),
        { numRuns: 20 },
      );
    });

    it("lists rooted traces newest first with filters, retention and pages", async () => {
      await withArea(open, T0, async (area) => {
        const org = await area.organization();
        const other = await area.organization();
        const made: Array<{
          id: string;
          start: number;
          kind: string;
          status: "ok" | "error";
          model: string;
        }> = [];
        for (let i = 0; i < 9; i++) {
          const id = traceId();
          const start = T0 + Math.floor(i / 2) * 1_000; // pairs share a start time: ties by id
          const entry = {
            id,
            start,
            kind: i % 3 === 0 ? "gateway" : "agent",
            status: (i % 4 === 0 ? "error" : "ok") as "ok" | "error",
            model: i % 2 === 0 ? "m-even" : "m-odd",
          };
          made.push(entry);
          await area.traces.write([
            span(org, id, {
              startTime: start,
              endTime: start + 10,
              status: entry.status,
              attributes: {
                "groundwork.trace.kind": entry.kind,
                "gen_ai.request.model": entry.model,
                "gen_ai.agent.id": i < 3 ? "agt_a" : "agt_b",
                "gen_ai.conversation.id": i < 5 ? "conv_a" : "conv_b",
              },
            }),
          ]);
        }
        await area.traces.write([span(other, traceId(), { startTime: T0 })]);
        const newestFirst = [...made].sort((a, b) => b.start - a.start || (a.id < b.id ? 1 : -1));
        const all = await area.traces.list(org, {}, 0, PAGE);
        expect(all.total).toBe(9);
        expect(all.items.map((t) => t.id)).toEqual(newestFirst.map((t) => t.id));
        const pages = [];
        for (let page = 0; page < 4; page++) {
          const listed = await area.traces.list(org, {}, 0, { page, size: 4 });
          expect(listed.total).toBe(9);
          pages.push(...listed.items.map((t) => t.id));
        }
        expect(pages).toEqual(newestFirst.map((t) => t.id));
        const ids = async (filter: Parameters<typeof area.traces.list>[1], notBefore = 0) =>
          (await area.traces.list(org, filter, notBefore, PAGE)).items.map((t) => t.id);
        const expectIds = (predicate: (t: (typeof made)[number], i: number) => boolean) =>
          newestFirst.filter((t) => predicate(t, made.indexOf(t))).map((t) => t.id);
        expect(await ids({ kind: "gateway" })).toEqual(expectIds((t) => t.kind === "gateway"));
        expect(await ids({ status: "error" })).toEqual(expectIds((t) => t.status === "error"));
        expect(await ids({ model: "m-odd" })).toEqual(expectIds((t) => t.model === "m-odd"));
        expect(await ids({ agentId: "agt_a" })).toEqual(expectIds((_, i) => i < 3));
        expect(await ids({ sessionId: "conv_b" })).toEqual(expectIds((_, i) => i >= 5));
        expect(await ids({ from: T0 + 1_000, to: T0 + 3_000 })).toEqual(
          expectIds((t) => t.start >= T0 + 1_000 && t.start < T0 + 3_000),
        );
        expect(await ids({ from: T0 }, T0 + 2_000)).toEqual(expectIds((t) => t.start >= T0 + 2_000));
        expect(await area.traces.get(org, made[0]?.id as string, T0 + 1)).toBeNull(); // out of retention
      });
    });

    it("groups sessions by their last trace, with filters, pages and one session's traces", async () => {
      await withArea(open, T0, async (area) => {
        const org = await area.organization();
        const write = async (
          session: string | null,
          start: number,
          agent: string,
          status: "ok" | "error",
          tokens = 1,
        ) => {
          const attributes: Record<string, unknown> = {
            ...chat("m", tokens, tokens / 4),
            "gen_ai.agent.id": agent,
          };
          if (session !== null) attributes["gen_ai.conversation.id"] = session;
          const id = traceId();
          await area.traces.write([
            span(org, id, { startTime: start, endTime: start + 1, status, attributes }),
          ]);
          return id;
        };
        const a1 = await write("conv_a", T0 + 100, "agt_1", "ok", 2);
        const a2 = await write("conv_a", T0 + 300, "agt_1", "error", 3);
        await write("conv_b", T0 + 200, "agt_2", "ok");
        await write("conv_c", T0 + 300, "agt_2", "ok");
        await write(null, T0 + 400, "agt_1", "ok");
        const listed = await area.traces.listSessions(org, {}, 0, PAGE);
        expect(listed.total).toBe(3);
        expect(listed.items.map((s) => s.sessionId)).toEqual(["conv_c", "conv_a", "conv_b"]);
        expect(listed.items[1]).toEqual({
          sessionId: "conv_a",
          agentId: "agt_1",
          agentName: null,
          traceCount: 2,
          firstTraceAt: T0 + 100,
          lastTraceAt: T0 + 300,
          inputTokens: 5,
          outputTokens: 10,
          costEur: 1.25,
          errorCount: 1,
        });
        const second = await area.traces.listSessions(org, {}, 0, { page: 1, size: 2 });
        expect([second.total, second.items.map((s) => s.sessionId)]).toEqual([3, ["conv_b"]]);
        expect(
          (await area.traces.listSessions(org, { agentId: "agt_2" }, 0, PAGE)).items.map((s) => s.sessionId),
        ).toEqual(["conv_c", "conv_b"]);
        const ranged = await area.traces.listSessions(org, { from: T0 + 150, to: T0 + 300 }, 0, PAGE);
        expect([ranged.total, ranged.items.map((s) => s.sessionId)]).toEqual([1, ["conv_b"]]);
        const one = await area.traces.session(org, "conv_a", 0, 1);
        expect(one?.session.traceCount).toBe(2);
        expect(one?.traces.map((t) => t.id)).toEqual([a1]);
        expect((await area.traces.session(org, "conv_a", T0 + 200, 10))?.traces.map((t) => t.id)).toEqual([
          a2,
        ]);
        expect(await area.traces.session(org, "conv_x", 0, 10)).toBeNull();
        expect(await area.traces.session(await area.organization(), "conv_a", 0, 10)).toBeNull();
      });
    });

    it("deletes traces (and their spans) past each organization's retention", async () => {
      await withArea(open, T0, async (area) => {
        const [short, standard] = [await area.organization(), await area.organization()];
        await area.traces.updateSettings(short, { retentionDays: 1 });
        const now = T0 + 40 * DAY;
        const write = async (org: string, age: number) => {
          const id = traceId();
          await area.traces.write([span(org, id, { startTime: now - age, endTime: now - age + 1 })]);
          return id;
        };
        const shortOld = await write(short, 2 * DAY);
        const shortNew = await write(short, DAY / 2);
        const standardOld = await write(standard, 31 * DAY);
        const standardNew = await write(standard, 29 * DAY);
        const deleted = await area.traces.deleteExpired(now);
        expect(deleted).toBeGreaterThanOrEqual(2); // other tests' traces on a shared database may go too
        for (const [org, id, kept] of [
          [short, shortOld, false],
          [short, shortNew, true],
          [standard, standardOld, false],
          [standard, standardNew, true],
        ] as const) {
          expect(await area.traces.exists(org, id)).toBe(kept);
          expect((await area.traces.spans(id)).length).toBe(kept ? 1 : 0);
        }
        expect(await area.traces.deleteExpired(now)).toBe(0);
      });
    });

    it("keeps settings per organization, export headers sealed and only their names shown", async () => {
      await withArea(open, T0, async (area, clock) => {
        const [org, other] = [await area.organization(), await area.organization()];
        expect(area.traces.canSealHeaders).toBe(true);
        expect(await area.traces.settings(org)).toEqual({
          organizationId: org,
          enabled: true,
          samplingRate: 1,
          captureContent: false,
          retentionDays: 30,
          export: null,
          exportFailures: 0,
          lastExportError: null,
          updatedAt: null,
        });
        expect(await area.traces.exportTarget(org)).toBeNull();
        clock.time += 7;
        const updated = await area.traces.updateSettings(org, {
          samplingRate: 0.25,
          captureContent: true,
          export: {
            endpoint: "https://otel.example/v1/traces",
            headers: { authorization: "Bearer s3cret", "x-b": "2" },
          },
        });
        expect(updated).toEqual({
          organizationId: org,
          enabled: true,
          samplingRate: 0.25,
          captureContent: true,
          retentionDays: 30,
          export: { endpoint: "https://otel.example/v1/traces", headerNames: ["authorization", "x-b"] },
          exportFailures: 0,
          lastExportError: null,
          updatedAt: T0 + 7,
        });
        expect(JSON.stringify(updated)).not.toContain("s3cret");
        expect(await area.traces.exportTarget(org)).toEqual({
          endpoint: "https://otel.example/v1/traces",
          headers: { authorization: "Bearer s3cret", "x-b": "2" },
        });
        await area.traces.recordExportFailure(org, "timeout");
        await area.traces.recordExportFailure(org, "503");
        // A change that leaves the export keeps its sealed headers and the failure count.
        const disabled = await area.traces.updateSettings(org, { enabled: false, retentionDays: 7 });
        expect(disabled).toMatchObject({
          enabled: false,
          retentionDays: 7,
          exportFailures: 2,
          lastExportError: "503",
        });
        expect((await area.traces.exportTarget(org))?.headers.authorization).toBe("Bearer s3cret");
        const noHeaders = await area.traces.updateSettings(org, {
          export: { endpoint: "https://b.example", headers: {} },
        });
        expect(noHeaders.export).toEqual({ endpoint: "https://b.example", headerNames: [] });
        expect(await area.traces.exportTarget(org)).toEqual({ endpoint: "https://b.example", headers: {} });
        expect((await area.traces.updateSettings(org, { export: null })).export).toBeNull();
        expect(await area.traces.exportTarget(org)).toBeNull();
        expect((await area.traces.settings(other)).updatedAt).toBeNull();
        await area.traces.recordExportFailure(other, "nothing to count"); // no row: nothing happens
        expect((await area.traces.settings(other)).exportFailures).toBe(0);
      });
    });
  });
}
