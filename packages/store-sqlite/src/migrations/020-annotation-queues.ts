import type { Migration } from "./migration.js";

export const annotationQueues: Migration = {
  version: 20,
  name: "annotation queues with score configurations, items and their locks",
  sql: `
    -- score_configs is the JSON array of the queue's {name, dataType, min?, max?, categories?};
    -- pending_count and completed_count are kept by every write that adds items or changes a status.
    CREATE TABLE annotation_queues (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      score_configs TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'ARCHIVED')),
      pending_count INTEGER NOT NULL DEFAULT 0,
      completed_count INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      archived_at INTEGER,
      UNIQUE (organization_id, name)
    );
    CREATE INDEX annotation_queues_listing ON annotation_queues(organization_id, status, created_at DESC, id DESC);

    -- seq (the rowid) is the insertion order: "oldest first" for listings and claims, items
    -- added in one call in the call's order. A lock is (locked_by_key_id, locked_until); it is
    -- free when absent or when locked_until <= now. scored_names is the JSON array of the score
    -- names sent through the item since it was last reopened (what COMPLETED may rely on). The
    -- subject is checked when the item is added, not by a foreign key (as scores do).
    CREATE TABLE annotation_queue_items (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      queue_id TEXT NOT NULL REFERENCES annotation_queues(id) ON DELETE CASCADE,
      organization_id TEXT NOT NULL,
      subject_type TEXT NOT NULL,
      subject_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('PENDING', 'COMPLETED')),
      locked_by_key_id TEXT,
      locked_until INTEGER,
      completed_by_key_id TEXT,
      completed_at INTEGER,
      scored_names TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX annotation_queue_items_queue ON annotation_queue_items(queue_id, status, seq);
    CREATE INDEX annotation_queue_items_subject
      ON annotation_queue_items(organization_id, subject_type, subject_id, seq);
    -- What a claim looks up, each from its first index entry: the oldest unlocked PENDING item,
    -- the PENDING items whose lock may have expired (by lock end), a member's own locks.
    CREATE INDEX annotation_queue_items_unlocked
      ON annotation_queue_items(queue_id, seq) WHERE status = 'PENDING' AND locked_by_key_id IS NULL;
    CREATE INDEX annotation_queue_items_lock_end
      ON annotation_queue_items(queue_id, locked_until) WHERE status = 'PENDING' AND locked_by_key_id IS NOT NULL;
    CREATE INDEX annotation_queue_items_holder
      ON annotation_queue_items(queue_id, locked_by_key_id, seq) WHERE status = 'PENDING' AND locked_by_key_id IS NOT NULL;
    CREATE INDEX annotation_queue_items_queue_subject
      ON annotation_queue_items(queue_id, subject_type, subject_id, status);
  `,
};
