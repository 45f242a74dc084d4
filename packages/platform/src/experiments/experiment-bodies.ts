/**
 * The bodies and limits of the Experiments group (PLATFORM.md §11). The routes validate with
 * these schemas and the service validates again (library calls come without a route).
 * Variant kinds are the contract's `prompt | agent | model` plus `extraction` (decision EX1).
 */
import { z } from "zod";

export const EXPERIMENT_MAX_EVALUATORS = 10;
export const EXPERIMENT_MAX_VARIANTS = 10;
/** Items of a run in flight at once (PLATFORM.md §11: 4 at a time in dataset order). */
export const EXPERIMENT_ITEM_CONCURRENCY = 4;
/** Evaluator names are score names (PLATFORM.md §10), so they follow that pattern (decision EX3). */
const EVALUATOR_NAME = /^[A-Za-z0-9_.:-]+$/;

const name = z
  .string({ error: "is required (a string)" })
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
const description = z.string().max(4000, "must be at most 4000 characters").nullable();
const datasetVersionId = z.string().min(1, "must not be empty").nullable();

export const experimentEvaluator = z.object({
  name: z
    .string()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .regex(EVALUATOR_NAME, "must match ^[A-Za-z0-9_.:-]+$ (it names the evaluator's scores)")
    .optional(),
  type: z.string({ error: "is required (an evaluator type)" }),
  params: z.unknown().optional(),
});

const evaluators = z
  .array(experimentEvaluator, { error: "must be an array of evaluators" })
  .min(1, "must hold at least one evaluator")
  .max(EXPERIMENT_MAX_EVALUATORS, `must hold at most ${EXPERIMENT_MAX_EVALUATORS} evaluators`);

export const experimentCreateBody = z.object({
  name,
  description: description.optional(),
  datasetId: z.string({ error: "is required (a dataset id)" }).min(1, "must not be empty"),
  datasetVersionId: datasetVersionId.optional(),
  evaluators,
});
export type ExperimentCreateInput = z.input<typeof experimentCreateBody>;

export const experimentUpdateBody = z.object({
  name: name.optional(),
  description: description.optional(),
  datasetVersionId: datasetVersionId.optional(),
  evaluators: evaluators.optional(),
});
export type ExperimentUpdateInput = z.input<typeof experimentUpdateBody>;

export const experimentListQuery = z.object({ datasetId: z.string().min(1).optional() });

const params = z
  .object({
    temperature: z.number().min(0, "must be ≥ 0").max(2, "must be ≤ 2").optional(),
    maxTokens: z.number().int("must be an integer").min(1, "must be ≥ 1").max(1_000_000).optional(),
    topP: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").optional(),
  })
  .strict();
const modelString = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const versionRef = z.union([
  z.string().trim().min(1, "must not be empty").max(100),
  z.number().int().min(1, "must be a version number ≥ 1"),
]);
const variantName = z
  .string({ error: "is required (a string)" })
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");

/** The kind's fields, without name and kind (what PATCH may change). */
export const variantFields = {
  prompt: z.object({
    promptId: z.string({ error: "is required (a prompt id)" }).min(1, "must not be empty"),
    promptRef: versionRef.optional(),
    model: modelString.optional(),
    params: params.optional(),
  }),
  agent: z.object({
    agent: z
      .string({ error: "is required (agent/<name>[@ref][#model])" })
      .trim()
      .regex(/^agent\/[^@#]+(@[^#]+)?(#.+)?$/, "must be agent/<name>[@ref][#model]"),
    params: params.optional(),
  }),
  model: z.object({
    model: modelString,
    params: params.optional(),
  }),
  extraction: z.object({
    schemaId: z.string({ error: "is required (a schema id)" }).min(1, "must not be empty"),
    schemaRef: versionRef.optional(),
    strategy: z.enum(["SINGLE_SHOT", "CHUNKED"]).optional(),
    model: modelString.optional(),
    params: params.optional(),
  }),
} as const;

export const VARIANT_KINDS = ["prompt", "agent", "model", "extraction"] as const;
export type VariantKindName = (typeof VARIANT_KINDS)[number];

export const variantCreateBody = z.discriminatedUnion(
  "kind",
  [
    variantFields.prompt.extend({ name: variantName, kind: z.literal("prompt") }),
    variantFields.agent.extend({ name: variantName, kind: z.literal("agent") }),
    variantFields.model.extend({ name: variantName, kind: z.literal("model") }),
    variantFields.extraction.extend({ name: variantName, kind: z.literal("extraction") }),
  ],
  { error: `kind must be one of ${VARIANT_KINDS.join(", ")}` },
);
export type VariantCreateInput = z.input<typeof variantCreateBody>;

/** Any variant field; the result is checked against the variant's kind by the service. */
export const variantUpdateBody = z.object({
  name: variantName.optional(),
  kind: z.enum(VARIANT_KINDS).optional(),
  promptId: z.string().min(1).optional(),
  promptRef: versionRef.nullable().optional(),
  agent: z.string().optional(),
  model: modelString.nullable().optional(),
  schemaId: z.string().min(1).optional(),
  schemaRef: versionRef.nullable().optional(),
  strategy: z.enum(["SINGLE_SHOT", "CHUNKED"]).nullable().optional(),
  params: params.optional(),
});
export type VariantUpdateInput = z.input<typeof variantUpdateBody>;

export const runCreateBody = z.object({
  variantIds: z
    .array(z.string().min(1, "must not be empty"), { error: "must be an array of variant ids" })
    .min(1, "must name at least one variant")
    .max(EXPERIMENT_MAX_VARIANTS)
    .optional(),
});
export type RunCreateInput = z.input<typeof runCreateBody>;

export const RUN_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export const runListQuery = z.object({
  variantId: z.string().min(1).optional(),
  status: z.enum(RUN_STATUSES, { error: `status must be one of ${RUN_STATUSES.join(", ")}` }).optional(),
});

export const resultListQuery = z.object({
  status: z.enum(["completed", "failed"], { error: "status must be completed or failed" }).optional(),
});

const threshold = z.coerce
  .number({ error: "must be a number between 0 and 1" })
  .min(0, "must be between 0 and 1")
  .max(1, "must be between 0 and 1")
  .optional();

export const regressionQuery = z.object({
  baselineRunId: z.string().min(1).optional(),
  threshold,
});

export const comparisonQuery = z.object({
  runIds: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== ""),
    )
    .pipe(z.array(z.string()).min(2, "must name 2–10 runs").max(10, "must name 2–10 runs"))
    .optional(),
  threshold,
});

export const baselineBody = z.object({
  runId: z.string({ error: "is required (a run id)" }).min(1, "must not be empty"),
});
