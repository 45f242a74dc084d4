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
import {
  type ExtractionFilter,
  type ExtractionImage,
  type ExtractionInsert,
  type ExtractionQualityFacts,
  type ExtractionRecord,
  type ExtractionRow,
  type ExtractionStatus,
  type ExtractionStrategyName,
  extractionQualityColumns,
  likePattern,
  type SourcePlacement,
  toExtraction as toRecord,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type {
  ExtractionFilter,
  ExtractionImage,
  ExtractionInsert,
  ExtractionQualityFacts,
  ExtractionRecord,
  ExtractionStatus,
  ExtractionStrategyName,
  SourcePlacement,
};

/** The quality columns as SQLite binds them (booleans as 0/1). */
function qualityColumns(quality: ExtractionQualityFacts | null | undefined) {
  return extractionQualityColumns(quality).map((value) =>
    typeof value === "boolean" ? (value ? 1 : 0) : value,
  );
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
