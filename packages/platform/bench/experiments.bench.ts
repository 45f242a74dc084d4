/**
 * Experiments at scale, each beside its floor measured in the same run:
 * - an experiment of 1,000 items × 2 model variants × 3 code evaluators against the scripted
 *   upstream (target < 20 s on two cores), vs the same 2,000 chat calls made directly through
 *   the gateway, 4 at a time per variant as runs make them;
 * - regression of two 10,000-item runs with 3 evaluators (target < 200 ms), through the service
 *   (results read from SQLite + verdicts) and the maths alone, vs a plain loop joining two arrays.
 * Run: pnpm bench (or npx vitest bench --run --project platform bench/experiments.bench.ts after a build).
 */

import { addToTotals, type RegressionResult, regression } from "@groundwork/evaluation";
import { createFastFetch } from "@groundwork/gateway";
import { openStore } from "@groundwork/store-sqlite";
import { startOpenAIUpstream } from "@groundwork/testkit";
import { afterAll, bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";
import { answeringModel, seedDataset } from "../test/experiment-fixture.js";

const upstream = await startOpenAIUpstream({ handler: answeringModel });
afterAll(() => upstream.close());
const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({
  store,
  config: { builtin: { baseUrl: upstream.url, apiKey: "k" } },
  fetch: createFastFetch(),
});
const principal = await groundwork.principal("bench", "member");
const { dataset, version } = await seedDataset(groundwork, principal, 1_000);
const EVALUATORS = [{ type: "exact_match" }, { type: "contains" }, { type: "levenshtein" }];

let experiments = 0;
async function fullExperiment(): Promise<void> {
  const experiment = await groundwork.experiments.create(principal, {
    name: `bench-${experiments++}`,
    datasetId: dataset.id,
    datasetVersionId: version.id,
    evaluators: EVALUATORS,
  });
  await groundwork.experiments.addVariant(principal, experiment.id, {
    name: "good",
    kind: "model",
    model: "good-1",
  });
  await groundwork.experiments.addVariant(principal, experiment.id, {
    name: "bad",
    kind: "model",
    model: "bad-1",
  });
  const runs = await groundwork.experiments.startRuns(principal, experiment.id);
  await groundwork.experimentRuns.drain();
  for (const run of runs) {
    const done = await store.experiments.runById(run.id);
    if (done?.status !== "completed" || done.completed !== 1_000)
      throw new Error(`run ${run.id} did not complete`);
  }
}

async function directCalls(): Promise<void> {
  for (const model of ["good-1", "bad-1"]) {
    let next = 0;
    const lane = async () => {
      while (next < 1_000) {
        const i = next++;
        await groundwork.gateway.chat(
          { model, messages: [{ role: "user", content: `q${i}` }] },
          { principal },
        );
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
  }
}

// Two 10,000-item runs with 3 evaluators each, written the way the worker writes them.
const N = 10_000;
const NAMES = ["exact_match", "contains", "levenshtein"];
const org = principal.organizationId;
const stored = await store.experiments.create(org, {
  name: "regression-bench",
  description: null,
  datasetId: "ds_bench",
  datasetVersionId: null,
  evaluators: NAMES.map((name) => ({ name, type: name, params: {} })),
});
const variant = await store.experiments.addVariant(stored.id, {
  name: "v",
  kind: "model",
  config: { model: "m", params: {} },
});
const itemIds = Array.from({ length: N }, (_, i) => `dsi_${String(i).padStart(26, "0")}`);
const results: RegressionResult[][] = [];
const runIds: string[] = [];
for (const seed of [0, 1]) {
  const run = await store.experiments.createRun({
    organizationId: org,
    experimentId: stored.id,
    variant,
    evaluators: stored.evaluators,
    datasetId: "ds_bench",
    datasetVersionId: "dsv_bench",
    total: N,
    role: "member",
    createdByKeyId: null,
  });
  await store.experiments.markRunning(run.id);
  const rows: RegressionResult[] = [];
  await store.experiments.atomically(async () => {
    for (const [i, datasetItemId] of itemIds.entries()) {
      const scores = NAMES.map((name, k) => ({
        name,
        value: ((i * 7 + k * 3 + seed * 5) % 11) / 10,
        passed: true,
        comment: null,
        error: null,
      }));
      await store.experiments.addResult(
        {
          organizationId: org,
          runId: run.id,
          datasetItemId,
          position: i,
          status: "completed",
          input: `q${i}`,
          expectedOutput: `a${i}`,
          output: `a${i}`,
          error: null,
          latencyMs: 1,
          usage: { inputTokens: 1, outputTokens: 1, costEur: 0 },
          otelTraceId: null,
          scores,
        },
        addToTotals,
      );
      rows.push({ datasetItemId, status: "completed", scores });
    }
  });
  await store.experiments.finishRun(run.id, "completed");
  results.push(rows);
  runIds.push(run.id);
}

describe("an experiment of 1,000 items × 2 variants × 3 code evaluators", () => {
  bench("run_experiment → both runs completed (2,000 chat calls, 6,000 evaluations)", fullExperiment, {
    iterations: 1,
    warmupIterations: 0,
    time: 0,
  });
  bench("baseline: the same 2,000 chat calls directly through the gateway, 4 at a time", directCalls, {
    iterations: 1,
    warmupIterations: 0,
    time: 0,
  });
});

describe("regression of two 10,000-item runs × 3 evaluators", () => {
  bench("service: results read from SQLite + verdicts", async () => {
    await groundwork.experiments.regression(principal, stored.id, runIds[1] ?? "", {
      baselineRunId: runIds[0],
    });
  });
  bench("maths only: regression() over the two result arrays", () => {
    regression(results[0] ?? [], results[1] ?? [], NAMES);
  });
  bench("baseline: a plain loop joining the two arrays by item id", () => {
    const base = new Map<string, RegressionResult>();
    for (const row of results[0] ?? []) base.set(row.datasetItemId, row);
    let sum = 0;
    for (const row of results[1] ?? []) {
      const other = base.get(row.datasetItemId);
      for (let k = 0; k < NAMES.length; k++)
        sum += (row.scores[k]?.value ?? 0) - (other?.scores[k]?.value ?? 0);
    }
    if (Number.isNaN(sum)) throw new Error("unreachable");
  });
});
