/** Scores (PLATFORM.md §10): the record, its insert and filter, and its row, for both SQL stores. */
import { int } from "./columns.js";

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

export interface ScoreRow {
  id: string;
  organization_id: string;
  subject_type: string;
  subject_id: string;
  name: string;
  data_type: ScoreDataType;
  /** The JSON text of the value (TEXT on both stores: a top-level JSON string must stay text). */
  value: string;
  comment: string | null;
  source: ScoreSource;
  queue_item_id: string | null;
  created_by_key_id: string | null;
  created_at: unknown;
}

export const toScore = (row: ScoreRow): ScoreRecord => ({
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
  createdAt: int(row.created_at),
});

/** The filters that are an equality on one column: [column, filter key]. */
export const SCORE_EQUAL_FILTERS = [
  ["subject_type", "subjectType"],
  ["subject_id", "subjectId"],
  ["name", "name"],
  ["source", "source"],
  ["data_type", "dataType"],
] as const;
