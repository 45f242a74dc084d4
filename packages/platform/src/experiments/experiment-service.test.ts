/**
 * Experiments through the library against a scripted upstream: runs of model and prompt
 * variants with evaluator scores, usage and EVAL scores, resume without duplicates, cancel,
 * baseline, regression and comparison, and the in-use refusals of prompts, datasets and templates.
 */
import type { Principal } from "@groundwork/core";
import { createFastFetch } from "@groundwork/gateway";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answeringModel, seedDataset } from "../../test/experiment-fixture.js";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import { EXPERIMENT_RUN_JOB_KIND } from "./experiment-run-worker.js";

let upstream: Upstream;
let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;
const page = { page: 0, size: 100 };

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ handler: answeringModel });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  store = await openTestStore();
  groundwork = createGroundwork({
    store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "k" },
      chatPrices: { "good-1": { inputPerMillion: 1000, outputPerMillion: 2000 } },
    },
    fetch: createFastFetch(),
  });
  principal = await groundwork.principal("acme", "member");
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
});

async function failure(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code: string; param: string | null };
    return { status, code, param };
  }
  throw new Error("expected a failure");
}

async function experimentWith(
  count: number,
  evaluators: unknown[] = [{ type: "exact_match" }, { type: "contains" }],
) {
  const { dataset, version } = await seedDataset(groundwork, principal, count);
  const experiment = await groundwork.experiments.create(principal, {
    name: "e1",
    datasetId: dataset.id,
    evaluators,
  });
  return { dataset, version, experiment };
}

describe("ExperimentService: runs", () => {
  it("runs model variants over every item with scores, usage and EVAL scores; regression and comparison", async () => {
    const { experiment, version } = await experimentWith(6);
    const good = await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "good",
      kind: "model",
      model: "good-1",
    });
    const bad = await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "bad",
      kind: "model",
      model: "bad-1",
      params: { temperature: 0 },
    });
    const runs = await groundwork.experiments.startRuns(principal, experiment.id);
    expect(runs.map((run) => [run.variantName, run.status, run.total])).toEqual([
      ["good", "queued", 6],
      ["bad", "queued", 6],
    ]);
    expect(await groundwork.experimentRuns.drain()).toBe(2);
    const [goodRun, badRun] = await Promise.all(
      runs.map(async (run) => await groundwork.experiments.getRun(principal, experiment.id, run.id)),
    );
    expect(goodRun).toMatchObject({
      status: "completed",
      datasetVersionId: version.id,
      completed: 6,
      failed: 0,
      scores: {
        exact_match: { mean: 1, count: 6, passRate: 1 },
        contains: { mean: 1, count: 6, passRate: 1 },
      },
      usage: { inputTokens: 60, outputTokens: 12 },
    });
    expect(goodRun?.usage.costEur).toBeGreaterThan(0);
    expect(goodRun?.startedAt).not.toBeNull();
    expect(goodRun?.completedAt).not.toBeNull();
    expect(badRun?.scores.exact_match).toEqual({ mean: 0.5, count: 6, passRate: 0.5 });
    expect(upstream.requests.at(-1)?.body).toMatchObject({ model: "bad-1", temperature: 0 });

    const results = await groundwork.experiments.listResults(
      principal,
      experiment.id,
      badRun?.id ?? "",
      {},
      page,
    );
    expect(results.total).toBe(6);
    expect(results.items.map((result) => result.input)).toEqual(["q0", "q1", "q2", "q3", "q4", "q5"]);
    expect(results.items[1]).toMatchObject({
      status: "completed",
      output: "wrong q1",
      expectedOutput: "a1",
      traceId: expect.stringMatching(/^trc_/),
      scores: [
        { name: "exact_match", value: 0, passed: false, error: null },
        { name: "contains", value: 0, passed: false, error: null },
      ],
    });
    const stored = await groundwork.scores.list(
      principal,
      { subjectType: "run_result", subjectId: results.items[0]?.id },
      page,
    );
    expect(stored.items.map((score) => [score.name, score.value, score.source]).sort()).toEqual([
      ["contains", 1, "EVAL"],
      ["exact_match", 1, "EVAL"],
    ]);

    expect(
      await failure(
        async () => await groundwork.experiments.regression(principal, experiment.id, badRun?.id ?? "", {}),
      ),
    ).toMatchObject({
      status: 409,
      code: "no_baseline",
    });
    const withBaseline = await groundwork.experiments.setBaseline(principal, experiment.id, {
      runId: goodRun?.id,
    });
    expect(withBaseline.baselineRunId).toBe(goodRun?.id);
    const report = await groundwork.experiments.regression(principal, experiment.id, badRun?.id ?? "", {});
    expect(report.summary.total).toEqual({ improved: 0, regressed: 6, unchanged: 6, missing: 0 });
    expect(report.summary.byEvaluator.exact_match).toEqual({
      improved: 0,
      regressed: 3,
      unchanged: 3,
      missing: 0,
    });
    expect(report.items[2]).toMatchObject({
      datasetItemId: results.items[1]?.datasetItemId,
      evaluator: "exact_match",
      baseline: 1,
      candidate: 0,
      delta: -1,
      verdict: "regressed",
    });
    const reverse = await groundwork.experiments.regression(principal, experiment.id, goodRun?.id ?? "", {
      baselineRunId: badRun?.id,
    });
    expect(reverse.summary.total.improved).toBe(6);

    const comparison = await groundwork.experiments.comparison(principal, experiment.id, {});
    expect(comparison).toEqual({
      baselineRunId: goodRun?.id,
      runs: [
        {
          runId: goodRun?.id,
          variantId: good.id,
          variantName: "good",
          means: { exact_match: 1, contains: 1 },
          deltaVsBaseline: { exact_match: 0, contains: 0 },
          improvements: 0,
          regressions: 0,
        },
        {
          runId: badRun?.id,
          variantId: bad.id,
          variantName: "bad",
          means: { exact_match: 0.5, contains: 0.5 },
          deltaVsBaseline: { exact_match: -0.5, contains: -0.5 },
          improvements: 0,
          regressions: 6,
        },
      ],
    });
    expect(
      (await groundwork.experiments.getRun(principal, experiment.id, goodRun?.id ?? "")).isBaseline,
    ).toBe(true);
    await groundwork.experiments.clearBaseline(principal, experiment.id);
    expect(
      await groundwork.experiments.comparison(principal, experiment.id, {
        runIds: `${goodRun?.id},${badRun?.id}`,
      }),
    ).toMatchObject({
      baselineRunId: null,
      runs: [{ deltaVsBaseline: null }, { deltaVsBaseline: null }],
    });
  });

  it("prompt variants compile the input as variables; a missing variable fails the item; all failed → run failed", async () => {
    const { experiment } = await experimentWith(3);
    const prompt = await groundwork.prompts.create(principal.organizationId, {
      name: "answer",
      type: "chat",
      prompt: [{ role: "user", content: "Answer {{input}}" }],
      config: { model: "good-1", temperature: 0.3 },
    });
    await groundwork.prompts.createVersion(principal.organizationId, prompt.id, {
      prompt: [{ role: "user", content: "Answer {{question}}" }],
      config: { model: "good-1" },
    });
    const v1 = await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "v1",
      kind: "prompt",
      promptId: "answer",
      promptRef: 1,
    });
    expect(v1.config.promptId).toBe(prompt.id);
    const v2 = await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "v2",
      kind: "prompt",
      promptId: prompt.id,
    });
    const [run1, run2] = await groundwork.experiments.startRuns(principal, experiment.id);
    await groundwork.experimentRuns.drain();
    expect(await groundwork.experiments.getRun(principal, experiment.id, run1?.id ?? "")).toMatchObject({
      status: "completed",
      completed: 3,
      plan: {
        kind: "prompt",
        promptVersionId: expect.stringMatching(/^pmv_/),
        versionNumber: 1,
        model: "good-1",
      },
    });
    const failed = await groundwork.experiments.getRun(principal, experiment.id, run2?.id ?? "");
    expect(failed).toMatchObject({ status: "failed", completed: 0, failed: 3 });
    expect(failed.error).toMatch(/question/);
    const [result] = (
      await groundwork.experiments.listResults(
        principal,
        experiment.id,
        run2?.id ?? "",
        { status: "failed" },
        page,
      )
    ).items;
    expect(result).toMatchObject({ status: "failed", output: null, scores: [] });
    expect(v2.kind).toBe("prompt");

    expect(
      await failure(async () => await groundwork.prompts.delete(principal.organizationId, prompt.id)),
    ).toMatchObject({
      status: 409,
      code: "prompt_in_use",
    });
  });

  it("a run interrupted mid-way resumes with the missing items only: no lost, no duplicated results", async () => {
    const { experiment } = await experimentWith(20);
    await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "good",
      kind: "model",
      model: "good-1",
    });
    const [run] = await groundwork.experiments.startRuns(principal, experiment.id);
    const job = await store.jobs.claim([EXPERIMENT_RUN_JOB_KIND], "w1", 60_000);
    expect(job).not.toBeNull();
    const stop = new AbortController();
    const recorded = async () => (await store.experiments.resultItemIds(run?.id ?? "")).size;
    const interrupted = groundwork.experimentRuns.handle(job as never, { signal: stop.signal });
    while ((await recorded()) < 5) await new Promise((resolve) => setTimeout(resolve, 2));
    stop.abort();
    await expect(interrupted).rejects.toThrow();
    // Calls the interrupted run had already sent may still reach the upstream (and be recorded)
    // after the abort: counted from once it is quiet, the resumed run's calls are its own.
    let before = upstream.requests.length;
    for (let quiet = 0; quiet < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (upstream.requests.length === before) quiet++;
      else [before, quiet] = [upstream.requests.length, 0];
    }
    const partial = await groundwork.experiments.getRun(principal, experiment.id, run?.id ?? "");
    expect(partial.status).toBe("running");
    expect(partial.completed).toBeGreaterThanOrEqual(5);
    expect(partial.completed).toBeLessThan(20);

    await groundwork.experimentRuns.handle(job as never, { signal: new AbortController().signal });
    const resumed = await groundwork.experiments.getRun(principal, experiment.id, run?.id ?? "");
    expect(resumed).toMatchObject({
      status: "completed",
      completed: 20,
      failed: 0,
      scores: { exact_match: { count: 20 } },
    });
    expect(upstream.requests.length - before).toBe(20 - partial.completed);
    const results = (
      await groundwork.experiments.listResults(principal, experiment.id, run?.id ?? "", {}, page)
    ).items;
    expect(new Set(results.map((result) => result.datasetItemId)).size).toBe(20);
    expect(results.map((result) => result.input)).toEqual(Array.from({ length: 20 }, (_, i) => `q${i}`));
    const scores = await groundwork.scores.list(
      principal,
      { subjectType: "run_result", name: "exact_match" },
      page,
    );
    expect(scores.total).toBe(20);
  });

  it("a run whose job the queue gave up on (every claim's lease lapsed) reads as failed with the queue's error", async () => {
    const { experiment } = await experimentWith(2);
    await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "good",
      kind: "model",
      model: "good-1",
    });
    const [run] = await groundwork.experiments.startRuns(principal, experiment.id);
    // A process that dies mid-run on every attempt: each claim's lease lapses unrenewed.
    let claims = 0;
    while ((await store.jobs.claim([EXPERIMENT_RUN_JOB_KIND], `crashing-${claims}`, 1)) !== null) {
      claims += 1;
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    expect(claims).toBe(20);
    const failed = await groundwork.experiments.getRun(principal, experiment.id, run?.id ?? "");
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/stopped responding on the last allowed attempt \(20 of 20\)/);
    const listed = (await groundwork.experiments.listRuns(principal, experiment.id, {}, page)).items;
    expect(listed.map((item) => item.status)).toEqual(["failed"]);
  });

  it("cancel ends a queued run (409 once terminal); deleting the experiment removes runs and results", async () => {
    const { experiment, dataset } = await experimentWith(2);
    const variant = await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "m",
      kind: "model",
      model: "good-1",
    });
    const [run] = await groundwork.experiments.startRuns(principal, experiment.id);
    expect(
      await failure(
        async () =>
          await groundwork.experiments.update(principal, experiment.id, {
            evaluators: [{ type: "levenshtein" }],
          }),
      ),
    ).toMatchObject({ status: 409, code: "run_in_progress" });
    expect(
      await failure(
        async () => await groundwork.experiments.deleteVariant(principal, experiment.id, variant.id),
      ),
    ).toMatchObject({
      status: 409,
      code: "run_in_progress",
    });
    const cancelled = await groundwork.experiments.cancelRun(principal, experiment.id, run?.id ?? "");
    expect(cancelled).toMatchObject({ status: "cancelled", completed: 0 });
    expect(
      await failure(
        async () => await groundwork.experiments.cancelRun(principal, experiment.id, run?.id ?? ""),
      ),
    ).toMatchObject({
      status: 409,
    });
    await groundwork.experimentRuns.drain();
    expect(upstream.requests).toHaveLength(0);
    expect(
      await failure(
        async () => await groundwork.experiments.setBaseline(principal, experiment.id, { runId: run?.id }),
      ),
    ).toMatchObject({
      status: 409,
      code: "run_not_completed",
    });
    expect(await failure(async () => await groundwork.datasets.delete(principal, dataset.id))).toMatchObject({
      status: 409,
      code: "dataset_in_use",
    });
    await groundwork.experiments.deleteVariant(principal, experiment.id, variant.id);
    expect((await groundwork.experiments.listRuns(principal, experiment.id, {}, page)).total).toBe(1);
    await groundwork.experiments.delete(principal, experiment.id);
    expect(await store.experiments.runById(run?.id ?? "")).toBeNull();
    await groundwork.datasets.delete(principal, dataset.id);
  });

  it("refuses runs without variants or without a dataset version, and evaluators with bad params or a taken name", async () => {
    const dataset = await groundwork.datasets.create(principal, { name: "empty" });
    const experiment = await groundwork.experiments.create(principal, {
      name: "x",
      datasetId: dataset.id,
      evaluators: [{ type: "exact_match" }],
    });
    expect(
      await failure(async () => await groundwork.experiments.startRuns(principal, experiment.id)),
    ).toMatchObject({
      status: 409,
      code: "no_variants",
    });
    await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "m",
      kind: "model",
      model: "good-1",
    });
    expect(
      await failure(async () => await groundwork.experiments.startRuns(principal, experiment.id)),
    ).toMatchObject({
      status: 409,
      code: "dataset_version_required",
    });
    const bad = (evaluators: unknown) =>
      failure(
        async () =>
          await groundwork.experiments.create(principal, { name: "y", datasetId: dataset.id, evaluators }),
      );
    expect(await bad([{ type: "regex", params: {} }])).toMatchObject({
      status: 400,
      param: "evaluators[0].params.pattern",
    });
    expect(
      await bad([
        { type: "regex", params: { pattern: "a" } },
        { type: "regex", params: { pattern: "b" } },
      ]),
    ).toMatchObject({
      status: 400,
      param: "evaluators[1].name",
    });
    expect(await bad([{ type: "llm_judge", params: { templateId: "evt_missing" } }])).toMatchObject({
      status: 404,
      param: "evaluators[0].params.templateId",
    });
    expect(await bad([])).toMatchObject({ status: 400, param: "evaluators" });
    const template = await groundwork.evaluators.createTemplate(principal.organizationId, {
      name: "judge",
      prompt: "Rate {{output}}",
      model: "good-1",
      scale: { type: "boolean" },
    });
    await groundwork.experiments.update(principal, experiment.id, {
      evaluators: [{ name: "judged", type: "llm_judge", params: { templateId: template.id } }],
    });
    expect(
      await failure(
        async () => await groundwork.evaluators.deleteTemplate(principal.organizationId, template.id),
      ),
    ).toMatchObject({
      status: 409,
      code: "template_in_use",
    });
  });
});
