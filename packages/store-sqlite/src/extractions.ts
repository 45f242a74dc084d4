/**
 * Extraction records (spec document 2, "Extraction"). The input text is kept so a rerun can repeat
 * the run; images are not: a background run keeps them in `extraction_images` only until it ends.
 */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import type { Database, Statement } from "better-sqlite3";
import { likePattern } from "./schemas.js";
import { statementCache } from "./statement-cache.js";

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

interface ExtractionRow {
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
  created_at: number;
  updated_at: number;
  started_at: number | null;
  completed_at: number | null;
}

function toRecord(row: ExtractionRow): ExtractionRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    schemaId: row.schema_id,
    schemaVersionId: row.schema_version_id,
    status: row.status,
    strategy: row.strategy,
    model: row.model,
    inputText: row.input_text,
    sourcePlacements:
      row.source_placements === null ? null : (JSON.parse(row.source_placements) as SourcePlacement[]),
    imageCount: row.image_count,
    inputTokens: row.input_tokens,
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    errorMessage: row.error_message,
    rerunOf: row.rerun_of,
    jobId: row.job_id,
    apiKeyId: row.api_key_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
  };
}

/**
 * The quality columns of a write: the facts as given; all null and computed (nothing to compute)
 * for a row without a result (`null`); not computed yet for a result written without them.
 */
function qualityColumns(
  quality: ExtractionQualityFacts | null | undefined,
): [number | null, number | null, number | null, number | null, 0 | 1] {
  if (quality === undefined) return [null, null, null, null, 0];
  if (quality === null) return [null, null, null, null, 1];
  const applied = quality.validationApplied === null ? null : quality.validationApplied ? 1 : 0;
  return [quality.confidence, quality.flagCount, applied, quality.violationCount, 1];
}

export class ExtractionStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  /** Inserts a record, and the images a background run needs until it finishes. */
  create(input: ExtractionInsert, images: readonly ExtractionImage[] = []): ExtractionRecord {
    const id = input.id ?? this.ids("ext");
    const now = this.clock.now();
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO extractions (id, organization_id, schema_id, schema_version_id, status, strategy, model,
             input_text, image_count, input_tokens, result, error_message, rerun_of, api_key_id, created_at,
             updated_at, started_at, completed_at, confidence, flag_count, validation_applied, violation_count,
             quality_computed, source_placements)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        input.organizationId,
        input.schemaId,
        input.schemaVersionId,
        input.status,
        input.strategy,
        input.model,
        input.inputText,
        input.imageCount,
        input.inputTokens,
        input.result == null ? null : JSON.stringify(input.result),
        input.errorMessage ?? null,
        input.rerunOf ?? null,
        input.apiKeyId ?? null,
        now,
        now,
        input.startedAt ?? null,
        input.completedAt ?? null,
        ...qualityColumns(input.result == null ? null : input.quality),
        input.sourcePlacements == null ? null : JSON.stringify(input.sourcePlacements),
      );
      const insertImage = this.sql(
        "INSERT INTO extraction_images (extraction_id, position, mime_type, data) VALUES (?, ?, ?, ?)",
      );
      images.forEach((image, position) => {
        insertImage.run(id, position, image.mimeType, image.data);
      });
    })();
    return this.get(input.organizationId, id) as ExtractionRecord;
  }

  get(organizationId: string, id: string): ExtractionRecord | null {
    const row = this.sql("SELECT * FROM extractions WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as ExtractionRow | undefined;
    return row === undefined ? null : toRecord(row);
  }

  /** By id alone, for the background worker. */
  getById(id: string): ExtractionRecord | null {
    const row = this.sql("SELECT * FROM extractions WHERE id = ?").get(id) as ExtractionRow | undefined;
    return row === undefined ? null : toRecord(row);
  }

  /** Newest first. */
  list(
    organizationId: string,
    page: PageRequest,
    filter: ExtractionFilter = {},
  ): { items: ExtractionRecord[]; total: number } {
    const clauses = ["organization_id = ?"];
    const params: Array<string | number> = [organizationId];
    if (filter.search !== undefined && filter.search !== "") {
      clauses.push("lower(model) LIKE ? ESCAPE '\\'");
      params.push(likePattern(filter.search));
    }
    if (filter.schemaVersionId !== undefined) {
      clauses.push("schema_version_id = ?");
      params.push(filter.schemaVersionId);
    }
    if (filter.status !== undefined) {
      clauses.push("status = ?");
      params.push(filter.status);
    }
    const where = clauses.join(" AND ");
    const total = (
      this.sql(`SELECT count(*) AS n FROM extractions WHERE ${where}`).get(...params) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT * FROM extractions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ExtractionRow[];
    return { items: rows.map(toRecord), total };
  }

  attachJob(id: string, jobId: string): void {
    this.sql("UPDATE extractions SET job_id = ?, updated_at = ? WHERE id = ?").run(
      jobId,
      this.clock.now(),
      id,
    );
  }

  /** PENDING → PROCESSING; false when the record is gone or already finished. */
  markProcessing(id: string): boolean {
    const now = this.clock.now();
    return (
      this.sql(
        "UPDATE extractions SET status = 'PROCESSING', started_at = coalesce(started_at, ?), updated_at = ? WHERE id = ? AND status IN ('PENDING', 'PROCESSING')",
      ).run(now, now, id).changes > 0
    );
  }

  /** Records the end of a run and forgets its images. False when the record is gone or already finished. */
  finish(
    id: string,
    outcome:
      | { status: "COMPLETED"; result: Record<string, unknown>; quality?: ExtractionQualityFacts }
      | { status: "FAILED"; errorMessage: string },
  ): boolean {
    const now = this.clock.now();
    let changed = false;
    this.db.transaction(() => {
      changed =
        this.sql(
          `UPDATE extractions SET status = ?, result = ?, error_message = ?, completed_at = ?, updated_at = ?,
               confidence = ?, flag_count = ?, validation_applied = ?, violation_count = ?, quality_computed = ?
             WHERE id = ? AND status IN ('PENDING', 'PROCESSING')`,
        ).run(
          outcome.status,
          outcome.status === "COMPLETED" ? JSON.stringify(outcome.result) : null,
          outcome.status === "FAILED" ? outcome.errorMessage : null,
          now,
          now,
          ...qualityColumns(outcome.status === "COMPLETED" ? outcome.quality : null),
          id,
        ).changes > 0;
      this.sql("DELETE FROM extraction_images WHERE extraction_id = ?").run(id);
    })();
    return changed;
  }

  images(id: string): ExtractionImage[] {
    const rows = this.sql(
      "SELECT mime_type, data FROM extraction_images WHERE extraction_id = ? ORDER BY position",
    ).all(id) as Array<{ mime_type: string; data: string }>;
    return rows.map((row) => ({ mimeType: row.mime_type, data: row.data }));
  }

  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM extractions WHERE organization_id = ? AND id = ?").run(organizationId, id)
        .changes > 0
    );
  }
}
