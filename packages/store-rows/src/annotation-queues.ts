/**
 * Annotation queues (PLATFORM.md §12): records, changes and rows of queues and their items,
 * for both SQL stores. The JSON columns are TEXT on both.
 */
import { int, intOrNull, json } from "./columns.js";
import type { ScoreDataType } from "./scores.js";

export type AnnotationQueueStatus = "ACTIVE" | "ARCHIVED";
export type QueueItemStatus = "PENDING" | "COMPLETED";

/** One score a reviewer gives per item; `min`/`max` for NUMERIC, `categories` for CATEGORICAL. */
export interface QueueScoreConfig {
  name: string;
  dataType: ScoreDataType;
  min?: number;
  max?: number;
  categories?: string[];
}

export interface AnnotationQueueRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  scoreConfigs: QueueScoreConfig[];
  status: AnnotationQueueStatus;
  counts: { pending: number; completed: number };
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
}

export interface QueueItemRecord {
  id: string;
  queueId: string;
  organizationId: string;
  subjectType: string;
  subjectId: string;
  status: QueueItemStatus;
  lockedByKeyId: string | null;
  /** Epoch ms; the lock is free when this is null or not after now. */
  lockedUntil: number | null;
  completedByKeyId: string | null;
  completedAt: number | null;
  /** Score names sent through the item since it was last reopened. */
  scoredNames: string[];
  /** The scores recorded through the item, oldest first. */
  scoreIds: string[];
  createdAt: number;
  updatedAt: number;
}

export interface AnnotationQueueChanges {
  name?: string;
  description?: string | null;
  scoreConfigs?: QueueScoreConfig[];
}

/** The fields an item update sets; absent fields stay. */
export interface QueueItemChanges {
  status?: QueueItemStatus;
  lockedByKeyId?: string | null;
  lockedUntil?: number | null;
  completedByKeyId?: string | null;
  completedAt?: number | null;
  scoredNames?: string[];
}

export interface QueueSubject {
  subjectType: string;
  subjectId: string;
}

export interface AnnotationQueueRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  score_configs: unknown;
  status: AnnotationQueueStatus;
  created_at: unknown;
  updated_at: unknown;
  archived_at: unknown;
  pending_count: unknown;
  completed_count: unknown;
}

export interface QueueItemRow {
  seq: unknown;
  id: string;
  queue_id: string;
  organization_id: string;
  subject_type: string;
  subject_id: string;
  status: QueueItemStatus;
  locked_by_key_id: string | null;
  locked_until: unknown;
  completed_by_key_id: string | null;
  completed_at: unknown;
  scored_names: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export const toAnnotationQueue = (row: AnnotationQueueRow): AnnotationQueueRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  description: row.description,
  scoreConfigs: json<QueueScoreConfig[]>(row.score_configs),
  status: row.status,
  counts: { pending: int(row.pending_count), completed: int(row.completed_count) },
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
  archivedAt: intOrNull(row.archived_at),
});

/** An item row as the record, with the ids of the scores recorded through it. */
export const toQueueItem = (row: QueueItemRow, scoreIds: string[]): QueueItemRecord => ({
  id: row.id,
  queueId: row.queue_id,
  organizationId: row.organization_id,
  subjectType: row.subject_type,
  subjectId: row.subject_id,
  status: row.status,
  lockedByKeyId: row.locked_by_key_id,
  lockedUntil: intOrNull(row.locked_until),
  completedByKeyId: row.completed_by_key_id,
  completedAt: intOrNull(row.completed_at),
  scoredNames: json<string[]>(row.scored_names),
  scoreIds,
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

/** The item fields an update may set: [field, column]. */
export const QUEUE_ITEM_COLUMNS: ReadonlyArray<[keyof QueueItemChanges, string]> = [
  ["status", "status"],
  ["lockedByKeyId", "locked_by_key_id"],
  ["lockedUntil", "locked_until"],
  ["completedByKeyId", "completed_by_key_id"],
  ["completedAt", "completed_at"],
  ["scoredNames", "scored_names"],
];
