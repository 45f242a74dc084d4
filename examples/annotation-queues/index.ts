// Reviews conversations in an annotation queue (no model needed): two reviewers claim items, score and complete them.
// From the repository root, after a build: node --import tsx examples/annotation-queues/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const admin = await groundwork.principal("acme");
// A member is an API key; a library app names its reviewers with their own ids.
const alice = { ...(await groundwork.principal("acme", "member")), apiKeyId: "reviewer-alice" };
const bob = { ...(await groundwork.principal("acme", "member")), apiKeyId: "reviewer-bob" };
const queue = await groundwork.annotationQueues.create(admin, {
  name: "support-review",
  scoreConfigs: [
    { name: "helpfulness", dataType: "NUMERIC", min: 1, max: 5 },
    { name: "tone", dataType: "CATEGORICAL", categories: ["kind", "neutral", "rude"] },
  ],
});
const subjects = await Promise.all(
  ["Where is my refund?", "Can I change my plan?"].map(async (question) => ({
    subjectType: "conversation" as const,
    subjectId: (
      await groundwork.conversations.create(admin, {
        items: [{ type: "message", role: "user", content: question }],
      })
    ).id,
  })),
);
const { added, skipped } = await groundwork.annotationQueues.addItems(alice, queue.id, {
  items: [...subjects, subjects[0]],
});
// Each claim locks the oldest free item to its reviewer (300 s by default), so they never collide.
const first = await groundwork.annotationQueues.claim(alice, queue.id);
const second = await groundwork.annotationQueues.claim(bob, queue.id);
const done = await groundwork.annotationQueues.updateItem(alice, queue.id, first?.id ?? "", {
  status: "COMPLETED",
  scores: [
    { name: "helpfulness", value: 4 },
    { name: "tone", value: "kind", comment: "apologised for the delay" },
  ],
});
console.log(added.length, skipped, first?.lockedByKeyId, second?.lockedByKeyId, first?.id !== second?.id);
console.log(
  done.status,
  done.scoreIds.length,
  (await groundwork.annotationQueues.get(admin, queue.id)).counts,
);
// #endregion readme
await groundwork.close();
