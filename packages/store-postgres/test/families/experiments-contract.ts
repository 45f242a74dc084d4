/**
 * The experiment family's contract: what store-sqlite's `ExperimentStore` answers, the
 * PostgreSQL family must answer too — experiments, variants, durable runs and their results,
 * with the run's counters kept equal to its results. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addToTotals } from "../../../evaluation/src/experiments/run-aggregates.js";
import type {
  ExperimentEvaluator,
  ExperimentRunRecord,
  ExperimentStore,
  RunResultInsert,
  RunScore,
  VariantRecord,
} from "../../../store-sqlite/src/experiments.js";
import { bytewise, type FamilyHarness, type Port, readAllPages, settle } from "./family-harness.js";

export interface ExperimentHarness extends FamilyHarness<ExperimentStore> {
  /** A job of the organization the queue gave up on (failed for good) with that last error; its id. */
  failedJob(organizationId: string, error: string): Promise<string>;
  /** Stores an `experiment` trace of the organization with that OpenTelemetry trace id; its `trc_…` id. */
  experimentTrace(organizationId: string, otelTraceId: string): Promise<string>;
}

const judge = (templateId: string): ExperimentEvaluator => ({
  name: "judge",
  type: "llm_judge",
  params: { templateId, zeta: 1, alpha: 2 },
});

const newExperiment = (name: string, datasetId = "ds_1", evaluators: ExperimentEvaluator[] = []) => ({
  name,
  description: null,
  datasetId,
  datasetVersionId: null,
  evaluators,
});

/** An experiment with one variant and a queued run of `total` items. */
async function queuedRun(
  family: Port<ExperimentStore>,
  org: string,
  total = 3,
): Promise<{ run: ExperimentRunRecord; variant: VariantRecord }> {
  const experiment = await family.create(org, newExperiment(`e-${Math.random().toString(36).slice(2)}`));
  const variant = await family.addVariant(experiment.id, {
    name: "v",
    kind: "model",
    config: { model: "m" },
  });
  const run = await family.createRun({
    organizationId: org,
    experimentId: experiment.id,
    variant,
    evaluators: [{ name: "exact", type: "exact_match", params: {} }],
    datasetId: "ds_1",
    datasetVersionId: "dsv_1",
    total,
    role: "member",
    createdByKeyId: null,
  });
  return { run, variant };
}

const result = (
  run: ExperimentRunRecord,
  item: number,
  status: "completed" | "failed" = "completed",
  scores: RunScore[] = [],
): RunResultInsert => ({
  organizationId: run.organizationId,
  runId: run.id,
  datasetItemId: `dsi_${item}`,
  position: item,
  status,
  input: { q: `question ${item}`, z: 1, a: 2 },
  expectedOutput: item % 2 === 0 ? null : "answer",
  output: status === "completed" ? `out ${item}` : null,
  error: status === "failed" ? `error ${item}` : null,
  latencyMs: 10 + item,
  usage: { inputTokens: item, outputTokens: 2 * item, costEur: 0.001 * item },
  otelTraceId: null,
  scores,
});

const score = (name: string, value: number | null, passed: boolean | null = null): RunScore => ({
  name,
  value,
  passed,
  comment: null,
  error: null,
});

export function describeExperimentContract(label: string, open: () => Promise<ExperimentHarness>): void {
  describe(`experiments contract (${label})`, () => {
    it("creates, reads, lists, updates and deletes experiments, per organization", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const made = await family.create(org, {
        ...newExperiment("first", "ds_a", [judge("tpl_1")]),
        description: "d",
        datasetVersionId: "dsv_1",
      });
      expect(made).toEqual({
        id: made.id,
        organizationId: org,
        name: "first",
        description: "d",
        datasetId: "ds_a",
        datasetVersionId: "dsv_1",
        evaluators: [judge("tpl_1")],
        baselineRunId: null,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      expect(made.id).toMatch(/^exp_/);
      expect(await family.get(org, made.id)).toEqual(made);
      expect(Object.keys((await family.get(org, made.id))?.evaluators[0]?.params ?? {})).toEqual([
        "templateId",
        "zeta",
        "alpha",
      ]);
      expect(await family.get(other, made.id)).toBeNull();
      expect(await family.findByName(org, "first")).toEqual(made);
      expect(await family.findByName(org, "FIRST")).toBeNull();
      expect(await family.findByName(other, "first")).toBeNull();
      await expect(settle(() => family.create(org, newExperiment("first")))).rejects.toThrow();
      expect((await family.create(other, newExperiment("first"))).organizationId).toBe(other);
      clock.advance();
      const second = await family.create(org, newExperiment("second", "ds_a"));
      await family.create(org, newExperiment("third", "ds_b"));
      expect(await family.experimentOfDataset(org, "ds_a")).toBe("first");
      expect(await family.experimentOfDataset(org, "ds_b")).toBe("third");
      expect(await family.experimentOfDataset(other, "ds_b")).toBeNull();
      expect((await family.list(org, { datasetId: "ds_a" }, { page: 0, size: 10 })).items).toEqual([
        second,
        made,
      ]);
      expect((await family.list(org, {}, { page: 0, size: 10 })).total).toBe(3);

      expect(await family.usesTemplate(org, "tpl_1")).toBe(true);
      expect(await family.usesTemplate(org, "tpl_")).toBe(false);
      expect(await family.usesTemplate(other, "tpl_1")).toBe(false);
      clock.advance(4);
      const updated = await family.update(made, {
        name: "renamed",
        evaluators: [{ name: "j", type: "contains", params: { templateId: "tpl_1" } }],
        baselineRunId: "xrun_1",
        description: null,
      });
      expect(updated).toEqual({
        ...made,
        name: "renamed",
        description: null,
        evaluators: [{ name: "j", type: "contains", params: { templateId: "tpl_1" } }],
        baselineRunId: "xrun_1",
        updatedAt: made.createdAt + 5,
      });
      expect(await family.get(org, made.id)).toEqual(updated);
      expect(await family.usesTemplate(org, "tpl_1")).toBe(false);
      expect(await family.delete(other, made.id)).toBe(false);
      expect(await family.delete(org, made.id)).toBe(true);
      expect(await family.delete(org, made.id)).toBe(false);
      expect(await family.get(org, made.id)).toBeNull();
    });

    it("keeps variants in the order they were added; a prompt variant marks its prompt used", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const experiment = await family.create(org, newExperiment("e"));
      const a = await family.addVariant(experiment.id, {
        name: "a",
        kind: "prompt",
        config: { promptId: "prm_1", zeta: true, alpha: null },
      });
      expect(a).toEqual({
        id: a.id,
        experimentId: experiment.id,
        name: "a",
        kind: "prompt",
        config: { promptId: "prm_1", zeta: true, alpha: null },
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      expect(a.id).toMatch(/^var_/);
      clock.advance();
      const b = await family.addVariant(experiment.id, { name: "b", kind: "agent", config: { agent: "x" } });
      await expect(
        settle(() => family.addVariant(experiment.id, { name: "a", kind: "model", config: {} })),
      ).rejects.toThrow();
      expect(await family.listVariants(experiment.id)).toEqual([a, b]);
      expect(await family.getVariant(experiment.id, a.id)).toEqual(a);
      expect(await family.getVariant("exp_other", a.id)).toBeNull();
      expect(await family.usesPrompt(org, "prm_1")).toBe(true);
      expect(await family.usesPrompt(other, "prm_1")).toBe(false);
      clock.advance();
      const changed = await family.updateVariant(a, { name: "a2", config: { promptId: "prm_2" } });
      expect(changed).toEqual({ ...a, name: "a2", config: { promptId: "prm_2" }, updatedAt: clock.now() });
      expect(await family.getVariant(experiment.id, a.id)).toEqual(changed);
      expect(await family.usesPrompt(org, "prm_1")).toBe(false);
      expect(await family.usesPrompt(org, "prm_2")).toBe(true);
      expect(await family.deleteVariant("exp_other", a.id)).toBe(false);
      expect(await family.deleteVariant(experiment.id, a.id)).toBe(true);
      expect(await family.deleteVariant(experiment.id, a.id)).toBe(false);
      expect(await family.listVariants(experiment.id)).toEqual([b]);
      expect(await family.usesPrompt(org, "prm_2")).toBe(false);
    });

    it("runs: queued → running → ended once; lists, filters and the newest completed run per variant", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const { run, variant } = await queuedRun(family, org, 5);
      expect(run).toEqual({
        id: run.id,
        organizationId: org,
        experimentId: run.experimentId,
        variantId: variant.id,
        variantName: "v",
        variant,
        evaluators: [{ name: "exact", type: "exact_match", params: {} }],
        datasetId: "ds_1",
        datasetVersionId: "dsv_1",
        status: "queued",
        total: 5,
        completed: 0,
        failed: 0,
        scoreSums: {},
        usage: { inputTokens: 0, outputTokens: 0, costEur: 0 },
        plan: null,
        error: null,
        jobId: null,
        role: "member",
        createdByKeyId: null,
        createdAt: clock.now(),
        startedAt: null,
        completedAt: null,
      });
      expect(run.id).toMatch(/^xrun_/);
      expect(await family.hasActiveRun(run.experimentId)).toBe(true);
      expect(await family.hasActiveRun(run.experimentId, variant.id)).toBe(true);
      expect(await family.hasActiveRun(run.experimentId, "var_other")).toBe(false);
      await family.attachJob(run.id, "job_1");
      clock.advance();
      const started = clock.now();
      expect(await family.markRunning(run.id)).toBe(true);
      clock.advance();
      expect(await family.markRunning(run.id)).toBe(true);
      await family.setPlan(run.id, { promptVersionId: "pmv_1", b: 1, a: 2 });
      const running = await family.runById(run.id);
      expect(running).toMatchObject({
        status: "running",
        jobId: "job_1",
        startedAt: started,
        plan: { promptVersionId: "pmv_1", b: 1, a: 2 },
      });
      expect(Object.keys(running?.plan ?? {})).toEqual(["promptVersionId", "b", "a"]);
      clock.advance();
      expect(await family.finishRun(run.id, "completed")).toBe(true);
      expect(await family.finishRun(run.id, "failed", "late")).toBe(false);
      expect(await family.markRunning(run.id)).toBe(false);
      expect(await family.getRun(run.experimentId, run.id)).toMatchObject({
        status: "completed",
        error: null,
        completedAt: clock.now(),
      });
      expect(await family.getRun("exp_other", run.id)).toBeNull();
      expect(await family.runById("xrun_missing")).toBeNull();
      expect(await family.hasActiveRun(run.experimentId)).toBe(false);

      // A second and third run of the variant, and a run of another variant.
      const again = async (v: VariantRecord) => {
        clock.advance();
        return family.createRun({
          organizationId: org,
          experimentId: run.experimentId,
          variant: v,
          evaluators: [],
          datasetId: "ds_1",
          datasetVersionId: "dsv_1",
          total: 1,
          role: "admin",
          createdByKeyId: "key_1",
        });
      };
      const second = await again(variant);
      await family.markRunning(second.id);
      await family.finishRun(second.id, "completed");
      const failed = await again(variant);
      await family.finishRun(failed.id, "failed", "boom");
      const otherVariant = await family.addVariant(run.experimentId, {
        name: "w",
        kind: "model",
        config: {},
      });
      const third = await again(otherVariant);
      await family.finishRun(third.id, "completed");
      const queued = await again(otherVariant);
      expect((await family.newestCompletedRuns(run.experimentId)).map((r) => r.id)).toEqual([
        second.id,
        third.id,
      ]);
      const all = await readAllPages((page) => family.listRuns(run.experimentId, {}, page), 2);
      expect(all.items.map((r) => r.id)).toEqual([queued.id, third.id, failed.id, second.id, run.id]);
      expect(
        (await family.listRuns(run.experimentId, { variantId: variant.id }, { page: 0, size: 9 })).total,
      ).toBe(3);
      expect(
        (await family.listRuns(run.experimentId, { status: "failed" }, { page: 0, size: 9 })).items.map(
          (r) => [r.id, r.error],
        ),
      ).toEqual([[failed.id, "boom"]]);
      expect(
        (
          await family.listRuns(
            run.experimentId,
            { variantId: otherVariant.id, status: "queued" },
            { page: 0, size: 9 },
          )
        ).items,
      ).toEqual([queued]);
    });

    it("cancels every active run at once, oldest first", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const { run, variant } = await queuedRun(family, org);
      await family.markRunning(run.id);
      const create = async () => {
        clock.advance();
        return family.createRun({ ...run, variant, evaluators: [], createdByKeyId: null });
      };
      const queued = await create();
      const done = await create();
      await family.finishRun(done.id, "completed");
      clock.advance();
      expect(await family.cancelActiveRuns(run.experimentId)).toEqual([run.id, queued.id]);
      expect(await family.runById(queued.id)).toMatchObject({
        status: "cancelled",
        completedAt: clock.now(),
      });
      expect(await family.runById(done.id)).toMatchObject({ status: "completed" });
      expect(await family.cancelActiveRuns(run.experimentId)).toEqual([]);
    });

    it("fails an active run whose job the queue gave up on, when the run is read", async () => {
      const { family, clock, organization, failedJob } = await open();
      const org = await organization();
      const { run } = await queuedRun(family, org);
      const { run: other } = await queuedRun(family, org);
      await family.markRunning(run.id);
      await family.attachJob(run.id, await failedJob(org, "worker died"));
      clock.advance();
      // runById does not look at jobs; getRun and listRuns do.
      expect(await family.runById(run.id)).toMatchObject({ status: "running" });
      expect(await family.getRun(run.experimentId, run.id)).toMatchObject({
        status: "failed",
        error: "worker died",
        completedAt: clock.now(),
      });
      await family.attachJob(other.id, await failedJob(org, "again"));
      expect((await family.listRuns(other.experimentId, {}, { page: 0, size: 5 })).items[0]).toMatchObject({
        status: "failed",
        error: "again",
      });
    });

    it("records a result once per item while the run runs, with the run's counters", async () => {
      const { family, clock, organization, experimentTrace } = await open();
      const org = await organization();
      const other = await organization();
      const { run } = await queuedRun(family, org, 4);
      expect(await family.addResult(result(run, 0), addToTotals)).toBeNull(); // still queued
      await family.markRunning(run.id);
      clock.advance();
      const otel = "0123456789abcdef0123456789abcdef";
      const trace = await experimentTrace(org, otel);
      const first = await family.addResult(
        { ...result(run, 2, "completed", [score("exact", 1, true), score("judge", 0.5)]), otelTraceId: otel },
        addToTotals,
      );
      expect(first).toEqual({
        id: first?.id,
        organizationId: org,
        runId: run.id,
        datasetItemId: "dsi_2",
        position: 2,
        status: "completed",
        input: { q: "question 2", z: 1, a: 2 },
        expectedOutput: null,
        output: "out 2",
        error: null,
        latencyMs: 12,
        usage: { inputTokens: 2, outputTokens: 4, costEur: 0.002 },
        traceId: null,
        scores: [score("exact", 1, true), score("judge", 0.5)],
        createdAt: clock.now(),
      });
      expect(first?.id).toMatch(/^xres_/);
      expect(await family.addResult(result(run, 2, "failed"), addToTotals)).toBeNull();
      await family.addResult(result(run, 1, "failed", [score("exact", null)]), addToTotals);
      await family.addResult(result(run, 3, "completed", [score("exact", 0, false)]), addToTotals);
      expect(await family.runById(run.id)).toMatchObject({
        completed: 2,
        failed: 1,
        scoreSums: { exact: { sum: 1, count: 2, passed: 1 }, judge: { sum: 0.5, count: 1, passed: 0 } },
        usage: { inputTokens: 6, outputTokens: 12 },
      });
      expect((await family.runById(run.id))?.usage.costEur).toBeCloseTo(0.006, 12);
      expect(await family.resultItemIds(run.id)).toEqual(new Set(["dsi_1", "dsi_2", "dsi_3"]));
      const listed = await readAllPages((page) => family.listResults(run.id, {}, page), 2);
      expect(listed.items.map((r) => [r.position, r.traceId])).toEqual([
        [1, null],
        [2, trace],
        [3, null],
      ]);
      expect(listed.items[1]).toEqual({ ...first, traceId: trace });
      expect(
        (await family.listResults(run.id, { status: "failed" }, { page: 0, size: 5 })).items,
      ).toMatchObject([{ position: 1, error: "error 1", output: null }]);
      expect(await family.resultScores(run.id)).toEqual([
        { datasetItemId: "dsi_1", status: "failed", scores: [{ name: "exact", value: null }] },
        {
          datasetItemId: "dsi_2",
          status: "completed",
          scores: [
            { name: "exact", value: 1 },
            { name: "judge", value: 0.5 },
          ],
        },
        { datasetItemId: "dsi_3", status: "completed", scores: [{ name: "exact", value: 0 }] },
      ]);
      expect(await family.resultExists(org, first?.id ?? "")).toBe(true);
      expect(await family.resultExists(other, first?.id ?? "")).toBe(false);
      await family.finishRun(run.id, "cancelled");
      expect(await family.addResult(result(run, 0), addToTotals)).toBeNull();
      expect((await family.runById(run.id))?.completed).toBe(2);
      // Deleting the experiment deletes its runs and their results.
      expect(await family.delete(org, run.experimentId)).toBe(true);
      expect(await family.runById(run.id)).toBeNull();
      expect(await family.resultExists(org, first?.id ?? "")).toBe(false);
    });

    it("keeps nothing of a unit of work that throws", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const { run } = await queuedRun(family, org);
      await family.markRunning(run.id);
      await expect(
        settle(() =>
          family.atomically(async () => {
            await family.addResult(result(run, 0), addToTotals);
            throw new Error("abort");
          }),
        ),
      ).rejects.toThrow("abort");
      expect(await family.resultItemIds(run.id)).toEqual(new Set());
      expect((await family.runById(run.id))?.completed).toBe(0);
    });

    it("keeps a run's counters equal to a recount of its results, whatever is recorded", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              item: fc.nat({ max: 6 }),
              failed: fc.boolean(),
              scores: fc.array(
                fc.record({
                  name: fc.constantFrom("a", "b", "B"),
                  value: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
                  passed: fc.option(fc.boolean(), { nil: null }),
                }),
                { maxLength: 2 },
              ),
            }),
            { minLength: 1, maxLength: 10 },
          ),
          fc.integer({ min: 1, max: 3 }),
          async (steps, size) => {
            const { family, organization } = await open();
            const org = await organization();
            const { run } = await queuedRun(family, org, 7);
            await family.markRunning(run.id);
            const kept = new Map<number, RunResultInsert>();
            for (const step of steps) {
              const insert = result(
                run,
                step.item,
                step.failed ? "failed" : "completed",
                step.scores.map((s) => score(s.name, s.value, s.passed)),
              );
              const recorded = await family.addResult(insert, addToTotals);
              expect(recorded === null).toBe(kept.has(step.item));
              if (!kept.has(step.item)) kept.set(step.item, insert);
            }
            const results = [...kept.values()].sort((x, y) => x.position - y.position);
            const recount = results.reduce((sums, each) => addToTotals(sums, each.scores), {});
            const stored = await family.runById(run.id);
            expect(stored).toMatchObject({
              completed: results.filter((r) => r.status === "completed").length,
              failed: results.filter((r) => r.status === "failed").length,
              scoreSums: recount,
              usage: {
                inputTokens: results.reduce((sum, r) => sum + r.usage.inputTokens, 0),
                outputTokens: results.reduce((sum, r) => sum + r.usage.outputTokens, 0),
              },
            });
            const pages = await readAllPages((page) => family.listResults(run.id, {}, page), size);
            expect(pages.items.map((r) => r.datasetItemId)).toEqual(results.map((r) => r.datasetItemId));
            expect(Object.keys(stored?.scoreSums ?? {}).sort(bytewise)).toEqual(
              Object.keys(recount).sort(bytewise),
            );
          },
        ),
        { numRuns: 10 },
      );
    });
  });
}
