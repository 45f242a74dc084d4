/**
 * Annotation queues on PostgreSQL: the counterpart of store-sqlite's `AnnotationQueueStore`
 * (same methods, same answers; rows mapped by @groundwork/store-rows). Claims, item updates,
 * additions and archiving are units of work (the units' advisory lock serialises them across
 * processes as SQLite's write lock does), so two claimers never lock the same item.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type AnnotationQueueChanges,
  type AnnotationQueueRecord,
  type AnnotationQueueRow,
  type AnnotationQueueStatus,
  int,
  QUEUE_ITEM_COLUMNS,
  type QueueItemChanges,
  type QueueItemRecord,
  type QueueItemRow,
  type QueueItemStatus,
  type QueueScoreConfig,
  type QueueSubject,
  toAnnotationQueue,
  toQueueItem,
} from "@groundwork/store-rows";
import { PostgresFamily, parameters } from "./postgres-family.js";

const QUEUE = "SELECT q.* FROM annotation_queues q";

export class PostgresAnnotationQueueStore extends PostgresFamily {
  // ---- queues ----

  async createQueue(
    organizationId: string,
    fields: { name: string; description: string | null; scoreConfigs: QueueScoreConfig[] },
  ): Promise<AnnotationQueueRecord> {
    const id = this.ids("aq");
    const now = this.clock.now();
    await this.db.query(
      `INSERT INTO annotation_queues (id, organization_id, name, description, score_configs, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, $6)`,
      [id, organizationId, fields.name, fields.description, JSON.stringify(fields.scoreConfigs), now],
    );
    return this.mustGetQueue(organizationId, id);
  }

  async getQueue(organizationId: string, id: string): Promise<AnnotationQueueRecord | null> {
    const row = await this.row<AnnotationQueueRow>(`${QUEUE} WHERE q.organization_id = $1 AND q.id = $2`, [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toAnnotationQueue(row);
  }

  async findQueueByName(organizationId: string, name: string): Promise<AnnotationQueueRecord | null> {
    const row = await this.row<AnnotationQueueRow>(`${QUEUE} WHERE q.organization_id = $1 AND q.name = $2`, [
      organizationId,
      name,
    ]);
    return row === undefined ? null : toAnnotationQueue(row);
  }

  /** Newest first; `status` null lists both. */
  async listQueues(
    organizationId: string,
    status: AnnotationQueueStatus | null,
    page: PageRequest,
  ): Promise<{ items: AnnotationQueueRecord[]; total: number }> {
    const { values, p } = parameters([organizationId]);
    const where = `q.organization_id = $1${status === null ? "" : ` AND q.status = ${p(status)}`}`;
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM annotation_queues q WHERE ${where}`,
      values,
    );
    const rows = await this.rows<AnnotationQueueRow>(
      `${QUEUE} WHERE ${where} ORDER BY q.created_at DESC, q.id DESC LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toAnnotationQueue), total: int(counted?.n) };
  }

  async updateQueue(
    organizationId: string,
    id: string,
    changes: AnnotationQueueChanges,
  ): Promise<AnnotationQueueRecord> {
    const { values, p } = parameters();
    const sets = [`updated_at = ${p(this.clock.now())}`];
    if (changes.name !== undefined) sets.push(`name = ${p(changes.name)}`);
    if (changes.description !== undefined) sets.push(`description = ${p(changes.description)}`);
    if (changes.scoreConfigs !== undefined)
      sets.push(`score_configs = ${p(JSON.stringify(changes.scoreConfigs))}`);
    await this.db.query(
      `UPDATE annotation_queues SET ${sets.join(", ")} WHERE organization_id = ${p(organizationId)} AND id = ${p(id)}`,
      values,
    );
    return this.mustGetQueue(organizationId, id);
  }

  /** Archives the queue (once: a second call keeps the first `archivedAt`) and releases every lock on its items. */
  archiveQueue(organizationId: string, id: string): Promise<AnnotationQueueRecord> {
    return this.atomically(async () => {
      const now = this.clock.now();
      await this.db.query(
        `UPDATE annotation_queues SET status = 'ARCHIVED', archived_at = $1, updated_at = $1
           WHERE organization_id = $2 AND id = $3 AND status = 'ACTIVE'`,
        [now, organizationId, id],
      );
      await this.db.query(
        `UPDATE annotation_queue_items SET locked_by_key_id = NULL, locked_until = NULL
           WHERE queue_id = $1 AND locked_by_key_id IS NOT NULL`,
        [id],
      );
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
  ): Promise<{ added: QueueItemRecord[]; skipped: number }> {
    return this.atomically(async () => {
      const now = this.clock.now();
      const ids: string[] = [];
      let skipped = 0;
      for (const { subjectType, subjectId } of subjects) {
        const pending = await this.row(
          `SELECT 1 FROM annotation_queue_items
             WHERE queue_id = $1 AND subject_type = $2 AND subject_id = $3 AND status = 'PENDING' LIMIT 1`,
          [queueId, subjectType, subjectId],
        );
        if (pending !== undefined) {
          skipped += 1;
          continue;
        }
        const id = this.ids("aqi");
        await this.db.query(
          `INSERT INTO annotation_queue_items (id, queue_id, organization_id, subject_type, subject_id, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, 'PENDING', $6, $6)`,
          [id, queueId, organizationId, subjectType, subjectId, now],
        );
        ids.push(id);
      }
      await this.countStatus(queueId, "PENDING", ids.length);
      const rows =
        ids.length === 0
          ? []
          : await this.rows<QueueItemRow>(
              "SELECT * FROM annotation_queue_items WHERE id = ANY($1) ORDER BY seq",
              [ids],
            );
      return { added: await this.withScores(rows), skipped };
    });
  }

  async getItem(queueId: string, itemId: string): Promise<QueueItemRecord | null> {
    const row = await this.row<QueueItemRow>(
      "SELECT * FROM annotation_queue_items WHERE queue_id = $1 AND id = $2",
      [queueId, itemId],
    );
    return row === undefined ? null : this.one(row);
  }

  /** Oldest first (insertion order). */
  async listItems(
    queueId: string,
    status: QueueItemStatus | null,
    page: PageRequest,
  ): Promise<{ items: QueueItemRecord[]; total: number }> {
    const { values, p } = parameters([queueId]);
    const where = `queue_id = $1${status === null ? "" : ` AND status = ${p(status)}`}`;
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM annotation_queue_items WHERE ${where}`,
      values,
    );
    const rows = await this.rows<QueueItemRow>(
      `SELECT * FROM annotation_queue_items WHERE ${where} ORDER BY seq LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: await this.withScores(rows), total: int(counted?.n) };
  }

  /** The organization's items on one subject across its queues, newest first. */
  async findItems(
    organizationId: string,
    subject: QueueSubject,
    status: QueueItemStatus | null,
    page: PageRequest,
  ): Promise<{ items: QueueItemRecord[]; total: number }> {
    const { values, p } = parameters([organizationId, subject.subjectType, subject.subjectId]);
    const where = `organization_id = $1 AND subject_type = $2 AND subject_id = $3${status === null ? "" : ` AND status = ${p(status)}`}`;
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM annotation_queue_items WHERE ${where}`,
      values,
    );
    const rows = await this.rows<QueueItemRow>(
      `SELECT * FROM annotation_queue_items WHERE ${where} ORDER BY seq DESC LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: await this.withScores(rows), total: int(counted?.n) };
  }

  /**
   * Locks a PENDING item of the queue to `memberId` until `now + lockMs`: the member's own
   * unexpired lock if it holds one (renewed), else the oldest item whose lock is absent or
   * expired. Null when nothing is claimable. A unit of work, and the UPDATE re-checks the lock.
   */
  claim(queueId: string, memberId: string, now: number, lockMs: number): Promise<QueueItemRecord | null> {
    return this.atomically(async () => {
      const own = await this.row<{ seq: unknown }>(
        `SELECT seq FROM annotation_queue_items
          WHERE queue_id = $1 AND locked_by_key_id = $2 AND locked_until > $3 AND status = 'PENDING'
          ORDER BY seq LIMIT 1`,
        [queueId, memberId, now],
      );
      const target =
        own ??
        (await this.row<{ seq: unknown }>(
          `SELECT seq FROM annotation_queue_items
            WHERE queue_id = $1 AND status = 'PENDING' AND (locked_by_key_id IS NULL OR locked_until <= $2)
            ORDER BY seq LIMIT 1`,
          [queueId, now],
        ));
      if (target === undefined) return null;
      const row = await this.row<QueueItemRow>(
        `UPDATE annotation_queue_items
            SET locked_by_key_id = $1, locked_until = $2, updated_at = $3
          WHERE seq = $4 AND status = 'PENDING'
            AND (locked_by_key_id IS NULL OR locked_until IS NULL OR locked_until <= $5 OR locked_by_key_id = $1)
          RETURNING *`,
        [memberId, now + lockMs, this.clock.now(), target.seq, now],
      );
      return row === undefined ? null : this.one(row);
    });
  }

  /** Sets the given fields (and `updatedAt`); a status change moves the item between the queue's counts. */
  updateItem(queueId: string, itemId: string, changes: QueueItemChanges): Promise<QueueItemRecord> {
    return this.atomically(async () => {
      const before = await this.row<{ status: QueueItemStatus }>(
        "SELECT status FROM annotation_queue_items WHERE queue_id = $1 AND id = $2",
        [queueId, itemId],
      );
      if (before === undefined) throw new Error(`No annotation queue item ${itemId} in queue ${queueId}`);
      const { values, p } = parameters();
      const sets = [`updated_at = ${p(this.clock.now())}`];
      for (const [field, column] of QUEUE_ITEM_COLUMNS) {
        const value = changes[field];
        if (value === undefined) continue;
        sets.push(`${column} = ${p(field === "scoredNames" ? JSON.stringify(value) : value)}`);
      }
      await this.db.query(
        `UPDATE annotation_queue_items SET ${sets.join(", ")} WHERE queue_id = ${p(queueId)} AND id = ${p(itemId)}`,
        values,
      );
      if (changes.status !== undefined && changes.status !== before.status) {
        await this.countStatus(queueId, before.status, -1);
        await this.countStatus(queueId, changes.status, 1);
      }
      const item = await this.getItem(queueId, itemId);
      if (item === null) throw new Error(`Annotation queue item ${itemId} vanished during its update`);
      return item;
    });
  }

  private async countStatus(queueId: string, status: QueueItemStatus, delta: number): Promise<void> {
    if (delta === 0) return;
    const column = status === "PENDING" ? "pending_count" : "completed_count";
    await this.db.query(`UPDATE annotation_queues SET ${column} = ${column} + $1 WHERE id = $2`, [
      delta,
      queueId,
    ]);
  }

  private async mustGetQueue(organizationId: string, id: string): Promise<AnnotationQueueRecord> {
    const queue = await this.getQueue(organizationId, id);
    if (queue === null) throw new Error(`Annotation queue ${id} vanished during its update`);
    return queue;
  }

  private async one(row: QueueItemRow): Promise<QueueItemRecord> {
    const [item] = await this.withScores([row]);
    if (item === undefined) throw new Error("unreachable: one row in, one item out");
    return item;
  }

  /** The records of `rows`, each with the ids of the scores recorded through it (one query for all). */
  private async withScores(rows: readonly QueueItemRow[]): Promise<QueueItemRecord[]> {
    const scoreIds = new Map<string, string[]>(rows.map((row) => [row.id, []]));
    if (rows.length > 0) {
      const scores = await this.rows<{ queue_item_id: string; id: string }>(
        "SELECT queue_item_id, id FROM scores WHERE queue_item_id = ANY($1) ORDER BY created_at, seq",
        [rows.map((row) => row.id)],
      );
      for (const score of scores) scoreIds.get(score.queue_item_id)?.push(score.id);
    }
    return rows.map((row) => toQueueItem(row, scoreIds.get(row.id) ?? []));
  }
}
