/** Experiments, variants, runs, results and regressions as the API shows them (PLATFORM.md §11). */
import type { ExperimentView, RunView } from "@groundwork/platform";
import type { ExperimentRecord, RunResultRecord, VariantRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function renderExperiment(experiment: ExperimentRecord | ExperimentView) {
  return {
    id: experiment.id,
    object: "experiment",
    name: experiment.name,
    description: experiment.description,
    datasetId: experiment.datasetId,
    datasetVersionId: experiment.datasetVersionId,
    evaluators: experiment.evaluators,
    baselineRunId: experiment.baselineRunId,
    createdAt: iso(experiment.createdAt),
    updatedAt: iso(experiment.updatedAt),
    ...("variants" in experiment ? { variants: experiment.variants.map(renderVariant) } : {}),
  };
}

/** The kind's fields (unset optional ones as null), then `params`. */
const KIND_FIELDS: Record<VariantRecord["kind"], readonly string[]> = {
  prompt: ["promptId", "promptRef", "model"],
  agent: ["agent"],
  model: ["model"],
  extraction: ["schemaId", "schemaRef", "strategy", "model"],
};

export function renderVariant(variant: VariantRecord) {
  const fields: Record<string, unknown> = {};
  for (const field of KIND_FIELDS[variant.kind]) fields[field] = variant.config[field] ?? null;
  return {
    id: variant.id,
    object: "experiment_variant",
    experimentId: variant.experimentId,
    name: variant.name,
    kind: variant.kind,
    ...fields,
    params: variant.config.params ?? {},
    createdAt: iso(variant.createdAt),
    updatedAt: iso(variant.updatedAt),
  };
}

export function renderRun(run: RunView) {
  return {
    id: run.id,
    object: "experiment_run",
    experimentId: run.experimentId,
    variantId: run.variantId,
    variantName: run.variantName,
    datasetVersionId: run.datasetVersionId,
    status: run.status,
    progress: { total: run.total, completed: run.completed, failed: run.failed },
    scores: run.scores,
    isBaseline: run.isBaseline,
    error: run.error,
    usage: run.usage,
    createdAt: iso(run.createdAt),
    startedAt: isoOrNull(run.startedAt),
    completedAt: isoOrNull(run.completedAt),
  };
}

export function renderResult(result: RunResultRecord) {
  return {
    id: result.id,
    object: "experiment_run_result",
    runId: result.runId,
    datasetItemId: result.datasetItemId,
    status: result.status,
    input: result.input,
    expectedOutput: result.expectedOutput,
    output: result.output,
    error: result.error,
    latencyMs: result.latencyMs,
    usage: result.usage,
    traceId: result.traceId,
    scores: result.scores,
    createdAt: iso(result.createdAt),
  };
}
