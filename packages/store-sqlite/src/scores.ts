/**
 * Scores (PLATFORM.md §10): one row per score on a subject (a stored response, an extraction,
 * a conversation, a dataset item, a trace, a run result). The rules — names, data types, which
 * subjects exist — live in the platform's score service; this store writes and filters rows.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  SCORE_EQUAL_FILTERS as EQUAL_FILTERS,
  type ScoreRow as Row,
  type ScoreDataType,
  type ScoreFilter,
  type ScoreInsert,
  type ScoreRecord,
  type ScoreSource,
  type ScoreValue,
  toScore as toRecord,
} from "@groundwork/store-rows";
import { SqliteStore } from "./sqlite-store.js";

export type { ScoreDataType, ScoreFilter, ScoreInsert, ScoreRecord, ScoreSource, ScoreValue };

export class ScoreStore extends SqliteStore {
  create(input: ScoreInsert): ScoreRecord {
    const record: ScoreRecord = { ...input, id: this.ids("scr"), createdAt: this.clock.now() };
    this.sql(
      `INSERT INTO scores (id, organization_id, subject_type, subject_id, name, data_type, value, comment, source,
           queue_item_id, created_by_key_id, created_at)
         VALUES (@id, @organizationId, @subjectType, @subjectId, @name, @dataType, @value, @comment, @source,
           @queueItemId, @createdByKeyId, @createdAt)`,
    ).run({ ...record, value: JSON.stringify(record.value) });
    return record;
  }

  /** Inserts every score in one transaction: all are recorded or none. */
  createMany(inputs: readonly ScoreInsert[]): ScoreRecord[] {
    return this.db.transaction(() => inputs.map((input) => this.create(input))).immediate();
  }

  get(organizationId: string, id: string): ScoreRecord | null {
    const row = this.sql("SELECT * FROM scores WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as Row | undefined;
    return row === undefined ? null : toRecord(row);
  }

  /** Newest first (`createdAt` desc, then id desc). */
  list(
    organizationId: string,
    filter: ScoreFilter,
    page: PageRequest,
  ): { items: ScoreRecord[]; total: number } {
    const where = ["organization_id = ?"];
    const params: unknown[] = [organizationId];
    for (const [column, key] of EQUAL_FILTERS) {
      const value = filter[key];
      if (value !== undefined) {
        where.push(`${column} = ?`);
        params.push(value);
      }
    }
    if (filter.from !== undefined) {
      where.push("created_at >= ?");
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push("created_at < ?");
      params.push(filter.to);
    }
    const clause = where.join(" AND ");
    const total = (
      this.sql(`SELECT count(*) AS n FROM scores WHERE ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT * FROM scores WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as Row[];
    return { items: rows.map(toRecord), total };
  }
}
