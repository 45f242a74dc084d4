/** Request and response shapes of the /v1 API as the client sends and reads them. */
import type { ChatRequest } from "@groundwork/core";

export type JsonObject = Record<string, unknown>;

export interface PageQuery {
  page?: number;
  size?: number;
}

/** The page envelope of list endpoints (docs/decisions.md F10). */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export interface ListOf<T> {
  object: "list";
  data: T[];
}

/** A chat-completions request body (stream is set by the client method). */
export type ChatCompletionBody = ChatRequest & { parallel_tool_calls?: boolean; user?: string };

export type { ChatCompletion, ChatMessage } from "@groundwork/core";

export interface ResponsesBody {
  model: string;
  input: string | JsonObject[];
  instructions?: string;
  tools?: JsonObject[];
  temperature?: number;
  max_output_tokens?: number;
  previous_response_id?: string;
  [field: string]: unknown;
}

export interface EmbeddingsBody {
  model: string;
  input: string | string[];
  dimensions?: number;
  encoding_format?: "float" | "base64";
  user?: string;
}

export interface ModelEntry {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

export interface ProviderBody {
  name: string;
  provider: string;
  apiKey?: string;
  config: JsonObject;
}

export interface Provider {
  id: string;
  name: string;
  provider: string;
  prefix: string | null;
  config: JsonObject;
  hasApiKey: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderTestResult {
  success: boolean;
  message: string;
  models: string[];
}

export interface EmbeddingModelCatalogue {
  models: Array<{ id: string; dimensions: number }>;
  supportedDimensions: number[];
}

export interface ExtractionBody {
  schemaId: string;
  schemaVersionId?: string;
  inputText?: string;
  inputImages?: Array<{ data: string; mimeType: string }>;
  /** An uploaded file (`POST /v1/files`) converted to Markdown as the input text; spans then carry pages and PDF boxes. */
  fileId?: string;
  model: string;
}

/**
 * Where a grounded value lies in the extraction's input text (docs/provenance.md): offsets in Unicode
 * code points, `end` exclusive.
 */
export interface GroundingSpan {
  start: number;
  end: number;
  page?: number;
  bbox?: [number, number, number, number];
}

/** A field's `grounding` in `resultMetadata.scoring` of an extraction result. */
export interface FieldGrounding {
  score: number;
  basis:
    | "exact_match"
    | "normalized_match"
    | "partial_match"
    | "unverifiable"
    | "not_found"
    | "default_absent"
    | "system_assigned";
  /** For exact, normalized and partial matches, and located numbers. */
  spans?: GroundingSpan[];
}

export interface ConvertSourceBody {
  sources: Array<
    | { kind: "http"; url: string; headers?: Record<string, string> }
    | { kind: "base64"; content: string; filename?: string; mimeType?: string }
  >;
  options?: JsonObject;
}

export interface ConvertFileInput {
  files: Array<{ file: Blob; filename: string }>;
  pipeline?: "fast" | "ocr" | "vlm";
  options?: JsonObject;
}

/** `GET /v1/me`: the member is the API key. */
export interface Me {
  keyId: string;
  organizationId: string;
  role: string;
  plan: string;
}

/** A memory write (`POST /v1/me/memory/file`); the server checks which fields each command needs. */
export interface MemoryWriteCommand {
  command: "create" | "str_replace" | "insert" | "rename";
  path: string;
  content?: string;
  overwrite?: boolean;
  oldStr?: string;
  newStr?: string;
  insertLine?: number;
  insertText?: string;
  newPath?: string;
  ifMatch?: string;
}

export interface ErasedMemory {
  memberId: string;
  deletedFiles: number;
  freedBytes: number;
}

/** Scores (PLATFORM.md §10). */
export type ScoreSubjectType =
  | "trace"
  | "response"
  | "extraction"
  | "run_result"
  | "conversation"
  | "dataset_item";
export type ScoreDataType = "NUMERIC" | "CATEGORICAL" | "BOOLEAN";
export type ScoreSource = "HUMAN" | "API" | "EVAL";

/** `POST /v1/scores`; `value` must match `dataType` (finite number, string 1–100, boolean). */
export interface ScoreRecordBody {
  subjectType: ScoreSubjectType;
  subjectId: string;
  name: string;
  dataType: ScoreDataType;
  value: number | string | boolean;
  comment?: string | null;
  source?: "HUMAN" | "API";
}

export interface Score {
  id: string;
  subjectType: ScoreSubjectType;
  subjectId: string;
  name: string;
  dataType: ScoreDataType;
  value: number | string | boolean;
  comment: string | null;
  source: ScoreSource;
  queueItemId: string | null;
  createdByKeyId: string | null;
  createdAt: string;
}

export interface ScoreListQuery extends PageQuery {
  subjectType?: ScoreSubjectType;
  subjectId?: string;
  name?: string;
  source?: ScoreSource;
  dataType?: ScoreDataType;
  from?: string;
  to?: string;
}

/** An evaluator type (`GET /v1/evaluators/types`). */
export interface EvaluatorTypeInfo {
  type: string;
  description: string;
  needsExpectedOutput: boolean;
  paramsSchema: JsonObject;
}

/** A judge template's scale: numeric (min < max), boolean, or 2–20 categories with values in [0, 1]. */
export type EvaluatorScale =
  | { type: "numeric"; min: number; max: number }
  | { type: "boolean" }
  | { type: "categorical"; categories: Array<{ label: string; value: number }> };

/** `POST /v1/evaluators/templates`; `PATCH` takes any of these fields. */
export interface EvaluatorTemplateBody {
  name: string;
  description?: string | null;
  prompt: string;
  model: string;
  scale: EvaluatorScale;
}

/** `POST /v1/evaluators/evaluate`: exactly one of `cases` or `datasetId` (+ `outputs`). */
export interface EvaluationBody {
  evaluator: { type: string; params?: JsonObject };
  cases?: Array<{ input?: unknown; output: unknown; expectedOutput?: unknown; metadata?: unknown }>;
  datasetId?: string;
  /** A version id or number of the dataset: its frozen items. */
  version?: string | number;
  outputs?: Array<{ itemId: string; output: unknown }>;
  /** The recorded scores' name (default the type, or `llm_judge:<templateId>`). */
  scoreName?: string;
  /** Record the dataset items' scores (default true). */
  record?: boolean;
}

export interface EvaluationReport {
  evaluator: { type: string; templateId: string | null; templateVersion: number | null };
  scoreName: string;
  datasetId: string | null;
  datasetVersionId: string | null;
  results: Array<{
    itemId: string | null;
    score: number | null;
    passed: boolean | null;
    comment: string | null;
    skipped: boolean;
    reason: string | null;
    error: string | null;
    scoreId: string | null;
  }>;
  summary: {
    cases: number;
    scored: number;
    skipped: number;
    failed: number;
    meanScore: number | null;
    passRate: number | null;
  };
}

export interface EvaluatorTemplate {
  id: string;
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  scale: EvaluatorScale;
  version: number;
  createdAt: string;
  updatedAt: string;
}

// ---- datasets (PLATFORM.md §8) ----

export interface Dataset {
  id: string;
  object: "dataset";
  name: string;
  description: string | null;
  metadata: JsonObject;
  itemCount: number;
  latestVersionId: string | null;
  latestVersionNumber: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface DatasetBody {
  name: string;
  description?: string | null;
  metadata?: JsonObject;
}

export interface DatasetItem {
  id: string;
  object: "dataset_item";
  datasetId: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: JsonObject;
  sourceTraceId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DatasetItemBody {
  input: unknown;
  expectedOutput?: unknown;
  metadata?: JsonObject;
  sourceTraceId?: string | null;
}

export interface DatasetVersion {
  id: string;
  object: "dataset_version";
  datasetId: string;
  versionNumber: number;
  description: string | null;
  itemCount: number;
  createdAt: string;
}

// ---- annotation queues (PLATFORM.md §12) ----

/** A score reviewers give per item: `min`/`max` for NUMERIC, 2–50 `categories` for CATEGORICAL. */
export interface QueueScoreConfig {
  name: string;
  dataType: ScoreDataType;
  min?: number | null | undefined;
  max?: number | null | undefined;
  categories?: string[] | null | undefined;
}

/** `POST /v1/annotation-queues`; `PATCH` takes any of these fields. */
export interface AnnotationQueueBody {
  name: string;
  description?: string | null;
  scoreConfigs: QueueScoreConfig[];
}

export interface AnnotationQueue {
  id: string;
  name: string;
  description: string | null;
  scoreConfigs: QueueScoreConfig[];
  status: "ACTIVE" | "ARCHIVED";
  counts: { pending: number; completed: number };
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export type QueueItemStatus = "PENDING" | "COMPLETED";

export interface QueueItem {
  id: string;
  queueId: string;
  subjectType: ScoreSubjectType;
  subjectId: string;
  status: QueueItemStatus;
  /** The member (API key id) holding the lock; the lock has expired once `lockedUntil` is past. */
  lockedByKeyId: string | null;
  lockedUntil: string | null;
  completedByKeyId: string | null;
  completedAt: string | null;
  scoreIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface QueueSubject {
  subjectType: ScoreSubjectType;
  subjectId: string;
}

/** `PATCH …/items/{itemId}`: scores named by the queue's configs; `COMPLETED` needs every config scored. */
export interface QueueItemUpdateBody {
  status?: QueueItemStatus;
  scores?: Array<{ name: string; value: number | string | boolean; comment?: string | null | undefined }>;
}

// ---- prompts (PLATFORM.md §7) ----

export type PromptType = "text" | "chat";

export interface PromptMessage {
  role: "system" | "developer" | "user" | "assistant";
  content: string;
}

/** `model`, `temperature`, `maxTokens`, `topP` are read by test and experiments; other keys are kept. */
export interface PromptConfig {
  model?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  [key: string]: unknown;
}

export interface PromptCreateBody {
  name: string;
  type: PromptType;
  description?: string | null;
  tags?: string[];
  /** With it, version 1 is created (and `labels` set on it). */
  prompt?: string | PromptMessage[];
  config?: PromptConfig;
  labels?: string[];
}

export interface PromptVersionBody {
  prompt: string | PromptMessage[];
  config?: PromptConfig;
  changeDescription?: string | null;
  labels?: string[];
}

export interface PromptCompileBody {
  variables?: Record<string, unknown>;
  label?: string;
  version?: number;
}

export interface PromptTestBody extends PromptCompileBody {
  model?: string;
  config?: PromptConfig;
}

/** `POST /v1/skills/import`: a file map of UTF-8 texts, or a zip sent as the multipart `file`. */
export type SkillImportInput =
  | { files: Record<string, string>; changeDescription?: string | null }
  | { zip: Blob; filename?: string; changeDescription?: string | null };

export interface SkillImportResult {
  result: "created" | "versioned" | "unchanged";
  skill: JsonObject;
  version: JsonObject;
}

export type PluginSourceInput = { sourceUrl: string } | { zip: Blob; filename?: string };

export interface Plugin {
  id: string;
  name: string;
  version: string;
  description: string | null;
  manifest: JsonObject;
  source: { type: "upload" | "url"; url: string | null };
  components: { skillIds: string[]; connectorIds: string[]; agentIds: string[] };
  warnings: string[];
  installedAt: string;
  updatedAt: string;
  lastSyncedAt: string | null;
}

export interface PluginResult {
  plugin: Plugin;
  changes: {
    skills: { created: string[]; versioned: string[]; unchanged: string[]; removed: string[] };
    connectors: { created: string[]; updated: string[]; removed: string[] };
    agents: { created: string[]; versioned: string[]; unchanged: string[]; removed: string[] };
  };
  warnings: string[];
}

export interface ResolvedSkill {
  skillId: string;
  qualifiedName: string;
  namespace: string | null;
  name: string;
  description: string;
  versionId: string;
  versionNumber: number;
  ref: string;
  label: string | null;
}

export interface AgentCatalogTool {
  name: string;
  type: string;
  description: string | null;
  class: "read" | "write" | "destructive" | null;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  offered: boolean;
  deferred: boolean;
  reason: string | null;
}

export interface AgentToolCatalogs {
  agentId: string;
  agentVersionId: string;
  catalogs: Array<{ catalog: string; tools: AgentCatalogTool[]; reason: string | null }>;
}

export interface AgentSkills {
  agentId: string;
  agentVersionId: string;
  versionNumber: number;
  skills: Array<{
    binding: string;
    source: "skills" | "platform.skill";
    status: "resolved" | "skill_not_found" | "ref_not_found" | "ambiguous_skill";
    resolved: ResolvedSkill | null;
  }>;
}

/** `POST /v1/connectors` (Admin). */
export interface ConnectorCreate {
  serverLabel: string;
  url: string;
  authKind?: "none" | "bearer" | "oauth";
  description?: string | null;
  agentIds?: string[] | null;
  enabled?: boolean;
}

/** `PATCH /v1/connectors/{connectorId}` (Admin). */
export type ConnectorUpdate = Partial<Omit<ConnectorCreate, "serverLabel">>;

/** `POST /v1/connector-inputs/{inputRequestId}/answer`. */
export interface ConnectorInputAnswer {
  action: "accept" | "decline" | "cancel";
  content?: JsonObject;
}

// ---- analytics (PLATFORM.md §14) ----

/** The common query of every analytics endpoint; instants are ISO 8601 with an offset or Z. */
export interface AnalyticsQuery {
  /** Default: `to` − 7 days. */
  from?: string;
  /** Default: now. */
  to?: string;
  /** Default `hour` for spans up to 48 hours, else `day`; `hour` over more than 7 days is refused. */
  bucket?: "hour" | "day";
  model?: string;
  surface?: "CHAT" | "VISION" | "EMBEDDINGS" | "RESPONSES" | "AUDIO";
  byok?: boolean;
}

/** Analytics of extractions: the common query plus a schema filter. */
export interface ExtractionAnalyticsQuery extends AnalyticsQuery {
  schemaId?: string;
}

export interface LatencyPercentiles {
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

export interface UsageAnalyticsPoint extends LatencyPercentiles {
  requests: number;
  errors: number;
  totalTokens: number;
  costEur: number;
}

export interface AnalyticsSummary extends LatencyPercentiles {
  from: string;
  to: string;
  requests: number;
  errors: number;
  errorRate: number | null;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costEur: number;
}

export interface AnalyticsTimeseries {
  from: string;
  to: string;
  bucket: "hour" | "day";
  points: Array<{ start: string } & UsageAnalyticsPoint>;
}

export interface AnalyticsProviders {
  from: string;
  to: string;
  providers: Array<{ provider: string } & UsageAnalyticsPoint>;
}

export interface AnalyticsErrors {
  from: string;
  to: string;
  total: number;
  errors: Array<{ code: string | null; status: number | null; count: number; lastAt: string }>;
}

export interface QualityRates {
  meanConfidence: number | null;
  flaggedShare: number | null;
  validationFailureRate: number | null;
}

export interface AnalyticsSchemas {
  from: string;
  to: string;
  schemas: Array<
    {
      schemaId: string;
      schemaName: string | null;
      extractions: number;
      completed: number;
      failed: number;
    } & QualityRates
  >;
}

export interface AnalyticsQuality extends QualityRates {
  from: string;
  to: string;
  extractions: number;
  failureRate: number | null;
  humanScores: Array<{ name: string; dataType: ScoreDataType; count: number; mean: number | null }>;
}

export interface AnalyticsQualityTrend {
  from: string;
  to: string;
  bucket: "hour" | "day";
  points: Array<{ start: string; extractions: number; humanScoreMean: number | null } & QualityRates>;
}

// ---- billing (PLATFORM.md §15) ----

export type BillingResource =
  | "usage_eur"
  | "pages"
  | "storage_bytes"
  | "requests_per_minute"
  | "seats"
  | "byok";

/** A plan's limits: null is unlimited; `byok` is a feature flag. */
export interface BillingLimits {
  usage_eur: number | null;
  pages: number | null;
  storage_bytes: number | null;
  requests_per_minute: number | null;
  seats: number | null;
  byok: boolean;
}

/** `GET /v1/billing/tiers` entries. */
export interface BillingTier {
  plan: "free" | "team" | "business" | "enterprise";
  name: "Free" | "Team" | "Business" | "Enterprise";
  limits: BillingLimits;
}

/** `GET /v1/billing/tier`: the caller's tier and the current UTC month (`periodEnd` exclusive). */
export interface BillingTierView extends BillingTier {
  periodStart: string;
  periodEnd: string;
}

/** One entry of `GET /v1/billing/limits`. */
export interface BillingLimit {
  resource: BillingResource;
  unit: "eur" | "pages" | "bytes" | "requests" | "keys" | "feature";
  limit: number | boolean | null;
  used: number | null;
  remaining: number | null;
  resetsAt: string | null;
}

/** `POST /v1/billing/check`: `remaining` is before the amount. */
export interface BillingCheck {
  allowed: boolean;
  reason:
    | "usage_exhausted"
    | "pages_exhausted"
    | "storage_exhausted"
    | "rate_limit_exceeded"
    | "seats_exhausted"
    | "plan_required"
    | null;
  remaining: number | null;
  resetsAt: string | null;
}

// ---- experiments (PLATFORM.md §11) ----

export interface ExperimentEvaluator {
  name: string;
  type: string;
  params: JsonObject;
}

export interface Experiment {
  id: string;
  object: "experiment";
  name: string;
  description: string | null;
  datasetId: string;
  datasetVersionId: string | null;
  evaluators: ExperimentEvaluator[];
  baselineRunId: string | null;
  createdAt: string;
  updatedAt: string;
  /** On `GET /v1/experiments/{id}` only. */
  variants?: ExperimentVariant[];
}

export interface ExperimentBody {
  name: string;
  description?: string | null;
  datasetId: string;
  datasetVersionId?: string | null;
  /** 1–10; `name` defaults to the type. */
  evaluators: Array<{ name?: string | undefined; type: string; params?: JsonObject | undefined }>;
}

export interface VariantParams {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
}

/** A variant body by kind; `extraction` is Groundwork's addition to `prompt | agent | model`. */
export type ExperimentVariantBody = { name: string; params?: VariantParams } & (
  | { kind: "prompt"; promptId: string; promptRef?: string | number; model?: string }
  | { kind: "agent"; agent: string }
  | { kind: "model"; model: string }
  | {
      kind: "extraction";
      schemaId: string;
      schemaRef?: string | number;
      strategy?: "SINGLE_SHOT" | "CHUNKED";
      model?: string;
    }
);

export interface ExperimentVariant {
  id: string;
  object: "experiment_variant";
  experimentId: string;
  name: string;
  kind: "prompt" | "agent" | "model" | "extraction";
  params: VariantParams;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export type ExperimentRunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  costEur: number;
}

export interface ExperimentRun {
  id: string;
  object: "experiment_run";
  experimentId: string;
  variantId: string;
  variantName: string;
  datasetVersionId: string;
  status: ExperimentRunStatus;
  progress: { total: number; completed: number; failed: number };
  scores: Record<string, { mean: number; count: number; passRate: number }>;
  isBaseline: boolean;
  error: string | null;
  usage: RunUsage;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface RunResult {
  id: string;
  object: "experiment_run_result";
  runId: string;
  datasetItemId: string;
  status: "completed" | "failed";
  input: unknown;
  expectedOutput: unknown;
  output: string | null;
  error: string | null;
  latencyMs: number;
  usage: RunUsage;
  traceId: string | null;
  scores: Array<{
    name: string;
    value: number | null;
    passed: boolean | null;
    comment: string | null;
    error: string | null;
  }>;
  createdAt: string;
}

export type RegressionVerdict = "improved" | "regressed" | "unchanged" | "missing";
export type VerdictCounts = Record<RegressionVerdict, number>;

export interface RunRegression {
  runId: string;
  baselineRunId: string;
  threshold: number;
  items: Array<{
    datasetItemId: string;
    evaluator: string;
    baseline: number | null;
    candidate: number | null;
    delta: number | null;
    verdict: RegressionVerdict;
  }>;
  /** Totals over every item × evaluator pair, and the same per evaluator. */
  summary: VerdictCounts & { byEvaluator: Record<string, VerdictCounts> };
}

export interface ExperimentComparison {
  runs: Array<{
    runId: string;
    variantId: string;
    variantName: string;
    means: Record<string, number | null>;
    deltaVsBaseline: Record<string, number | null> | null;
    improvements: number;
    regressions: number;
  }>;
  baselineRunId: string | null;
}

/** Tracing (PLATFORM.md §13). */
export interface TracingSettings {
  enabled: boolean;
  samplingRate: number;
  captureContent: boolean;
  retentionDays: number;
  export: { endpoint: string; headerNames: string[] } | null;
  exportFailures: number;
  lastExportError: string | null;
  updatedAt: string | null;
}

/** `PUT /v1/tracing/settings`: the fields sent change. */
export interface TracingSettingsBody {
  enabled?: boolean;
  samplingRate?: number;
  captureContent?: boolean;
  retentionDays?: number;
  export?: { endpoint: string; headers?: Record<string, string> | undefined } | null;
}

export type TraceKind = "gateway" | "agent" | "extraction" | "conversion" | "kb_search" | "experiment";

export interface Trace {
  id: string;
  otelTraceId: string;
  kind: TraceKind | null;
  name: string | null;
  status: "ok" | "error";
  sessionId: string | null;
  agentId: string | null;
  model: string | null;
  responseId: string | null;
  requestId: string | null;
  startTime: string;
  endTime: string;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  costEur: number;
  spanCount: number;
}

export interface TraceSpan {
  id: string;
  otelSpanId: string;
  parentSpanId: string | null;
  name: string;
  startTime: string;
  endTime: string;
  durationMs: number;
  status: "ok" | "error";
  statusMessage: string | null;
  attributes: Record<string, unknown>;
  children: TraceSpan[];
}

export interface TraceDetail extends Trace {
  spans: TraceSpan[];
}

export interface TraceListQuery extends PageQuery {
  from?: string;
  to?: string;
  kind?: TraceKind;
  status?: "ok" | "error";
  model?: string;
  agentId?: string;
  sessionId?: string;
}

export interface TraceSession {
  sessionId: string;
  agentId: string | null;
  agentName: string | null;
  traceCount: number;
  firstTraceAt: string;
  lastTraceAt: string;
  inputTokens: number;
  outputTokens: number;
  costEur: number;
  errorCount: number;
}

export interface TraceSessionDetail extends TraceSession {
  traces: Trace[];
}

export interface TraceSessionListQuery extends PageQuery {
  from?: string;
  to?: string;
  agentId?: string;
}
