/** Extraction records (spec document 2): the row, its record, the insert and the quality columns. */
import { int, intOrNull, json } from "./columns.js";

export type ExtractionStatus = "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED";
export type ExtractionStrategyName = "SINGLE_SHOT" | "CHUNKED" | "ASYNC";

/** Where a block of a converted input lies in the input text (code points, end exclusive), its page and PDF box. */
export interface SourcePlacement {
  start: number;
  end: number;
  page: number;
  bbox?: [number, number, number, number];
}

export interface ExtractionRecord {
  id: string;
  organizationId: string;
  schemaId: string;
  schemaVersionId: string;
  status: ExtractionStatus;
  strategy: ExtractionStrategyName;
  model: string;
  inputText: string | null;
  /** When the input text is a conversion's Markdown: where each block lies in it (pages, PDF boxes). */
  sourcePlacements: SourcePlacement[] | null;
  imageCount: number;
  inputTokens: number;
  /** `{structuredOutput, metadata, resultMetadata}` once COMPLETED. */
  result: Record<string, unknown> | null;
  errorMessage: string | null;
  rerunOf: string | null;
  jobId: string | null;
  apiKeyId: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  completedAt: number | null;
}

export interface ExtractionInsert {
  /** Defaults to a new `ext_` id. */
  id?: string;
  organizationId: string;
  schemaId: string;
  schemaVersionId: string;
  status: ExtractionStatus;
  strategy: ExtractionStrategyName;
  model: string;
  inputText: string | null;
  sourcePlacements?: SourcePlacement[] | null;
  imageCount: number;
  inputTokens: number;
  result?: Record<string, unknown> | null;
  errorMessage?: string | null;
  rerunOf?: string | null;
  apiKeyId?: string | null;
  startedAt?: number | null;
  completedAt?: number | null;
  /** The result's quality facts; without them a result's facts are computed on the first analytics read. */
  quality?: ExtractionQualityFacts;
}

/**
 * What analytics reads of a finished extraction's result (PLATFORM.md §14), computed once by
 * the writer (observability's `extractionQuality`) and kept in columns.
 */
export interface ExtractionQualityFacts {
  /** Mean of the non-null composite confidence scores; null when there is none. */
  confidence: number | null;
  /** `scoring.confidence.flagCount`; null without a confidence summary. */
  flagCount: number | null;
  /** `schemaValidation.applied`; null without a report. */
  validationApplied: boolean | null;
  violationCount: number | null;
}

export interface ExtractionImage {
  data: string;
  mimeType: string;
}

export interface ExtractionFilter {
  /** Substring of the model name, case-insensitive. */
  search?: string;
  schemaVersionId?: string;
  status?: ExtractionStatus;
}

export interface ExtractionRow {
  id: string;
  organization_id: string;
  schema_id: string;
  schema_version_id: string;
  status: ExtractionStatus;
  strategy: ExtractionStrategyName;
  model: string;
  input_text: string | null;
  source_placements: string | null;
  image_count: number;
  input_tokens: number;
  result: string | null;
  error_message: string | null;
  rerun_of: string | null;
  job_id: string | null;
  api_key_id: string | null;
  created_at: number | string;
  updated_at: number | string;
  started_at: number | string | null;
  completed_at: number | string | null;
}

export function toExtraction(row: ExtractionRow): ExtractionRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    schemaId: row.schema_id,
    schemaVersionId: row.schema_version_id,
    status: row.status,
    strategy: row.strategy,
    model: row.model,
    inputText: row.input_text,
    sourcePlacements: row.source_placements === null ? null : json<SourcePlacement[]>(row.source_placements),
    imageCount: row.image_count,
    inputTokens: row.input_tokens,
    result: row.result === null ? null : json<Record<string, unknown>>(row.result),
    errorMessage: row.error_message,
    rerunOf: row.rerun_of,
    jobId: row.job_id,
    apiKeyId: row.api_key_id,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    startedAt: intOrNull(row.started_at),
    completedAt: intOrNull(row.completed_at),
  };
}

/**
 * The quality columns of a write (confidence, flag_count, validation_applied, violation_count,
 * quality_computed): the facts as given; all null and computed (nothing to compute) for a row
 * without a result (`null`); not computed yet for a result written without them (`undefined`).
 * Booleans as booleans: SQLite binds them as 0/1, PostgreSQL columns are BOOLEAN.
 */
export function extractionQualityColumns(
  quality: ExtractionQualityFacts | null | undefined,
): [number | null, number | null, boolean | null, number | null, boolean] {
  if (quality === undefined) return [null, null, null, null, false];
  if (quality === null) return [null, null, null, null, true];
  return [quality.confidence, quality.flagCount, quality.validationApplied, quality.violationCount, true];
}
