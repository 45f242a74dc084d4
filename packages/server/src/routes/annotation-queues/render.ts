/** Annotation queues and their items as the API shows them (PLATFORM.md §12): timestamps as ISO strings. */
import type { AnnotationQueueRecord, QueueItemRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function renderQueue(queue: AnnotationQueueRecord) {
  return {
    id: queue.id,
    name: queue.name,
    description: queue.description,
    scoreConfigs: queue.scoreConfigs,
    status: queue.status,
    counts: queue.counts,
    createdAt: iso(queue.createdAt),
    updatedAt: iso(queue.updatedAt),
    archivedAt: isoOrNull(queue.archivedAt),
  };
}

/** The stored lock as it is: it has expired when `lockedUntil` is not after now. */
export function renderQueueItem(item: QueueItemRecord) {
  return {
    id: item.id,
    queueId: item.queueId,
    subjectType: item.subjectType,
    subjectId: item.subjectId,
    status: item.status,
    lockedByKeyId: item.lockedByKeyId,
    lockedUntil: isoOrNull(item.lockedUntil),
    completedByKeyId: item.completedByKeyId,
    completedAt: isoOrNull(item.completedAt),
    scoreIds: item.scoreIds,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
  };
}
