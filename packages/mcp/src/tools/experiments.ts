/**
 * Experiments (PLATFORM.md §11): the 17 `svc_` tools over /v1/experiments — experiments,
 * variants, runs and their results, the baseline, regression and comparison.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const group = "Experiments";
const experimentId = z.string().min(1).describe("the experiment id (exp_…)");
const variantId = z.string().min(1).describe("the variant id (var_…)");
const runId = z.string().min(1).describe("the run id (xrun_…)");
const evaluators = z
  .array(
    z.object({
      name: z.string().optional().describe("unique in the experiment; default the type"),
      type: z.string().describe("an evaluator type (svc_list_evaluator_types)"),
      params: z.record(z.string(), z.unknown()).optional().describe("the type's params"),
    }),
  )
  .min(1)
  .max(10)
  .describe("1-10 evaluators scoring every item");
const variantFields = {
  promptId: z.string().optional().describe("prompt variants: the prompt (id or name)"),
  promptRef: z
    .union([z.string(), z.number().int()])
    .optional()
    .describe("prompt variants: a label or version number (default production, else latest)"),
  agent: z.string().optional().describe("agent variants: agent/<name>[@ref][#model]"),
  model: z
    .string()
    .optional()
    .describe("the model (model variants; optional override for prompt/extraction)"),
  schemaId: z.string().optional().describe("extraction variants: the schema id"),
  schemaRef: z
    .union([z.string(), z.number().int()])
    .optional()
    .describe("extraction variants: a label, version number or version id (default latest)"),
  strategy: z.enum(["SINGLE_SHOT", "CHUNKED"]).optional().describe("extraction variants: force a strategy"),
  params: z
    .object({
      temperature: z.number().optional(),
      maxTokens: z.number().int().optional(),
      topP: z.number().optional(),
    })
    .optional()
    .describe("sampling parameters"),
};
const threshold = z.number().min(0).max(1).optional().describe("the verdict threshold, 0-1 (default 0.05)");

export const experimentTools = [
  defineTool({
    name: "list_experiments",
    group,
    title: "List experiments",
    description: "Lists the organization's experiments, newest first, optionally those over one dataset.",
    readOnly: true,
    input: { datasetId: z.string().optional().describe("only experiments over this dataset"), ...page },
    run: (client, args) => client.experiments.list(defined(args)),
  }),
  defineTool({
    name: "get_experiment",
    group,
    title: "Get an experiment",
    description: "Reads one experiment with its evaluators, baseline run and variants.",
    readOnly: true,
    input: { experimentId },
    run: (client, args) => client.experiments.get(args.experimentId),
  }),
  defineTool({
    name: "create_experiment",
    group,
    title: "Create an experiment",
    description:
      "Creates an experiment over a dataset (a pinned version, or the latest at run time) with 1-10 evaluators; add variants, then run it.",
    readOnly: false,
    input: {
      name: z.string().min(1).max(200).describe("unique in the organization"),
      description: z.string().nullable().optional().describe("a description, or null"),
      datasetId: z.string().min(1).describe("the dataset (ds_…)"),
      datasetVersionId: z
        .string()
        .nullable()
        .optional()
        .describe("a frozen version (dsv_…); null: the latest"),
      evaluators,
    },
    run: (client, args) => client.experiments.create(defined(args)),
  }),
  defineTool({
    name: "update_experiment",
    group,
    title: "Update an experiment",
    description:
      "Changes the name, description, dataset version or evaluators (evaluators cannot change while a run is queued or running).",
    readOnly: false,
    input: {
      experimentId,
      name: z.string().min(1).max(200).optional().describe("a new name, unique in the organization"),
      description: z.string().nullable().optional().describe("a description, or null"),
      datasetVersionId: z
        .string()
        .nullable()
        .optional()
        .describe("a frozen version (dsv_…); null: the latest"),
      evaluators: evaluators.optional(),
    },
    run: (client, { experimentId: id, ...body }) => client.experiments.update(id, defined(body)),
  }),
  defineTool({
    name: "delete_experiment",
    group,
    title: "Delete an experiment",
    description: "Deletes an experiment (Admin): cancels its runs; variants, runs and results go.",
    readOnly: false,
    destructive: true,
    input: { experimentId },
    run: async (client, args) => {
      await client.experiments.delete(args.experimentId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "add_variant",
    group,
    title: "Add a variant",
    description:
      "Adds a variant (≤ 10): kind prompt (promptId, promptRef?, model?), agent (agent), model (model) or extraction (schemaId, schemaRef?, strategy?, model?).",
    readOnly: false,
    input: {
      experimentId,
      name: z.string().min(1).max(100).describe("unique in the experiment"),
      kind: z.enum(["prompt", "agent", "model", "extraction"]).describe("what the variant runs"),
      ...variantFields,
    },
    run: (client, { experimentId: id, ...body }) =>
      client.experiments.variants.add(
        id,
        defined(body) as Parameters<typeof client.experiments.variants.add>[1],
      ),
  }),
  defineTool({
    name: "get_variants",
    group,
    title: "List an experiment's variants",
    description: "Lists the variants of an experiment in the order they were added.",
    readOnly: true,
    input: { experimentId },
    run: async (client, args) => ({ items: await client.experiments.variants.list(args.experimentId) }),
  }),
  defineTool({
    name: "update_variant",
    group,
    title: "Update a variant",
    description:
      "Changes a variant's name or its kind's fields (kind is immutable); runs keep the variant they started with.",
    readOnly: false,
    input: {
      experimentId,
      variantId,
      name: z.string().min(1).max(100).optional().describe("a new name, unique in the experiment"),
      ...variantFields,
    },
    run: (client, { experimentId: id, variantId: vid, ...body }) =>
      client.experiments.variants.update(id, vid, defined(body)),
  }),
  defineTool({
    name: "delete_variant",
    group,
    title: "Delete a variant",
    description:
      "Deletes a variant (Admin); its runs stay. Refused while one of its runs is queued or running.",
    readOnly: false,
    destructive: true,
    input: { experimentId, variantId },
    run: async (client, args) => {
      await client.experiments.variants.delete(args.experimentId, args.variantId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "run_experiment",
    group,
    title: "Run an experiment",
    description:
      "Starts one durable background run per variant (default all) over the dataset version; poll svc_get_run for progress.",
    readOnly: false,
    input: {
      experimentId,
      variantIds: z.array(z.string()).optional().describe("the variants to run (default all)"),
    },
    run: (client, { experimentId: id, ...body }) => client.experiments.runs.start(id, defined(body)),
  }),
  defineTool({
    name: "get_experiment_runs",
    group,
    title: "List an experiment's runs",
    description: "Lists runs newest first, optionally of one variant or in one status.",
    readOnly: true,
    input: {
      experimentId,
      variantId: z.string().optional().describe("only runs of this variant"),
      status: z
        .enum(["queued", "running", "completed", "failed", "cancelled"])
        .optional()
        .describe("only runs in this status"),
      ...page,
    },
    run: (client, { experimentId: id, ...query }) => client.experiments.runs.list(id, defined(query)),
  }),
  defineTool({
    name: "get_run",
    group,
    title: "Get a run",
    description: "Reads one run: status, progress, per-evaluator scores (mean, count, pass rate) and usage.",
    readOnly: true,
    input: { experimentId, runId },
    run: (client, args) => client.experiments.runs.get(args.experimentId, args.runId),
  }),
  defineTool({
    name: "set_baseline",
    group,
    title: "Set the baseline run",
    description: "Makes a completed run the experiment's baseline for regression and comparison.",
    readOnly: false,
    input: { experimentId, runId },
    run: (client, args) => client.experiments.setBaseline(args.experimentId, args.runId),
  }),
  defineTool({
    name: "clear_baseline",
    group,
    title: "Clear the baseline run",
    description: "Removes the experiment's baseline.",
    readOnly: false,
    input: { experimentId },
    run: async (client, args) => {
      await client.experiments.clearBaseline(args.experimentId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "get_run_results",
    group,
    title: "Get a run's results",
    description:
      "Lists a run's per-item results in dataset order: output, error, latency, usage and each evaluator's score.",
    readOnly: true,
    input: {
      experimentId,
      runId,
      status: z.enum(["completed", "failed"]).optional().describe("only completed or failed items"),
      ...page,
    },
    run: (client, { experimentId: id, runId: rid, ...query }) =>
      client.experiments.runs.results(id, rid, defined(query)),
  }),
  defineTool({
    name: "get_run_regression",
    group,
    title: "Get a run's regression",
    description:
      "Compares a completed run with the baseline (the experiment's unless given): per item and evaluator improved, regressed, unchanged or missing, with totals.",
    readOnly: true,
    input: {
      experimentId,
      runId,
      baselineRunId: z.string().optional().describe("the baseline run (default the experiment's)"),
      threshold,
    },
    run: (client, { experimentId: id, runId: rid, ...query }) =>
      client.experiments.runs.regression(id, rid, defined(query)),
  }),
  defineTool({
    name: "get_experiment_comparison",
    group,
    title: "Compare an experiment's runs",
    description:
      "Puts runs side by side (default the newest completed run of each variant): means per evaluator, deltas to the baseline, improvements and regressions.",
    readOnly: true,
    input: {
      experimentId,
      runIds: z.array(z.string()).min(2).max(10).optional().describe("2-10 runs"),
      threshold,
    },
    run: (client, { experimentId: id, ...query }) => client.experiments.comparison(id, defined(query)),
  }),
];
