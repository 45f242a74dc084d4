/**
 * Scores (PLATFORM.md §10): one row per score on a subject (a stored response, an extraction,
 * a conversation, a dataset item, a trace, a run result). The rules — names, data types, which
 * subjects exist — live in the platform's score service; this store writes and filters rows.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import { SqliteStore } from "./sqlite-store.js";

export type ScoreDataType = "NUMERIC" | "CATEGORICAL" | "BOOLEAN";
export type ScoreSource = "HUMAN" | "API" | "EVAL";
export type ScoreValue = number | string | boolean;

export interface ScoreRecord {
  id: string;
  organizationId: string;
  subjectType: string;
  subjectId: string;
  name: string;
  dataType: ScoreDataType;
  value: ScoreValue;
  comment: string | null;
  source: ScoreSource;
  queueItemId: string | null;
  createdByKeyId: string | null;
  createdAt: number;
}

export type ScoreInsert = Omit<ScoreRecord, "id" | "createdAt">;

export interface ScoreFilter {
  subjectType?: string | undefined;
  subjectId?: string | undefined;
  name?: string | undefined;
  source?: ScoreSource | undefined;
  dataType?: ScoreDataType | undefined;
  /** Epoch ms, inclusive. */
  from?: number | undefined;
  /** Epoch ms, exclusive. */
  to?: number | undefined;
}

interface Row {
  id: string;
  organization_id: string;
  subject_type: string;
  subject_id: string;
  name: string;
  data_type: ScoreDataType;
  value: string;
  comment: string | null;
  source: ScoreSource;
  queue_item_id: string | null;
  created_by_key_id: string | null;
  created_at: number;
}

const toRecord = (row: Row): ScoreRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  subjectType: row.subject_type,
  subjectId: row.subject_id,
  name: row.name,
  dataType: row.data_type,
  value: JSON.parse(row.value) as ScoreValue,
  comment: row.comment,
  source: row.source,
  queueItemId: row.queue_item_id,
  createdByKeyId: row.created_by_key_id,
  createdAt: row.created_at,
});

const EQUAL_FILTERS = [
  ["subject_type", "subjectType"],
  ["subject_id", "subjectId"],
  ["name", "name"],
  ["source", "source"],
  ["data_type", "dataType"],
] as const;

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
