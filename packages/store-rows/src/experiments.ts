/**
 * Experiments (PLATFORM.md §11): records, inputs and rows of experiments, variants, runs and
 * run results, for both SQL stores. The JSON columns are TEXT on both (exact text round-trips).
 */
import { int, intOrNull, json } from "./columns.js";

export type ExperimentRunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";
export type VariantKind = "prompt" | "agent" | "model" | "extraction";

export interface ExperimentEvaluator {
  name: string;
  type: string;
  params: Record<string, unknown>;
}

export interface ExperimentRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  datasetId: string;
  datasetVersionId: string | null;
  evaluators: ExperimentEvaluator[];
  baselineRunId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface VariantRecord {
  id: string;
  experimentId: string;
  name: string;
  kind: VariantKind;
  /** The kind's fields and `params`, as the API shows them. */
  config: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** Per evaluator: the sum of scores, how many were scored and how many passed. */
export type ScoreSums = Record<string, { sum: number; count: number; passed: number }>;

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  costEur: number;
}

export interface ExperimentRunRecord {
  id: string;
  organizationId: string;
  experimentId: string;
  variantId: string;
  variantName: string;
  /** The variant as it was when the run was started. */
  variant: VariantRecord;
  /** The experiment's evaluators as they were when the run was started. */
  evaluators: ExperimentEvaluator[];
  datasetId: string;
  datasetVersionId: string;
  status: ExperimentRunStatus;
  total: number;
  completed: number;
  failed: number;
  scoreSums: ScoreSums;
  usage: RunUsage;
  /** What the worker resolved when it first ran the run (a prompt version, …); reused on resume. */
  plan: Record<string, unknown> | null;
  error: string | null;
  jobId: string | null;
  role: string;
  createdByKeyId: string | null;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
}

export interface RunScore {
  name: string;
  value: number | null;
  passed: boolean | null;
  comment: string | null;
  error: string | null;
}

export interface RunResultRecord {
  id: string;
  organizationId: string;
  runId: string;
  datasetItemId: string;
  position: number;
  status: "completed" | "failed";
  input: unknown;
  expectedOutput: unknown;
  output: string | null;
  error: string | null;
  latencyMs: number;
  usage: RunUsage;
  /** The item's trace (`trc_…`) once it is stored; null when not traced or not sampled. */
  traceId: string | null;
  scores: RunScore[];
  createdAt: number;
}

export type RunResultInsert = Omit<RunResultRecord, "id" | "createdAt" | "traceId"> & {
  /** The OpenTelemetry trace id of the item's `experiment_item` span, resolved to its trace at read. */
  otelTraceId: string | null;
};

export interface ExperimentRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  dataset_id: string;
  dataset_version_id: string | null;
  evaluators: string;
  baseline_run_id: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface ExperimentVariantRow {
  id: string;
  experiment_id: string;
  name: string;
  kind: VariantKind;
  config: string;
  created_at: unknown;
  updated_at: unknown;
}

export interface ExperimentRunRow {
  id: string;
  organization_id: string;
  experiment_id: string;
  variant_id: string;
  variant_name: string;
  variant: string;
  evaluators: string;
  dataset_id: string;
  dataset_version_id: string;
  status: ExperimentRunStatus;
  total: unknown;
  completed: unknown;
  failed: unknown;
  score_sums: string;
  input_tokens: unknown;
  output_tokens: unknown;
  cost_eur: unknown;
  plan: string | null;
  error: string | null;
  job_id: string | null;
  role: string;
  created_by_key_id: string | null;
  created_at: unknown;
  started_at: unknown;
  completed_at: unknown;
}

export interface RunResultRow {
  id: string;
  organization_id: string;
  run_id: string;
  dataset_item_id: string;
  position: unknown;
  status: "completed" | "failed";
  input: string;
  expected_output: string;
  output: string | null;
  error: string | null;
  latency_ms: unknown;
  usage: string;
  trace_id: string | null;
  /** The trace of `trace_id` (an OpenTelemetry trace id), looked up at read: traces are written after the result. */
  trace_ref?: string | null;
  scores: string;
  created_at: unknown;
}

export const toExperiment = (row: ExperimentRow): ExperimentRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  description: row.description,
  datasetId: row.dataset_id,
  datasetVersionId: row.dataset_version_id,
  evaluators: json<ExperimentEvaluator[]>(row.evaluators),
  baselineRunId: row.baseline_run_id,
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

export const toExperimentVariant = (row: ExperimentVariantRow): VariantRecord => ({
  id: row.id,
  experimentId: row.experiment_id,
  name: row.name,
  kind: row.kind,
  config: json<Record<string, unknown>>(row.config),
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

export const toExperimentRun = (row: ExperimentRunRow): ExperimentRunRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  experimentId: row.experiment_id,
  variantId: row.variant_id,
  variantName: row.variant_name,
  variant: json<VariantRecord>(row.variant),
  evaluators: json<ExperimentEvaluator[]>(row.evaluators),
  datasetId: row.dataset_id,
  datasetVersionId: row.dataset_version_id,
  status: row.status,
  total: int(row.total),
  completed: int(row.completed),
  failed: int(row.failed),
  scoreSums: json<ScoreSums>(row.score_sums),
  usage: {
    inputTokens: int(row.input_tokens),
    outputTokens: int(row.output_tokens),
    costEur: int(row.cost_eur),
  },
  plan: row.plan === null ? null : json<Record<string, unknown>>(row.plan),
  error: row.error,
  jobId: row.job_id,
  role: row.role,
  createdByKeyId: row.created_by_key_id,
  createdAt: int(row.created_at),
  startedAt: intOrNull(row.started_at),
  completedAt: intOrNull(row.completed_at),
});

export const toRunResult = (row: RunResultRow): RunResultRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  runId: row.run_id,
  datasetItemId: row.dataset_item_id,
  position: int(row.position),
  status: row.status,
  input: JSON.parse(row.input) as unknown,
  expectedOutput: JSON.parse(row.expected_output) as unknown,
  output: row.output,
  error: row.error,
  latencyMs: int(row.latency_ms),
  usage: json<RunUsage>(row.usage),
  traceId: row.trace_ref ?? null,
  scores: json<RunScore[]>(row.scores),
  createdAt: int(row.created_at),
});

export interface NewExperiment {
  name: string;
  description: string | null;
  datasetId: string;
  datasetVersionId: string | null;
  evaluators: ExperimentEvaluator[];
}

export interface NewRun {
  organizationId: string;
  experimentId: string;
  variant: VariantRecord;
  evaluators: ExperimentEvaluator[];
  datasetId: string;
  datasetVersionId: string;
  total: number;
  role: string;
  createdByKeyId: string | null;
}

/** The run statuses a run is active in, as an SQL list. */
export const ACTIVE_RUN_STATUSES = "('queued', 'running')";

/** The prompt a variant uses (what `usesPrompt` looks up), or null. */
export function promptIdOf(variant: Pick<VariantRecord, "kind" | "config">): string | null {
  return variant.kind === "prompt" && typeof variant.config.promptId === "string"
    ? variant.config.promptId
    : null;
}

/** `[[evaluator, value], …]` of a result's scores: the column regression reads. */
export const scoreValuesOf = (scores: readonly RunScore[]): string =>
  JSON.stringify(scores.map((score) => [score.name, score.value]));

/** A result's scores as regression reads them back from `score_values`. */
export const fromScoreValues = (text: unknown): Array<{ name: string; value: number | null }> =>
  json<Array<[string, number | null]>>(text).map(([name, value]) => ({ name, value }));
