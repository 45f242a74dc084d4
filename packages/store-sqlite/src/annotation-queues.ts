/**
 * Annotation queues (PLATFORM.md §12): queues with their score configurations, and items that
 * point at a subject (as scores do) with a status and a lock. The rules — validation, who may
 * update a locked item, what COMPLETED needs — are the platform's annotation-queue service's;
 * it runs its read-check-write in `atomically`. Claiming is one immediate transaction here, so
 * two claimers — two connections, two processes on one database file — never lock the same item.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type AnnotationQueueChanges,
  type AnnotationQueueRecord,
  type AnnotationQueueStatus,
  QUEUE_ITEM_COLUMNS as ITEM_COLUMNS,
  type QueueItemRow as ItemRow,
  type QueueItemChanges,
  type QueueItemRecord,
  type QueueItemStatus,
  type AnnotationQueueRow as QueueRow,
  type QueueScoreConfig,
  type QueueSubject,
  toAnnotationQueue as toQueue,
  toQueueItem,
} from "@groundwork/store-rows";
import { SqliteStore } from "./sqlite-store.js";

export type {
  AnnotationQueueChanges,
  AnnotationQueueRecord,
  AnnotationQueueStatus,
  QueueItemChanges,
  QueueItemRecord,
  QueueItemStatus,
  QueueScoreConfig,
  QueueSubject,
};

const QUEUE = "SELECT q.* FROM annotation_queues q";

export class AnnotationQueueStore extends SqliteStore {
  // ---- queues ----

  createQueue(
    organizationId: string,
    fields: { name: string; description: string | null; scoreConfigs: QueueScoreConfig[] },
  ): AnnotationQueueRecord {
    const id = this.ids("aq");
    const now = this.clock.now();
    this.sql(
      `INSERT INTO annotation_queues (id, organization_id, name, description, score_configs, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'ACTIVE', ?, ?)`,
    ).run(id, organizationId, fields.name, fields.description, JSON.stringify(fields.scoreConfigs), now, now);
    return this.mustGetQueue(organizationId, id);
  }

  getQueue(organizationId: string, id: string): AnnotationQueueRecord | null {
    const row = this.sql(`${QUEUE} WHERE q.organization_id = ? AND q.id = ?`).get(organizationId, id) as
      | QueueRow
      | undefined;
    return row === undefined ? null : toQueue(row);
  }

  findQueueByName(organizationId: string, name: string): AnnotationQueueRecord | null {
    const row = this.sql(`${QUEUE} WHERE q.organization_id = ? AND q.name = ?`).get(organizationId, name) as
      | QueueRow
      | undefined;
    return row === undefined ? null : toQueue(row);
  }

  /** Newest first; `status` null lists both. */
  listQueues(
    organizationId: string,
    status: AnnotationQueueStatus | null,
    page: PageRequest,
  ): { items: AnnotationQueueRecord[]; total: number } {
    const where = `q.organization_id = ?${status === null ? "" : " AND q.status = ?"}`;
    const params: unknown[] = status === null ? [organizationId] : [organizationId, status];
    const { n } = this.sql(`SELECT count(*) AS n FROM annotation_queues q WHERE ${where}`).get(...params) as {
      n: number;
    };
    const rows = this.sql(
      `${QUEUE} WHERE ${where} ORDER BY q.created_at DESC, q.id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as QueueRow[];
    return { items: rows.map(toQueue), total: n };
  }

  updateQueue(organizationId: string, id: string, changes: AnnotationQueueChanges): AnnotationQueueRecord {
    const sets = ["updated_at = ?"];
    const params: unknown[] = [this.clock.now()];
    if (changes.name !== undefined) {
      sets.push("name = ?");
      params.push(changes.name);
    }
    if (changes.description !== undefined) {
      sets.push("description = ?");
      params.push(changes.description);
    }
    if (changes.scoreConfigs !== undefined) {
      sets.push("score_configs = ?");
      params.push(JSON.stringify(changes.scoreConfigs));
    }
    this.sql(`UPDATE annotation_queues SET ${sets.join(", ")} WHERE organization_id = ? AND id = ?`).run(
      ...params,
      organizationId,
      id,
    );
    return this.mustGetQueue(organizationId, id);
  }

  /** Archives the queue (once: a second call keeps the first `archivedAt`) and releases every lock on its items. */
  archiveQueue(organizationId: string, id: string): AnnotationQueueRecord {
    return this.atomically(() => {
      const now = this.clock.now();
      this.sql(
        `UPDATE annotation_queues SET status = 'ARCHIVED', archived_at = ?, updated_at = ?
           WHERE organization_id = ? AND id = ? AND status = 'ACTIVE'`,
      ).run(now, now, organizationId, id);
      this.sql(
        `UPDATE annotation_queue_items SET locked_by_key_id = NULL, locked_until = NULL
           WHERE queue_id = ? AND locked_by_key_id IS NOT NULL`,
      ).run(id);
      return this.mustGetQueue(organizationId, id);
    });
  }

  // ---- items ----

  /**
   * Adds an item per subject in the given order, except subjects with a PENDING item in the
   * queue (counted as `skipped`; a subject given twice in one call is added once).
   */
  addItems(
    organizationId: string,
    queueId: string,
    subjects: readonly QueueSubject[],
  ): { added: QueueItemRecord[]; skipped: number } {
    return this.atomically(() => {
      const pending = this.sql(
        `SELECT 1 FROM annotation_queue_items
           WHERE queue_id = ? AND subject_type = ? AND subject_id = ? AND status = 'PENDING' LIMIT 1`,
      );
      const insert = this.sql(
        `INSERT INTO annotation_queue_items (id, queue_id, organization_id, subject_type, subject_id, status, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'PENDING', ?, ?)`,
      );
      const now = this.clock.now();
      const ids: string[] = [];
      let skipped = 0;
      for (const { subjectType, subjectId } of subjects) {
        if (pending.get(queueId, subjectType, subjectId) !== undefined) {
          skipped += 1;
          continue;
        }
        const id = this.ids("aqi");
        insert.run(id, queueId, organizationId, subjectType, subjectId, now, now);
        ids.push(id);
      }
      this.countStatus(queueId, "PENDING", ids.length);
      const rows = ids.length === 0 ? [] : this.rowsById(ids);
      return { added: this.withScores(rows), skipped };
    });
  }

  getItem(queueId: string, itemId: string): QueueItemRecord | null {
    const row = this.sql("SELECT * FROM annotation_queue_items WHERE queue_id = ? AND id = ?").get(
      queueId,
      itemId,
    ) as ItemRow | undefined;
    return row === undefined ? null : this.one(row);
  }

  /** Oldest first (insertion order). */
  listItems(
    queueId: string,
    status: QueueItemStatus | null,
    page: PageRequest,
  ): { items: QueueItemRecord[]; total: number } {
    const where = `queue_id = ?${status === null ? "" : " AND status = ?"}`;
    const params: unknown[] = status === null ? [queueId] : [queueId, status];
    const { n } = this.sql(`SELECT count(*) AS n FROM annotation_queue_items WHERE ${where}`).get(
      ...params,
    ) as { n: number };
    const rows = this.sql(
      `SELECT * FROM annotation_queue_items WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ItemRow[];
    return { items: this.withScores(rows), total: n };
  }

  /** The organization's items on one subject across its queues, newest first. */
  findItems(
    organizationId: string,
    subject: QueueSubject,
    status: QueueItemStatus | null,
    page: PageRequest,
  ): { items: QueueItemRecord[]; total: number } {
    const where = `organization_id = ? AND subject_type = ? AND subject_id = ?${status === null ? "" : " AND status = ?"}`;
    const params: unknown[] = [organizationId, subject.subjectType, subject.subjectId];
    if (status !== null) params.push(status);
    const { n } = this.sql(`SELECT count(*) AS n FROM annotation_queue_items WHERE ${where}`).get(
      ...params,
    ) as { n: number };
    const rows = this.sql(
      `SELECT * FROM annotation_queue_items WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as ItemRow[];
    return { items: this.withScores(rows), total: n };
  }

  /**
   * Locks a PENDING item of the queue to `memberId` until `now + lockMs`: the member's own
   * unexpired lock if it holds one (renewed), else the oldest item whose lock is absent or
   * expired. Null when nothing is claimable. One immediate transaction takes SQLite's write lock
   * before reading, so concurrent claimers — other connections and processes included — are
   * serialized and each sees the others' locks; the UPDATE re-checks the row's lock as well.
   * The lookups read partial indexes (named, since the planner has no statistics to pick them),
   * so held items ahead in the queue are not walked.
   */
  claim(queueId: string, memberId: string, now: number, lockMs: number): QueueItemRecord | null {
    return this.atomically(() => {
      const own = this.sql(
        `SELECT seq FROM annotation_queue_items INDEXED BY annotation_queue_items_holder
          WHERE queue_id = ? AND locked_by_key_id = ? AND locked_until > ? AND status = 'PENDING'
          ORDER BY seq LIMIT 1`,
      ).get(queueId, memberId, now) as { seq: number } | undefined;
      const target = own ?? this.oldestFree(queueId, now);
      if (target === undefined) return null;
      const row = this.sql(
        `UPDATE annotation_queue_items
            SET locked_by_key_id = @member, locked_until = @until, updated_at = @updated
          WHERE seq = @seq AND status = 'PENDING'
            AND (locked_by_key_id IS NULL OR locked_until IS NULL OR locked_until <= @now
                 OR locked_by_key_id = @member)
          RETURNING *`,
      ).get({ member: memberId, until: now + lockMs, updated: this.clock.now(), seq: target.seq, now }) as
        | ItemRow
        | undefined;
      return row === undefined ? null : this.one(row);
    });
  }

  /** Sets the given fields (and `updatedAt`); a status change moves the item between the queue's counts. */
  updateItem(queueId: string, itemId: string, changes: QueueItemChanges): QueueItemRecord {
    return this.atomically(() => {
      const before = this.sql("SELECT status FROM annotation_queue_items WHERE queue_id = ? AND id = ?").get(
        queueId,
        itemId,
      ) as { status: QueueItemStatus } | undefined;
      if (before === undefined) throw new Error(`No annotation queue item ${itemId} in queue ${queueId}`);
      const sets = ["updated_at = ?"];
      const params: unknown[] = [this.clock.now()];
      for (const [field, column] of ITEM_COLUMNS) {
        const value = changes[field];
        if (value === undefined) continue;
        sets.push(`${column} = ?`);
        params.push(field === "scoredNames" ? JSON.stringify(value) : value);
      }
      this.sql(`UPDATE annotation_queue_items SET ${sets.join(", ")} WHERE queue_id = ? AND id = ?`).run(
        ...params,
        queueId,
        itemId,
      );
      if (changes.status !== undefined && changes.status !== before.status) {
        this.countStatus(queueId, before.status, -1);
        this.countStatus(queueId, changes.status, 1);
      }
      const item = this.getItem(queueId, itemId);
      if (item === null) throw new Error(`Annotation queue item ${itemId} vanished during its update`);
      return item;
    });
  }

  private countStatus(queueId: string, status: QueueItemStatus, delta: number): void {
    if (delta === 0) return;
    const column = status === "PENDING" ? "pending_count" : "completed_count";
    this.sql(`UPDATE annotation_queues SET ${column} = ${column} + ? WHERE id = ?`).run(delta, queueId);
  }

  /** The oldest PENDING item that is unlocked or whose lock ended by `now`. */
  private oldestFree(queueId: string, now: number): { seq: number } | undefined {
    const unlocked = this.sql(
      `SELECT seq FROM annotation_queue_items INDEXED BY annotation_queue_items_unlocked
        WHERE queue_id = ? AND status = 'PENDING' AND locked_by_key_id IS NULL
        ORDER BY seq LIMIT 1`,
    ).get(queueId) as { seq: number } | undefined;
    const expired = this.sql(
      `SELECT min(seq) AS seq FROM annotation_queue_items INDEXED BY annotation_queue_items_lock_end
        WHERE queue_id = ? AND status = 'PENDING' AND locked_by_key_id IS NOT NULL AND locked_until <= ?`,
    ).get(queueId, now) as { seq: number | null };
    if (expired.seq === null) return unlocked;
    return unlocked === undefined || expired.seq < unlocked.seq ? { seq: expired.seq } : unlocked;
  }

  private mustGetQueue(organizationId: string, id: string): AnnotationQueueRecord {
    const queue = this.getQueue(organizationId, id);
    if (queue === null) throw new Error(`Annotation queue ${id} vanished during its update`);
    return queue;
  }

  private rowsById(ids: readonly string[]): ItemRow[] {
    return this.sql(
      "SELECT * FROM annotation_queue_items WHERE id IN (SELECT value FROM json_each(?)) ORDER BY seq",
    ).all(JSON.stringify(ids)) as ItemRow[];
  }

  private one(row: ItemRow): QueueItemRecord {
    const [item] = this.withScores([row]);
    if (item === undefined) throw new Error("unreachable: one row in, one item out");
    return item;
  }

  /** The records of `rows`, each with the ids of the scores recorded through it (one query for all). */
  private withScores(rows: readonly ItemRow[]): QueueItemRecord[] {
    const scoreIds = new Map<string, string[]>(rows.map((row) => [row.id, []]));
    if (rows.length > 0) {
      const scores = this.sql(
        `SELECT queue_item_id, id FROM scores
          WHERE queue_item_id IN (SELECT value FROM json_each(?))
          ORDER BY created_at, rowid`,
      ).all(JSON.stringify(rows.map((row) => row.id))) as Array<{ queue_item_id: string; id: string }>;
      for (const score of scores) scoreIds.get(score.queue_item_id)?.push(score.id);
    }
    return rows.map((row) => toQueueItem(row, scoreIds.get(row.id) ?? []));
  }
}
