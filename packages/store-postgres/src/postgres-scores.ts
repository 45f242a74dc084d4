/**
 * Scores on PostgreSQL: the counterpart of store-sqlite's `ScoreStore` (same methods, same
 * answers; rows mapped by @groundwork/store-rows).
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  SCORE_EQUAL_FILTERS,
  type ScoreFilter,
  type ScoreInsert,
  type ScoreRecord,
  type ScoreRow,
  toScore,
} from "@groundwork/store-rows";
import { PostgresFamily, parameters } from "./postgres-family.js";

export class PostgresScoreStore extends PostgresFamily {
  async create(input: ScoreInsert): Promise<ScoreRecord> {
    const record: ScoreRecord = { ...input, id: this.ids("scr"), createdAt: this.clock.now() };
    await this.db.query(
      `INSERT INTO scores (id, organization_id, subject_type, subject_id, name, data_type, value, comment, source,
           queue_item_id, created_by_key_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        record.id,
        record.organizationId,
        record.subjectType,
        record.subjectId,
        record.name,
        record.dataType,
        JSON.stringify(record.value),
        record.comment,
        record.source,
        record.queueItemId,
        record.createdByKeyId,
        record.createdAt,
      ],
    );
    return record;
  }

  /** Inserts every score in one transaction: all are recorded or none. */
  createMany(inputs: readonly ScoreInsert[]): Promise<ScoreRecord[]> {
    return this.transactionally(async () => {
      const records: ScoreRecord[] = [];
      for (const input of inputs) records.push(await this.create(input));
      return records;
    });
  }

  async get(organizationId: string, id: string): Promise<ScoreRecord | null> {
    const row = await this.row<ScoreRow>("SELECT * FROM scores WHERE organization_id = $1 AND id = $2", [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toScore(row);
  }

  /** Newest first (`createdAt` desc, then id desc). */
  async list(
    organizationId: string,
    filter: ScoreFilter,
    page: PageRequest,
  ): Promise<{ items: ScoreRecord[]; total: number }> {
    const { values, p } = parameters();
    const where = [`organization_id = ${p(organizationId)}`];
    for (const [column, key] of SCORE_EQUAL_FILTERS) {
      const value = filter[key];
      if (value !== undefined) where.push(`${column} = ${p(value)}`);
    }
    if (filter.from !== undefined) where.push(`created_at >= ${p(filter.from)}`);
    if (filter.to !== undefined) where.push(`created_at < ${p(filter.to)}`);
    const clause = where.join(" AND ");
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM scores WHERE ${clause}`,
      values,
    );
    const rows = await this.rows<ScoreRow>(
      `SELECT * FROM scores WHERE ${clause} ORDER BY created_at DESC, id DESC
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toScore), total: Number(counted?.n ?? 0) };
  }
}
