import { beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";

let groundwork: Groundwork;

beforeEach(async () => {
  groundwork = createGroundwork({ store: await openTestStore() });
});

const failure = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error as { status: number; param: string | null; message: string };
  }
  throw new Error("expected a failure");
};

describe("evaluations", () => {
  it("scores an app's extraction outputs against a dataset's expected outputs and records them", async () => {
    const org = await groundwork.principal("acme");
    const dataset = await groundwork.datasets.create(org, { name: "invoices" });
    const { items } = await groundwork.datasets.addItems(org, dataset.id, {
      items: [
        { input: "INV-1 total 10", expectedOutput: { number: "INV-1", total: 10 } },
        { input: "INV-2 total 20", expectedOutput: { number: "INV-2", total: 20 } },
        { input: "no expectation" },
      ],
    });
    const [a, b, c] = items.map((item) => item.id) as [string, string, string];
    const report = await groundwork.evaluations.evaluate(org, {
      evaluator: { type: "field_accuracy" },
      datasetId: dataset.id,
      outputs: [
        { itemId: a, output: { number: "INV-1", total: 10 } },
        { itemId: b, output: '{"number":"INV-2","total":21}' },
        { itemId: c, output: "{}" },
      ],
    });
    expect(report.summary).toEqual({
      cases: 3,
      scored: 2,
      skipped: 1,
      failed: 0,
      meanScore: 0.75,
      passRate: 1,
    });
    expect(report.results.map((r) => [r.itemId, r.score, r.skipped])).toEqual([
      [a, 1, false],
      [b, 0.5, false],
      [c, null, true],
    ]);
    const recorded = await groundwork.scores.list(org, { source: "EVAL" }, { page: 0, size: 10 });
    expect(recorded.total).toBe(2);
    expect(recorded.items.map((s) => [s.subjectType, s.subjectId, s.name, s.value]).sort()).toEqual(
      [
        ["dataset_item", a, "field_accuracy", 1],
        ["dataset_item", b, "field_accuracy", 0.5],
      ].sort(),
    );
    expect(report.results[0]?.scoreId).toMatch(/^scr_/);
  });

  it("reads a frozen version's items, and records nothing when asked not to", async () => {
    const org = await groundwork.principal("acme");
    const dataset = await groundwork.datasets.create(org, { name: "qa" });
    const item = await groundwork.datasets.addItem(org, dataset.id, { input: "q", expectedOutput: "Paris" });
    await groundwork.datasets.createVersion(org, dataset.id, {});
    await groundwork.datasets.updateItem(org, dataset.id, item.id, { expectedOutput: "Lyon" });
    const outputs = [{ itemId: item.id, output: "paris" }];
    const evaluator = { type: "exact_match", params: { caseSensitive: false } };
    const frozen = await groundwork.evaluations.evaluate(org, {
      evaluator,
      datasetId: dataset.id,
      version: 1,
      outputs,
      record: false,
    });
    expect(frozen.results[0]?.score).toBe(1);
    expect(frozen.datasetVersionId).toMatch(/^dsv_/);
    const current = await groundwork.evaluations.evaluate(org, {
      evaluator,
      datasetId: dataset.id,
      outputs,
      record: false,
    });
    expect(current.results[0]?.score).toBe(0);
    expect((await groundwork.scores.list(org, {}, { page: 0, size: 10 })).total).toBe(0);
  });

  it("scores inline cases without recording", async () => {
    const org = await groundwork.principal("acme");
    const report = await groundwork.evaluations.evaluate(org, {
      evaluator: { type: "contains", params: { value: "refund" } },
      cases: [{ output: "Your refund is on its way" }, { output: "Hello" }],
    });
    expect(report.results.map((r) => r.score)).toEqual([1, 0]);
    expect(report.datasetId).toBeNull();
  });

  it("refuses bad bodies, unknown items and other organizations' datasets before running anything", async () => {
    const org = await groundwork.principal("acme");
    const other = await groundwork.principal("globex");
    const dataset = await groundwork.datasets.create(org, { name: "d" });
    const item = await groundwork.datasets.addItem(org, dataset.id, { input: 1, expectedOutput: 1 });
    const evaluator = { type: "exact_match" };
    expect(
      await failure(async () => await groundwork.evaluations.evaluate(org, { evaluator })),
    ).toMatchObject({
      status: 400,
      param: "cases",
    });
    expect(
      await failure(
        async () =>
          await groundwork.evaluations.evaluate(org, {
            evaluator,
            cases: [{ output: "x" }],
            datasetId: dataset.id,
          }),
      ),
    ).toMatchObject({ status: 400 });
    expect(
      await failure(
        async () => await groundwork.evaluations.evaluate(org, { evaluator, datasetId: dataset.id }),
      ),
    ).toMatchObject({ status: 400, param: "outputs" });
    expect(
      await failure(
        async () =>
          await groundwork.evaluations.evaluate(org, {
            evaluator,
            datasetId: dataset.id,
            outputs: [
              { itemId: item.id, output: "1" },
              { itemId: "dsi_nope", output: "1" },
            ],
          }),
      ),
    ).toMatchObject({ status: 400, param: "outputs[1].itemId" });
    expect(
      await failure(
        async () =>
          await groundwork.evaluations.evaluate(other, {
            evaluator,
            datasetId: dataset.id,
            outputs: [{ itemId: item.id, output: "1" }],
          }),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      await failure(
        async () =>
          await groundwork.evaluations.evaluate(org, {
            evaluator: { type: "nope" },
            cases: [{ output: "x" }],
          }),
      ),
    ).toMatchObject({ status: 400, param: "evaluator.type" });
    expect((await groundwork.scores.list(org, {}, { page: 0, size: 10 })).total).toBe(0);
  });
});
