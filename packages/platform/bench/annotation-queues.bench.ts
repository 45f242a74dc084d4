/**
 * Annotation-queue claims in a 10,000-item queue whose 5,000 oldest items are locked by other
 * members, beside their floor on the same connection and table:
 * - a claim that finds the oldest free item behind the held locks (`groundwork.annotationQueues.claim`),
 *   then frees it again, vs a raw prepared UPDATE of that row by its key and the same release;
 * - a claim that returns (and renews) the caller's own lock (the newest item) vs the raw UPDATE alone.
 * Run: npx vitest bench --run --project platform bench/annotation-queues.bench.ts (after a build).
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const admin = await groundwork.principal("bench", "admin");
const reviewer = { ...(await groundwork.principal("bench", "member")), apiKeyId: "key_bench" };
const holder = { ...(await groundwork.principal("bench", "member")), apiKeyId: "key_holder" };
const queue = await groundwork.annotationQueues.create(admin, {
  name: "bench",
  scoreConfigs: [{ name: "ok", dataType: "BOOLEAN" }],
});
const conversation = (await groundwork.conversations.create(admin, {})).id;
// Items are per subject; one conversation repeated would be skipped, so the rows go in directly.
const insert = store.db.prepare(
  `INSERT INTO annotation_queue_items (id, queue_id, organization_id, subject_type, subject_id, status,
     locked_by_key_id, locked_until, created_at, updated_at)
   VALUES (?, ?, ?, 'conversation', ?, 'PENDING', ?, ?, 0, 0)`,
);
// The 5,000 oldest are held by another member; the newest is held by the reviewer of the second group.
store.db.transaction(() => {
  const far = Date.now() + 86_400_000;
  for (let i = 0; i < 10_000; i++) {
    const holderOf = i < 5_000 ? "key_other" : i === 9_999 ? "key_bench" : null;
    insert.run(
      `aqi_bench${i}`,
      queue.id,
      admin.organizationId,
      `${conversation}-${i}`,
      holderOf,
      holderOf === null ? null : far,
    );
  }
  store.db.prepare("UPDATE annotation_queues SET pending_count = 10000 WHERE id = ?").run(queue.id);
})();
const release = store.db.prepare(
  "UPDATE annotation_queue_items SET locked_by_key_id = NULL, locked_until = NULL WHERE id = ?",
);
const rawLock = store.db.prepare(
  "UPDATE annotation_queue_items SET locked_by_key_id = ?, locked_until = ?, updated_at = ? WHERE seq = ?",
);
const firstFree = store.db
  .prepare("SELECT seq, id FROM annotation_queue_items WHERE id = 'aqi_bench5000'")
  .get() as {
  seq: number;
  id: string;
};

describe("claim the oldest free item behind 5,000 held locks, then release it", () => {
  bench("groundwork.annotationQueues.claim + release", async () => {
    const item = await groundwork.annotationQueues.claim(holder, queue.id);
    if (item?.id !== firstFree.id) throw new Error(`claimed ${item?.id}`);
    release.run(item.id);
  });
  bench("raw UPDATE by key + release (floor)", () => {
    const now = Date.now();
    rawLock.run("key_holder", now + 300_000, now, firstFree.seq);
    release.run(firstFree.id);
  });
});

describe("claim that returns the caller's own lock (renewed)", () => {
  bench("groundwork.annotationQueues.claim (own lock)", async () => {
    const item = await groundwork.annotationQueues.claim(reviewer, queue.id);
    if (item?.id !== "aqi_bench9999") throw new Error(`claimed ${item?.id}`);
  });
  bench("raw UPDATE by key (floor)", () => {
    const now = Date.now();
    rawLock.run("key_bench", now + 300_000, now, firstFree.seq + 4_999);
  });
});
