/** Scores as the API shows them (PLATFORM.md §10): timestamps as ISO strings, no organization id. */
import type { ScoreRecord } from "@groundwork/store-sqlite";

export function renderScore(score: ScoreRecord) {
  return {
    id: score.id,
    subjectType: score.subjectType,
    subjectId: score.subjectId,
    name: score.name,
    dataType: score.dataType,
    value: score.value,
    comment: score.comment,
    source: score.source,
    queueItemId: score.queueItemId,
    createdByKeyId: score.createdByKeyId,
    createdAt: new Date(score.createdAt).toISOString(),
  };
}
