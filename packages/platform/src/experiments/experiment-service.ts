/**
 * Experiments (PLATFORM.md §11): experiments over a dataset version with variants and
 * evaluators, durable runs (one per variant, on the job queue as `experiment-run`), baselines,
 * per-item regression against a baseline and the comparison across variants. Runs execute in
 * {@link ExperimentRunWorker}; the maths (aggregates, verdicts, comparison) are the evaluation
 * engine's. Roles are the HTTP guards' business; every lookup is scoped by the organization.
 */
import { parseAgentRef } from "@groundwork/agents";
import { conflict, invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import {
  aggregateScores,
  type Comparison,
  compareRuns,
  DEFAULT_REGRESSION_THRESHOLD,
  type RegressionReport,
  regression,
  type ScoreAggregate,
} from "@groundwork/evaluation";
import { parseModelString } from "@groundwork/gateway";
import type {
  ExperimentEvaluator,
  ExperimentRecord,
  ExperimentRunRecord,
  RunResultRecord,
  VariantRecord,
} from "@groundwork/store-sqlite";
import type { DatasetService } from "../datasets/dataset-service.js";
import type { EvaluatorService } from "../evaluators/evaluator-service.js";
import type { PromptService } from "../prompts/prompt-service.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import {
  baselineBody,
  comparisonQuery,
  EXPERIMENT_MAX_VARIANTS,
  experimentCreateBody,
  experimentListQuery,
  experimentUpdateBody,
  regressionQuery,
  resultListQuery,
  runCreateBody,
  runListQuery,
  type VariantKindName,
  variantCreateBody,
  variantFields,
  variantUpdateBody,
} from "./experiment-bodies.js";
import type { ExperimentRunWorker } from "./experiment-run-worker.js";

/** A run as the API shows it: with its aggregates and whether it is the experiment's baseline. */
export interface RunView extends ExperimentRunRecord {
  scores: Record<string, ScoreAggregate>;
  isBaseline: boolean;
}

export interface ExperimentView extends ExperimentRecord {
  variants: VariantRecord[];
}

export class ExperimentService {
  private readonly experiments: PlatformStore["experiments"];

  constructor(
    private readonly store: PlatformStore,
    private readonly deps: {
      datasets: DatasetService;
      prompts: PromptService;
      evaluators: EvaluatorService;
      worker: ExperimentRunWorker;
      /** Stores the spans still batched, so a result read right after its item finds its trace. */
      flushTraces?: () => void | Promise<void>;
    },
  ) {
    this.experiments = store.experiments;
    // What experiments reference may not be deleted under them (PLATFORM.md §7–§9).
    deps.prompts.setInUseCheck(async (org, promptId) => await this.experiments.usesPrompt(org, promptId));
    deps.datasets.addInUseCheck(async (org, datasetId) => {
      const name = await this.experiments.experimentOfDataset(org, datasetId);
      return name === null ? null : `experiment "${name}" runs over it`;
    });
    deps.evaluators.setTemplateInUseCheck(
      async (org, templateId) => await this.experiments.usesTemplate(org, templateId),
    );
  }

  // ---- experiments ----

  async list(
    principal: Principal,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: ExperimentRecord[]; total: number }> {
    const filter = validate(experimentListQuery, query ?? {});
    return await this.experiments.list(principal.organizationId, filter, page);
  }

  async create(principal: Principal, raw: unknown): Promise<ExperimentRecord> {
    const input = validate(experimentCreateBody, raw);
    const org = principal.organizationId;
    const dataset = await this.deps.datasets.get(principal, input.datasetId);
    if (input.datasetVersionId !== undefined && input.datasetVersionId !== null) {
      await this.datasetVersion(principal, dataset.id, input.datasetVersionId);
    }
    const evaluators = await this.checkEvaluators(org, input.evaluators);
    return await this.experiments.atomically(async () => {
      await this.refuseTakenName(org, input.name, null);
      return await this.experiments.create(org, {
        name: input.name,
        description: input.description ?? null,
        datasetId: dataset.id,
        datasetVersionId: input.datasetVersionId ?? null,
        evaluators,
      });
    });
  }

  async get(principal: Principal, experimentId: string): Promise<ExperimentRecord> {
    const experiment = await this.experiments.get(principal.organizationId, experimentId);
    if (experiment === null) throw notFound(`No experiment ${experimentId}`, { param: "experimentId" });
    return experiment;
  }

  /** The experiment with its variants (`GET /v1/experiments/{id}`). */
  async view(principal: Principal, experimentId: string): Promise<ExperimentView> {
    const experiment = await this.get(principal, experimentId);
    return { ...experiment, variants: await this.experiments.listVariants(experiment.id) };
  }

  async update(principal: Principal, experimentId: string, raw: unknown): Promise<ExperimentRecord> {
    const input = validate(experimentUpdateBody, raw ?? {});
    const org = principal.organizationId;
    const current = await this.get(principal, experimentId);
    if (input.datasetVersionId !== undefined && input.datasetVersionId !== null) {
      await this.datasetVersion(principal, current.datasetId, input.datasetVersionId);
    }
    const evaluators =
      input.evaluators === undefined ? undefined : await this.checkEvaluators(org, input.evaluators);
    return await this.experiments.atomically(async () => {
      const experiment = await this.get(principal, experimentId);
      if (input.name !== undefined) await this.refuseTakenName(org, input.name, experiment.id);
      if (
        evaluators !== undefined &&
        JSON.stringify(evaluators) !== JSON.stringify(experiment.evaluators) &&
        (await this.experiments.hasActiveRun(experiment.id))
      ) {
        throw conflict(
          `Experiment ${experiment.id} has a queued or running run; change its evaluators once it ends`,
          {
            param: "evaluators",
            code: "run_in_progress",
          },
        );
      }
      return await this.experiments.update(experiment, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.datasetVersionId === undefined ? {} : { datasetVersionId: input.datasetVersionId }),
        ...(evaluators === undefined ? {} : { evaluators }),
      });
    });
  }

  /** Cancels the experiment's runs, then deletes it with its variants, runs and results. */
  async delete(principal: Principal, experimentId: string): Promise<void> {
    const experiment = await this.get(principal, experimentId);
    const cancelled = await this.experiments.atomically(async () => {
      const ids = await this.experiments.cancelActiveRuns(experiment.id);
      await this.experiments.delete(principal.organizationId, experiment.id);
      return ids;
    });
    for (const id of cancelled) this.deps.worker.abort(id);
  }

  // ---- variants ----

  async addVariant(principal: Principal, experimentId: string, raw: unknown): Promise<VariantRecord> {
    const input = validate(variantCreateBody, raw);
    const { name, kind, ...fields } = input;
    const config = await this.checkVariant(principal, kind, fields);
    return await this.experiments.atomically(async () => {
      const experiment = await this.get(principal, experimentId);
      const variants = await this.experiments.listVariants(experiment.id);
      if (variants.some((variant) => variant.name === name)) {
        throw conflict(`Experiment ${experiment.id} has a variant named "${name}"`, { param: "name" });
      }
      if (variants.length >= EXPERIMENT_MAX_VARIANTS) {
        throw conflict(`An experiment holds at most ${EXPERIMENT_MAX_VARIANTS} variants`, {
          param: "name",
          code: "variant_limit",
        });
      }
      return await this.experiments.addVariant(experiment.id, { name, kind, config });
    });
  }

  async listVariants(principal: Principal, experimentId: string): Promise<VariantRecord[]> {
    return await this.experiments.listVariants((await this.get(principal, experimentId)).id);
  }

  async getVariant(principal: Principal, experimentId: string, variantId: string): Promise<VariantRecord> {
    const experiment = await this.get(principal, experimentId);
    const variant = await this.experiments.getVariant(experiment.id, variantId);
    if (variant === null) {
      throw notFound(`Experiment ${experiment.id} has no variant ${variantId}`, { param: "variantId" });
    }
    return variant;
  }

  /** Changes a variant's name and its kind's fields (`kind` is immutable); runs keep the variant they started with. */
  async updateVariant(
    principal: Principal,
    experimentId: string,
    variantId: string,
    raw: unknown,
  ): Promise<VariantRecord> {
    const input = validate(variantUpdateBody, raw ?? {});
    const current = await this.getVariant(principal, experimentId, variantId);
    if (input.kind !== undefined && input.kind !== current.kind) {
      throw invalidRequest(`kind is immutable (the variant is a ${current.kind} variant)`, { param: "kind" });
    }
    const { name, kind: _kind, ...changes } = input;
    const merged: Record<string, unknown> = { ...current.config };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    const config = await this.checkVariant(principal, current.kind, merged);
    return await this.experiments.atomically(async () => {
      const variant = await this.getVariant(principal, experimentId, variantId);
      if (name !== undefined && name !== variant.name) {
        const taken = (await this.experiments.listVariants(variant.experimentId)).some(
          (other) => other.name === name,
        );
        if (taken) throw conflict(`The experiment has a variant named "${name}"`, { param: "name" });
      }
      return await this.experiments.updateVariant(variant, { name: name ?? variant.name, config });
    });
  }

  /** Deletes a variant (its runs stay), unless one of its runs is queued or running. */
  async deleteVariant(principal: Principal, experimentId: string, variantId: string): Promise<void> {
    await this.experiments.atomically(async () => {
      const variant = await this.getVariant(principal, experimentId, variantId);
      if (await this.experiments.hasActiveRun(variant.experimentId, variant.id)) {
        throw conflict(`Variant ${variant.id} has a queued or running run; cancel it first`, {
          param: "variantId",
          code: "run_in_progress",
        });
      }
      await this.experiments.deleteVariant(variant.experimentId, variant.id);
    });
  }

  // ---- runs ----

  /** Queues one run per variant (default all) over the experiment's dataset version. */
  async startRuns(principal: Principal, experimentId: string, raw: unknown = {}): Promise<RunView[]> {
    const input = validate(runCreateBody, raw ?? {});
    const org = principal.organizationId;
    const runs = await this.experiments.atomically(async () => {
      const experiment = await this.get(principal, experimentId);
      const variants = await this.experiments.listVariants(experiment.id);
      if (variants.length === 0) {
        throw conflict(`Experiment ${experiment.id} has no variants; add one first`, { code: "no_variants" });
      }
      const chosen =
        input.variantIds === undefined
          ? variants
          : input.variantIds.map((id, index) => {
              const variant = variants.find((candidate) => candidate.id === id);
              if (variant === undefined) {
                throw notFound(`Experiment ${experiment.id} has no variant ${id}`, {
                  param: `variantIds[${index}]`,
                });
              }
              return variant;
            });
      const dataset = await this.deps.datasets.get(principal, experiment.datasetId);
      const versionId = experiment.datasetVersionId ?? dataset.latestVersionId;
      if (versionId === null) {
        throw conflict(
          `Dataset ${dataset.id} has no version; freeze one (POST /v1/datasets/${dataset.id}/versions) or set datasetVersionId`,
          { code: "dataset_version_required" },
        );
      }
      const version = await this.store.datasets.getVersionById(dataset.id, versionId);
      if (version === null) {
        throw conflict(`Dataset version ${versionId} no longer exists`, { code: "dataset_version_required" });
      }
      if (version.itemCount === 0) {
        throw conflict(`Dataset version ${version.id} has no items`, { code: "dataset_empty" });
      }
      return await Promise.all(
        [...new Set(chosen)].map(
          async (variant) =>
            await this.experiments.createRun({
              organizationId: org,
              experimentId: experiment.id,
              variant,
              evaluators: experiment.evaluators,
              datasetId: dataset.id,
              datasetVersionId: version.id,
              total: version.itemCount,
              role: principal.role,
              createdByKeyId: principal.apiKeyId === "" ? null : principal.apiKeyId,
            }),
        ),
      );
    });
    for (const run of runs) await this.deps.worker.enqueue(run);
    const experiment = await this.get(principal, experimentId);
    return await Promise.all(
      runs.map(async (run) => this.runView(experiment, (await this.experiments.runById(run.id)) ?? run)),
    );
  }

  async listRuns(
    principal: Principal,
    experimentId: string,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: RunView[]; total: number }> {
    const filter = validate(runListQuery, query ?? {});
    const experiment = await this.get(principal, experimentId);
    const { items, total } = await this.experiments.listRuns(experiment.id, filter, page);
    return { items: items.map((run) => this.runView(experiment, run)), total };
  }

  async getRun(principal: Principal, experimentId: string, runId: string): Promise<RunView> {
    const experiment = await this.get(principal, experimentId);
    return this.runView(experiment, await this.findRun(experiment, runId));
  }

  /** Cancels a queued or running run; its finished results stay. A terminal run is 409. */
  async cancelRun(principal: Principal, experimentId: string, runId: string): Promise<RunView> {
    const experiment = await this.get(principal, experimentId);
    const run = await this.findRun(experiment, runId);
    if (!(await this.experiments.finishRun(run.id, "cancelled"))) {
      throw conflict(
        `Run ${run.id} has already ended (${(await this.experiments.runById(run.id))?.status ?? run.status})`,
        {
          param: "runId",
        },
      );
    }
    this.deps.worker.abort(run.id);
    return this.runView(experiment, await this.findRun(experiment, run.id));
  }

  /** The run's results in dataset order. */
  async listResults(
    principal: Principal,
    experimentId: string,
    runId: string,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: RunResultRecord[]; total: number }> {
    const filter = validate(resultListQuery, query ?? {});
    const run = await this.findRun(await this.get(principal, experimentId), runId);
    await this.deps.flushTraces?.();
    return await this.experiments.listResults(run.id, filter, page);
  }

  // ---- baseline, regression, comparison ----

  async setBaseline(principal: Principal, experimentId: string, raw: unknown): Promise<ExperimentRecord> {
    const { runId } = validate(baselineBody, raw);
    return await this.experiments.atomically(async () => {
      const experiment = await this.get(principal, experimentId);
      const run = await this.findRun(experiment, runId, "runId");
      if (run.status !== "completed") {
        throw conflict(`Run ${run.id} is ${run.status}; only a completed run can be the baseline`, {
          param: "runId",
          code: "run_not_completed",
        });
      }
      return await this.experiments.update(experiment, { baselineRunId: run.id });
    });
  }

  async clearBaseline(principal: Principal, experimentId: string): Promise<void> {
    await this.experiments.atomically(async () => {
      const experiment = await this.get(principal, experimentId);
      if (experiment.baselineRunId !== null)
        await this.experiments.update(experiment, { baselineRunId: null });
    });
  }

  /** Regression of a completed run against a completed baseline (the experiment's unless given). */
  async regression(
    principal: Principal,
    experimentId: string,
    runId: string,
    query: unknown,
  ): Promise<RegressionReport & { runId: string; baselineRunId: string }> {
    const { baselineRunId, threshold } = validate(regressionQuery, query ?? {});
    const experiment = await this.get(principal, experimentId);
    const run = await this.findRun(experiment, runId);
    const baselineId = baselineRunId ?? experiment.baselineRunId;
    if (baselineId === null) {
      throw conflict(`Experiment ${experiment.id} has no baseline; set one or give baselineRunId`, {
        param: "baselineRunId",
        code: "no_baseline",
      });
    }
    const baseline = await this.findRun(experiment, baselineId, "baselineRunId");
    for (const [which, candidate] of [
      ["runId", run],
      ["baselineRunId", baseline],
    ] as const) {
      if (candidate.status !== "completed") {
        throw conflict(`Run ${candidate.id} is ${candidate.status}; regression compares completed runs`, {
          param: which,
          code: "run_not_completed",
        });
      }
    }
    const report = regression(
      await this.experiments.resultScores(baseline.id),
      await this.experiments.resultScores(run.id),
      evaluatorNames(baseline, run),
      threshold ?? DEFAULT_REGRESSION_THRESHOLD,
    );
    return { runId: run.id, baselineRunId: baseline.id, ...report };
  }

  /** The given runs (default the newest completed run of each variant) side by side, against the baseline. */
  async comparison(principal: Principal, experimentId: string, query: unknown): Promise<Comparison> {
    const { runIds, threshold } = validate(comparisonQuery, query ?? {});
    const experiment = await this.get(principal, experimentId);
    const runs =
      runIds === undefined
        ? await this.experiments.newestCompletedRuns(experiment.id)
        : await Promise.all(runIds.map(async (id) => await this.findRun(experiment, id, "runIds")));
    const baselineRun =
      experiment.baselineRunId === null
        ? null
        : await this.experiments.getRun(experiment.id, experiment.baselineRunId);
    const compared = async (run: ExperimentRunRecord) => ({
      runId: run.id,
      variantId: run.variantId,
      variantName: run.variantName,
      evaluators: run.evaluators.map((evaluator) => evaluator.name),
      totals: run.scoreSums,
      results: await this.experiments.resultScores(run.id),
    });
    const comparedRuns = [];
    for (const run of runs) comparedRuns.push(await compared(run));
    return compareRuns(
      comparedRuns,
      baselineRun === null ? null : await compared(baselineRun),
      threshold ?? DEFAULT_REGRESSION_THRESHOLD,
    );
  }

  // ---- helpers ----

  runView(experiment: ExperimentRecord, run: ExperimentRunRecord): RunView {
    return {
      ...run,
      scores: aggregateScores(
        run.scoreSums,
        run.evaluators.map((evaluator) => evaluator.name),
      ),
      isBaseline: experiment.baselineRunId === run.id,
    };
  }

  private async findRun(
    experiment: ExperimentRecord,
    runId: string,
    param = "runId",
  ): Promise<ExperimentRunRecord> {
    const run = await this.experiments.getRun(experiment.id, runId);
    if (run === null) throw notFound(`Experiment ${experiment.id} has no run ${runId}`, { param });
    return run;
  }

  private async datasetVersion(principal: Principal, datasetId: string, versionId: string) {
    const version = await this.store.datasets.getVersionById(datasetId, versionId);
    if (version === null) {
      throw notFound(`Dataset ${datasetId} has no version ${versionId}`, { param: "datasetVersionId" });
    }
    return this.deps.datasets.getVersion(principal, datasetId, version.id);
  }

  /** Validates the evaluators (params per §9, references resolved) and names them (default: the type). */
  private async checkEvaluators(
    organizationId: string,
    raw: ReadonlyArray<{ name?: string | undefined; type: string; params?: unknown }>,
  ): Promise<ExperimentEvaluator[]> {
    const names = new Set<string>();
    const checked: ExperimentEvaluator[] = [];
    // One after the other: the first invalid evaluator (and the first taken name) is the one named.
    for (const [index, evaluator] of raw.entries()) {
      const prepared = await this.deps.evaluators.prepare(
        organizationId,
        { type: evaluator.type, params: evaluator.params },
        `evaluators[${index}].params`,
      );
      const name = evaluator.name ?? prepared.type;
      if (names.has(name)) {
        throw invalidRequest(
          `evaluators[${index}].name: "${name}" is taken by another evaluator of the experiment (names default to the type)`,
          { param: `evaluators[${index}].name` },
        );
      }
      names.add(name);
      // Stored as given (defaults applied at run time), so a schema-version reference stays a reference.
      const params = (evaluator.params ?? {}) as Record<string, unknown>;
      checked.push({ name, type: prepared.type, params });
    }
    return checked;
  }

  /** The kind's fields validated and their references checked in the organization; the stored config. */
  private async checkVariant(
    principal: Principal,
    kind: VariantKindName,
    fields: unknown,
  ): Promise<Record<string, unknown>> {
    const config = validate(variantFields[kind], fields) as Record<string, unknown>;
    const org = principal.organizationId;
    if (typeof config.model === "string") parseModelString(config.model, "model");
    switch (kind) {
      case "prompt": {
        const ref = String(config.promptId);
        const prompt = ref.startsWith("prm_")
          ? await this.store.prompts.get(org, ref)
          : await this.store.prompts.getByName(org, ref);
        if (prompt === null) throw notFound(`No prompt ${ref}`, { param: "promptId" });
        config.promptId = prompt.id;
        break;
      }
      case "agent": {
        const ref = parseAgentRef(String(config.agent));
        if ((await this.store.agents.getByName(org, ref.name)) === null) {
          throw notFound(`No agent named "${ref.name}"`, { param: "agent" });
        }
        break;
      }
      case "extraction":
        if ((await this.store.schemas.get(org, String(config.schemaId))) === null) {
          throw notFound(`No schema ${String(config.schemaId)}`, { param: "schemaId" });
        }
        break;
      case "model":
        break;
    }
    return { ...config, params: config.params ?? {} };
  }

  private async refuseTakenName(
    organizationId: string,
    name: string,
    exceptId: string | null,
  ): Promise<void> {
    const taken = await this.experiments.findByName(organizationId, name);
    if (taken !== null && taken.id !== exceptId) {
      throw conflict(`An experiment named "${name}" already exists`, { param: "name" });
    }
  }
}

/** The evaluators regression compares: the candidate's, then any only the baseline had. */
function evaluatorNames(baseline: ExperimentRunRecord, run: ExperimentRunRecord): string[] {
  const names = run.evaluators.map((evaluator) => evaluator.name);
  for (const evaluator of baseline.evaluators)
    if (!names.includes(evaluator.name)) names.push(evaluator.name);
  return names;
}
