/** Scores through the library: subjects per type, value checks, sources, filters, evaluator scores. */
import type { Principal } from "@groundwork/core";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import type { ScoreSubjectType } from "./score-subjects.js";

let store: PlatformStore;
let groundwork: Groundwork;
let ada: Principal;
let stranger: Principal;
/** One existing subject per type that the store holds, in ada's organization. */
let subjects: Record<"response" | "extraction" | "conversation", string>;
const page = { page: 0, size: 100 };
/** The store's clock: the real time unless a test sets it. */
let clockNow: number | null = null;

async function addSubjects(organizationId: string) {
  const responseId = `resp_${organizationId}`;
  await store.storedResponses.save({
    id: responseId,
    organizationId,
    createdByKeyId: "",
    kind: "model",
    conversationId: null,
    input: [],
    response: { id: responseId },
    retainForMs: null,
  });
  const extraction = await store.extractions.create({
    organizationId,
    schemaId: "sch_1",
    schemaVersionId: "scv_1",
    status: "COMPLETED",
    strategy: "SINGLE_SHOT",
    model: "m",
    inputText: "x",
    imageCount: 0,
    inputTokens: 1,
  });
  const conversation = await store.agents.createConversation(organizationId, null, "auto");
  return { response: responseId, extraction: extraction.id, conversation: conversation.id };
}

beforeEach(async () => {
  clockNow = null;
  store = await openTestStore({ clock: { now: () => clockNow ?? Date.now() } });
  groundwork = createGroundwork({ store });
  const base = await groundwork.principal("acme", "member");
  ada = {
    ...base,
    apiKeyId: (await store.apiKeys.create({ organizationId: base.organizationId, role: "member" })).record.id,
  };
  stranger = await groundwork.principal("other", "member");
  subjects = await addSubjects(ada.organizationId);
});
afterEach(async () => await store.close());

async function failure(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code: string; param: string | null };
    return { status, code, param };
  }
  throw new Error("expected a failure");
}

const scores = () => groundwork.scores;
const human = (overrides: Record<string, unknown> = {}) => ({
  subjectType: "response",
  subjectId: subjects.response,
  name: "helpfulness",
  dataType: "NUMERIC",
  value: 0.8,
  ...overrides,
});

describe("ScoreService.record", () => {
  it("records a HUMAN score by default, with the caller's key", async () => {
    const score = await scores().record(ada, human({ comment: "clear" }));
    expect(score).toEqual({
      id: expect.stringMatching(/^scr_/),
      organizationId: ada.organizationId,
      subjectType: "response",
      subjectId: subjects.response,
      name: "helpfulness",
      dataType: "NUMERIC",
      value: 0.8,
      comment: "clear",
      source: "HUMAN",
      queueItemId: null,
      createdByKeyId: ada.apiKeyId,
      createdAt: expect.any(Number),
    });
    expect((await scores().record(ada, human({ source: "API" }))).source).toBe("API");
    // A library principal has no key.
    expect((await scores().record(await groundwork.principal("acme"), human())).createdByKeyId).toBeNull();
  });

  it("checks the subject per type in the caller's organization", async () => {
    for (const type of ["response", "extraction", "conversation"] as const) {
      expect(
        (await scores().record(ada, human({ subjectType: type, subjectId: subjects[type] }))).subjectType,
      ).toBe(type);
      expect(
        await failure(
          async () => await scores().record(ada, human({ subjectType: type, subjectId: "x_missing" })),
        ),
      ).toEqual({
        status: 404,
        code: "not_found",
        param: "subjectId",
      });
      // Another organization's subject is not found either.
      expect(
        await failure(
          async () =>
            await scores().record(stranger, human({ subjectType: type, subjectId: subjects[type] })),
        ),
      ).toMatchObject({
        status: 404,
      });
    }
    // A subject of the wrong type is not found.
    expect(
      await failure(
        async () =>
          await scores().record(ada, human({ subjectType: "extraction", subjectId: subjects.response })),
      ),
    ).toMatchObject({ status: 404 });
    // Types whose groups this build does not compose have no subjects.
    for (const type of ["dataset_item", "trace", "run_result"] as const) {
      expect(
        await failure(
          async () => await scores().record(ada, human({ subjectType: type, subjectId: "dsi_1" })),
        ),
      ).toMatchObject({
        status: 404,
        param: "subjectId",
      });
    }
  });

  it("scores dataset items of the organization only", async () => {
    const dataset = await groundwork.datasets.create(ada, { name: "cases" });
    const item = await groundwork.datasets.addItem(ada, dataset.id, { input: "q" });
    const subject = { subjectType: "dataset_item" as const, subjectId: item.id };
    expect((await groundwork.scores.record(ada, human(subject))).subjectId).toBe(item.id);
    expect(await failure(async () => await groundwork.scores.record(stranger, human(subject)))).toMatchObject(
      {
        status: 404,
      },
    );
  });

  it("scores traces of the organization only (the trace store)", async () => {
    await store.traces.write([
      {
        organizationId: ada.organizationId,
        traceRecordId: "trc_scored",
        traceId: "a".repeat(32),
        spanId: "b".repeat(16),
        parentSpanId: null,
        name: "chat m",
        startTime: Date.now(),
        endTime: Date.now() + 1,
        durationMs: 1,
        status: "ok",
        statusMessage: null,
        attributes: { "groundwork.trace.kind": "gateway" },
      },
    ]);
    const traceId =
      (await store.traces.list(ada.organizationId, {}, 0, { page: 0, size: 1 })).items[0]?.id ?? "";
    const subject = { subjectType: "trace" as const, subjectId: traceId };
    expect((await groundwork.scores.record(ada, human(subject))).subjectId).toMatch(/^trc_/);
    expect(await failure(async () => await groundwork.scores.record(stranger, human(subject)))).toMatchObject(
      {
        status: 404,
      },
    );
    expect(
      await failure(
        async () => await groundwork.scores.record(ada, human({ ...subject, subjectId: "trc_missing" })),
      ),
    ).toMatchObject({ status: 404 });
  });

  it("asks the injected lookup for run results", async () => {
    const seen: string[] = [];
    const lookup = (type: string) => (org: string, id: string) => {
      seen.push(`${type}:${id}`);
      return org === ada.organizationId && id.endsWith("_ok");
    };
    const wired = createGroundwork({
      store,
      scoreSubjects: { runResults: lookup("xres") },
    });
    const types: Array<[ScoreSubjectType, string]> = [["run_result", "xres"]];
    for (const [type, prefix] of types) {
      expect(
        (await wired.scores.record(ada, human({ subjectType: type, subjectId: `${prefix}_ok` }))).subjectType,
      ).toBe(type);
      expect(
        await failure(
          async () => await wired.scores.record(ada, human({ subjectType: type, subjectId: `${prefix}_no` })),
        ),
      ).toMatchObject({ status: 404 });
      expect(
        await failure(
          async () =>
            await wired.scores.record(stranger, human({ subjectType: type, subjectId: `${prefix}_ok` })),
        ),
      ).toMatchObject({ status: 404 });
    }
    expect(seen).toContain("xres:xres_ok");
  });

  it("checks the value against the data type (400 param value)", async () => {
    const bad: Array<[string, unknown]> = [
      ["NUMERIC", "0.5"],
      ["NUMERIC", true],
      ["NUMERIC", Number.POSITIVE_INFINITY],
      ["NUMERIC", Number.NaN],
      ["NUMERIC", null],
      ["CATEGORICAL", 1],
      ["CATEGORICAL", ""],
      ["CATEGORICAL", "x".repeat(101)],
      ["BOOLEAN", "true"],
      ["BOOLEAN", 1],
    ];
    for (const [dataType, value] of bad) {
      expect(
        await failure(async () => await scores().record(ada, human({ dataType, value }))),
        `${dataType} ${String(value)}`,
      ).toEqual({
        status: 400,
        code: "invalid_request",
        param: "value",
      });
    }
    expect(
      await failure(async () => await scores().record(ada, { ...human(), value: undefined })),
    ).toMatchObject({
      param: "value",
    });
    expect(
      (await scores().record(ada, human({ dataType: "CATEGORICAL", value: "x".repeat(100) }))).value,
    ).toHaveLength(100);
    expect((await scores().record(ada, human({ dataType: "BOOLEAN", value: false }))).value).toBe(false);
    expect(Object.is((await scores().record(ada, human({ value: -0 }))).value, 0)).toBe(true);
  });

  it("validates name, comment, source and types, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "" }, "name"],
      [{ name: "a".repeat(101) }, "name"],
      [{ name: "has space" }, "name"],
      [{ name: "ümlaut" }, "name"],
      [{ comment: "c".repeat(2001) }, "comment"],
      [{ comment: 3 }, "comment"],
      [{ source: "EVAL" }, "source"],
      [{ source: "human" }, "source"],
      [{ subjectType: "document" }, "subjectType"],
      [{ subjectId: "" }, "subjectId"],
      [{ dataType: "number" }, "dataType"],
    ];
    for (const [overrides, param] of cases) {
      expect(
        await failure(async () => await scores().record(ada, human(overrides))),
        JSON.stringify(overrides),
      ).toMatchObject({
        status: 400,
        param,
      });
    }
    expect((await scores().record(ada, human({ name: "a".repeat(100) }))).name).toHaveLength(100);
    expect((await scores().record(ada, human({ name: "q.a:v1_x-y", comment: "c".repeat(2000) }))).name).toBe(
      "q.a:v1_x-y",
    );
    expect((await scores().record(ada, human({ comment: null }))).comment).toBeNull();
    expect(await failure(async () => await scores().record(ada, null))).toMatchObject({ status: 400 });
  });

  it("property: an accepted NUMERIC value is finite, and every recorded score reads back equal", async () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.constantFrom(null, Number.POSITIVE_INFINITY, Number.NaN, -0),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("NUMERIC", "CATEGORICAL", "BOOLEAN"),
        value,
        fc.option(fc.string({ maxLength: 30 })),
        fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/),
        async (dataType, v, comment, name) => {
          let score: Awaited<ReturnType<Groundwork["scores"]["record"]>>;
          try {
            score = await scores().record(ada, human({ dataType, value: v, comment, name }));
          } catch (error) {
            expect((error as { status: number; param: string }).param).toBe("value");
            return;
          }
          if (dataType === "NUMERIC") expect(Number.isFinite(score.value)).toBe(true);
          expect(score.value).toEqual(v === 0 ? 0 : v);
          const listed = (await scores().list(ada, { name }, { page: 0, size: 1 })).items[0];
          expect(listed).toEqual(score);
          expect(await scores().get(ada, score.id)).toEqual(score);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("ScoreService.list", () => {
  it("filters by every field and by time, newest first, within the organization", async () => {
    const at = async (t: number, overrides: Record<string, unknown>) => {
      clockNow = t;
      return await scores().record(ada, human(overrides));
    };
    const a = await at(Date.parse("2025-01-01T00:00:00.000Z"), {});
    const b = await at(Date.parse("2025-01-02T00:00:00.000Z"), {
      name: "tone",
      dataType: "CATEGORICAL",
      value: "warm",
    });
    const c = await at(Date.parse("2025-01-03T00:00:00.000Z"), {
      subjectType: "extraction",
      subjectId: subjects.extraction,
      source: "API",
      dataType: "BOOLEAN",
      value: true,
    });
    await scores().record(stranger, {
      ...human(),
      subjectId: (await addSubjects(stranger.organizationId)).response,
    });
    const ids = async (query: Record<string, unknown>) =>
      (await scores().list(ada, query, page)).items.map((s) => s.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ subjectType: "response" })).toEqual([b.id, a.id]);
    expect(await ids({ subjectId: subjects.extraction })).toEqual([c.id]);
    expect(await ids({ name: "tone" })).toEqual([b.id]);
    expect(await ids({ source: "API" })).toEqual([c.id]);
    expect(await ids({ source: "EVAL" })).toEqual([]);
    expect(await ids({ dataType: "CATEGORICAL" })).toEqual([b.id]);
    expect(await ids({ from: "2025-01-02T00:00:00.000Z" })).toEqual([c.id, b.id]);
    expect(await ids({ from: "2025-01-02T02:00:00+02:00" })).toEqual([c.id, b.id]);
    expect(await ids({ to: "2025-01-02T00:00:00Z" })).toEqual([a.id]);
    expect(await ids({ from: "2025-01-01T12:00Z", to: "2025-01-02T12:00:00.000Z" })).toEqual([b.id]);
    expect(await scores().list(ada, {}, { page: 1, size: 2 })).toEqual({ items: [a], total: 3 });
  });

  it("refuses bad filters naming the parameter", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from: "yesterday" }, "from"],
      [{ from: "2025-01-01" }, "from"],
      [{ to: "2025-01-01T00:00:00" }, "to"],
      [{ to: "2025-02-30T00:00:00Z" }, "to"],
      [{ from: "2025-01-02T00:00:00Z", to: "2025-01-01T00:00:00Z" }, "to"],
      [{ subjectType: "doc" }, "subjectType"],
      [{ source: "eval" }, "source"],
      [{ dataType: "TEXT" }, "dataType"],
      [{ name: "" }, "name"],
    ];
    for (const [query, param] of cases) {
      expect(
        await failure(async () => await scores().list(ada, query, page)),
        JSON.stringify(query),
      ).toMatchObject({
        status: 400,
        param,
      });
    }
  });
});

describe("ScoreService.recordEvaluations", () => {
  it("records EVAL scores without a key, all in one go", async () => {
    const made = await scores().recordEvaluations(ada.organizationId, [
      { subjectType: "response", subjectId: subjects.response, name: "exact_match", value: 1 },
      {
        subjectType: "extraction",
        subjectId: subjects.extraction,
        name: "judge",
        value: 0.25,
        comment: "meh",
      },
    ]);
    expect(made).toHaveLength(2);
    for (const score of made) {
      expect(score).toMatchObject({
        source: "EVAL",
        dataType: "NUMERIC",
        createdByKeyId: null,
        queueItemId: null,
      });
    }
    expect((await scores().list(ada, { source: "EVAL" }, page)).total).toBe(2);
  });

  it("records none when one is invalid or its subject is missing", async () => {
    const good = { subjectType: "response" as const, subjectId: subjects.response, name: "ok", value: 1 };
    expect(
      await failure(
        async () =>
          await scores().recordEvaluations(ada.organizationId, [
            good,
            { ...good, subjectId: "resp_missing" },
          ]),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      await failure(
        async () => await scores().recordEvaluations(ada.organizationId, [good, { ...good, value: "high" }]),
      ),
    ).toEqual({ status: 400, code: "invalid_request", param: "[1].value" });
    expect((await scores().list(ada, {}, page)).total).toBe(0);
    expect(await scores().recordEvaluations(ada.organizationId, [])).toEqual([]);
  });
});
