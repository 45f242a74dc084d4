/**
 * The annotation-queue family's contract: what store-sqlite's `AnnotationQueueStore` answers,
 * every PostgreSQL family must answer too. Every call is awaited.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnnotationQueueStore, QueueItemRecord } from "../../../store-sqlite/src/annotation-queues.js";
import { type OpenFamily, readAllPages, settle } from "./family-harness.js";

const configs = [{ name: "ok", dataType: "BOOLEAN" as const }];
const subject = (n: number) => ({ subjectType: "response", subjectId: `resp_${n}` });

export function describeAnnotationQueueContract(label: string, open: OpenFamily<AnnotationQueueStore>): void {
  describe(`annotation queues contract (${label})`, () => {
    it("creates, reads, renames, lists and archives queues, per organization", async () => {
      const { family, clock, organization } = await open();
      const org = await organization();
      const other = await organization();
      const q = await family.createQueue(org, { name: "review", description: null, scoreConfigs: configs });
      expect(q).toMatchObject({
        organizationId: org,
        name: "review",
        status: "ACTIVE",
        scoreConfigs: configs,
        counts: { pending: 0, completed: 0 },
        archivedAt: null,
      });
      expect(q.id).toMatch(/^aq_/);
      expect(await family.getQueue(org, q.id)).toEqual(q);
      expect(await family.findQueueByName(org, "review")).toEqual(q);
      expect(await family.getQueue(other, q.id)).toBeNull();
      await expect(
        settle(() => family.createQueue(org, { name: "review", description: null, scoreConfigs: [] })),
      ).rejects.toThrow();
      clock.advance();
      const q2 = await family.createQueue(org, { name: "second", description: "d", scoreConfigs: [] });
      clock.advance();
      expect(await family.updateQueue(org, q.id, { name: "first", description: "x" })).toEqual({
        ...q,
        name: "first",
        description: "x",
        updatedAt: clock.now(),
      });
      expect((await family.listQueues(org, null, { page: 0, size: 10 })).items.map((x) => x.id)).toEqual([
        q2.id,
        q.id,
      ]);
      clock.advance();
      const archived = await family.archiveQueue(org, q.id);
      expect(archived).toMatchObject({ status: "ARCHIVED", archivedAt: clock.now() });
      clock.advance();
      expect((await family.archiveQueue(org, q.id)).archivedAt).toBe(archived.archivedAt);
      expect(await readAllPages((page) => family.listQueues(org, "ARCHIVED", page), 1)).toEqual({
        items: [await family.getQueue(org, q.id)],
        total: 1,
      });
      expect((await family.listQueues(org, "ACTIVE", { page: 0, size: 10 })).items.map((x) => x.id)).toEqual([
        q2.id,
      ]);
      expect((await family.listQueues(other, null, { page: 0, size: 10 })).total).toBe(0);
    });

    it("adds items once per pending subject, lists them in order, finds them by subject", async () => {
      const { family, organization, scores } = await open();
      const org = await organization();
      const q = await family.createQueue(org, { name: "q", description: null, scoreConfigs: configs });
      const first = await family.addItems(org, q.id, [subject(1), subject(2), subject(1)]);
      expect(first.skipped).toBe(1);
      expect(first.added.map((i) => i.subjectId)).toEqual(["resp_1", "resp_2"]);
      expect(first.added[0]).toMatchObject({
        queueId: q.id,
        status: "PENDING",
        scoredNames: [],
        scoreIds: [],
      });
      expect((await family.addItems(org, q.id, [subject(2), subject(3)])).skipped).toBe(1);
      expect((await family.getQueue(org, q.id))?.counts).toEqual({ pending: 3, completed: 0 });
      const [a, b] = first.added as [QueueItemRecord, QueueItemRecord];
      const s1 = await scores.create({
        organizationId: org,
        subjectType: "response",
        subjectId: "resp_1",
        name: "ok",
        dataType: "BOOLEAN",
        value: true,
        comment: null,
        source: "HUMAN",
        queueItemId: a.id,
        createdByKeyId: null,
      });
      const s2 = await scores.create({ ...s1, queueItemId: a.id, value: false });
      const done = await family.updateItem(q.id, a.id, {
        status: "COMPLETED",
        completedAt: 5,
        scoredNames: ["ok"],
      });
      expect(done).toMatchObject({
        status: "COMPLETED",
        completedAt: 5,
        scoredNames: ["ok"],
        scoreIds: [s1.id, s2.id],
      });
      expect((await family.getQueue(org, q.id))?.counts).toEqual({ pending: 2, completed: 1 });
      expect(await family.getItem(q.id, a.id)).toEqual(done);
      expect(await family.getItem("aq_other", a.id)).toBeNull();
      expect(
        (await family.listItems(q.id, "PENDING", { page: 0, size: 10 })).items.map((i) => i.subjectId),
      ).toEqual(["resp_2", "resp_3"]);
      expect(await readAllPages((page) => family.listItems(q.id, null, page), 2)).toMatchObject({ total: 3 });
      await expect(
        settle(() => family.updateItem(q.id, "aqi_missing", { status: "PENDING" })),
      ).rejects.toThrow();
      const q2 = await family.createQueue(org, { name: "q2", description: null, scoreConfigs: [] });
      const [again] = (await family.addItems(org, q2.id, [subject(2)])).added;
      expect(
        (await family.findItems(org, subject(2), null, { page: 0, size: 10 })).items.map((i) => i.id),
      ).toEqual([again?.id, b.id]);
      expect((await family.findItems(org, subject(1), "PENDING", { page: 0, size: 10 })).total).toBe(0);
      expect(
        (await family.findItems(await organization(), subject(2), null, { page: 0, size: 10 })).total,
      ).toBe(0);
    });

    it("claims the member's own lock, else the oldest free item; archiving releases locks", async () => {
      const { family, organization } = await open();
      const org = await organization();
      const q = await family.createQueue(org, { name: "q", description: null, scoreConfigs: configs });
      const { added } = await family.addItems(org, q.id, [subject(1), subject(2), subject(3)]);
      const ids = added.map((i) => i.id);
      expect((await family.claim(q.id, "key_a", 1000, 100))?.id).toBe(ids[0]);
      expect(await family.claim(q.id, "key_a", 1050, 100)).toMatchObject({ id: ids[0], lockedUntil: 1150 });
      expect((await family.claim(q.id, "key_b", 1060, 100))?.id).toBe(ids[1]);
      expect((await family.claim(q.id, "key_c", 1070, 100))?.id).toBe(ids[2]);
      expect(await family.claim(q.id, "key_d", 1080, 100)).toBeNull();
      expect((await family.claim(q.id, "key_d", 1150, 100))?.id).toBe(ids[0]);
      await family.archiveQueue(org, q.id);
      expect(await family.getItem(q.id, ids[1] ?? "")).toMatchObject({
        lockedByKeyId: null,
        lockedUntil: null,
      });
    });

    it("never hands one item to two concurrent claimers", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 6 }),
          fc.integer({ min: 1, max: 8 }),
          async (items, claimers) => {
            const { family, organization } = await open();
            const org = await organization();
            const q = await family.createQueue(org, { name: "q", description: null, scoreConfigs: [] });
            await family.addItems(
              org,
              q.id,
              Array.from({ length: items }, (_, n) => subject(n)),
            );
            const claimed = await Promise.all(
              Array.from({ length: claimers }, (_, n) =>
                settle(() => family.claim(q.id, `key_${n}`, 1000, 60_000)),
              ),
            );
            const got = claimed.filter((item) => item !== null).map((item) => item.id);
            expect(new Set(got).size).toBe(got.length);
            expect(got.length).toBe(Math.min(items, claimers));
          },
        ),
        { numRuns: 8 },
      );
    });
  });
}
