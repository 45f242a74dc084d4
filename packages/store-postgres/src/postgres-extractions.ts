/**
 * Extraction records on PostgreSQL: the same methods and answers as store-sqlite's
 * ExtractionStore. The input text is kept so a rerun can repeat the run; a background run's
 * images are kept in `extraction_images` only until it ends.
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
  extractionQualityColumns,
  likePattern,
  toExtraction,
} from "@groundwork/store-rows";
import { asciiLower } from "./ascii-lower.js";
import { connectionOf, transactionOn } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresExtractionStore {
  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** Inserts a record, and the images a background run needs until it finishes. */
  async create(input: ExtractionInsert, images: readonly ExtractionImage[] = []): Promise<ExtractionRecord> {
    const id = input.id ?? this.ids("ext");
    const now = this.clock.now();
    const row = await transactionOn(this.client, async (tx) => {
      const { rows } = await tx.query<ExtractionRow>(
        `INSERT INTO extractions (id, organization_id, schema_id, schema_version_id, status, strategy, model,
             input_text, image_count, input_tokens, result, error_message, rerun_of, api_key_id, created_at,
             updated_at, started_at, completed_at, confidence, flag_count, validation_applied, violation_count,
             quality_computed, source_placements)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $16, $17, $18, $19, $20,
             $21, $22, $23)
           RETURNING *`,
        [
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
          input.startedAt ?? null,
          input.completedAt ?? null,
          ...extractionQualityColumns(input.result == null ? null : input.quality),
          input.sourcePlacements == null ? null : JSON.stringify(input.sourcePlacements),
        ],
      );
      for (const [position, image] of images.entries()) {
        await tx.query(
          "INSERT INTO extraction_images (extraction_id, position, mime_type, data) VALUES ($1, $2, $3, $4)",
          [id, position, image.mimeType, image.data],
        );
      }
      return rows[0] as ExtractionRow;
    });
    return toExtraction(row);
  }

  async get(organizationId: string, id: string): Promise<ExtractionRecord | null> {
    const { rows } = await connectionOf(this.client).query<ExtractionRow>(
      "SELECT * FROM extractions WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return rows[0] === undefined ? null : toExtraction(rows[0]);
  }

  /** By id alone, for the background worker. */
  async getById(id: string): Promise<ExtractionRecord | null> {
    const { rows } = await connectionOf(this.client).query<ExtractionRow>(
      "SELECT * FROM extractions WHERE id = $1",
      [id],
    );
    return rows[0] === undefined ? null : toExtraction(rows[0]);
  }

  /** Newest first (ties by id). */
  async list(
    organizationId: string,
    page: PageRequest,
    filter: ExtractionFilter = {},
  ): Promise<{ items: ExtractionRecord[]; total: number }> {
    const params: unknown[] = [organizationId];
    const clauses = ["organization_id = $1"];
    const where = (clause: (placeholder: string) => string, value: unknown) => {
      params.push(value);
      clauses.push(clause(`$${params.length}`));
    };
    if (filter.search !== undefined && filter.search !== "") {
      where((p) => `${asciiLower("model")} LIKE ${p} ESCAPE '\\'`, likePattern(filter.search));
    }
    if (filter.schemaVersionId !== undefined)
      where((p) => `schema_version_id = ${p}`, filter.schemaVersionId);
    if (filter.status !== undefined) where((p) => `status = ${p}`, filter.status);
    const condition = clauses.join(" AND ");
    const total = Number(
      (
        await connectionOf(this.client).query<{ n: string | number }>(
          `SELECT count(*) AS n FROM extractions WHERE ${condition}`,
          params,
        )
      ).rows[0]?.n ?? 0,
    );
    const { rows } = await connectionOf(this.client).query<ExtractionRow>(
      `SELECT * FROM extractions WHERE ${condition} ORDER BY created_at DESC, id DESC
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, pageOffset(page)],
    );
    return { items: rows.map(toExtraction), total };
  }

  async attachJob(id: string, jobId: string): Promise<void> {
    await connectionOf(this.client).query(
      "UPDATE extractions SET job_id = $1, updated_at = $2 WHERE id = $3",
      [jobId, this.clock.now(), id],
    );
  }

  /** PENDING → PROCESSING; false when the record is gone or already finished. */
  async markProcessing(id: string): Promise<boolean> {
    const { rows } = await connectionOf(this.client).query(
      `UPDATE extractions SET status = 'PROCESSING', started_at = coalesce(started_at, $1), updated_at = $1
         WHERE id = $2 AND status IN ('PENDING', 'PROCESSING') RETURNING id`,
      [this.clock.now(), id],
    );
    return rows.length > 0;
  }

  /** Records the end of a run and forgets its images. False when the record is gone or already finished. */
  async finish(
    id: string,
    outcome:
      | { status: "COMPLETED"; result: Record<string, unknown>; quality?: ExtractionQualityFacts }
      | { status: "FAILED"; errorMessage: string },
  ): Promise<boolean> {
    const now = this.clock.now();
    return transactionOn(this.client, async (tx) => {
      const { rows } = await tx.query(
        `UPDATE extractions SET status = $1, result = $2, error_message = $3, completed_at = $4, updated_at = $4,
             confidence = $5, flag_count = $6, validation_applied = $7, violation_count = $8, quality_computed = $9
           WHERE id = $10 AND status IN ('PENDING', 'PROCESSING') RETURNING id`,
        [
          outcome.status,
          outcome.status === "COMPLETED" ? JSON.stringify(outcome.result) : null,
          outcome.status === "FAILED" ? outcome.errorMessage : null,
          now,
          ...extractionQualityColumns(outcome.status === "COMPLETED" ? outcome.quality : null),
          id,
        ],
      );
      await tx.query("DELETE FROM extraction_images WHERE extraction_id = $1", [id]);
      return rows.length > 0;
    });
  }

  async images(id: string): Promise<ExtractionImage[]> {
    const { rows } = await connectionOf(this.client).query<{ mime_type: string; data: string }>(
      "SELECT mime_type, data FROM extraction_images WHERE extraction_id = $1 ORDER BY position",
      [id],
    );
    return rows.map((row) => ({ mimeType: row.mime_type, data: row.data }));
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const { rows } = await connectionOf(this.client).query(
      "DELETE FROM extractions WHERE organization_id = $1 AND id = $2 RETURNING id",
      [organizationId, id],
    );
    return rows.length > 0;
  }
}
