/**
 * Claims and locks under any interleaving of claims, item updates and time advances by several
 * members (PLATFORM.md §12): checked against a reference model after every step. A claim hands
 * out the caller's own unexpired lock or else the oldest PENDING item whose lock is absent or
 * expired — never an item another member holds an unexpired lock on — and an update of such an
 * item is refused with 409 item_locked, changing nothing.
 */
import type { Principal } from "@groundwork/core";
import type { QueueItemRecord } from "@groundwork/store-sqlite";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork } from "../create-groundwork.js";

const LOCK_SECONDS = 10;
const LOCK_MS = LOCK_SECONDS * 1000;
const MEMBERS = ["key_a", "key_b", "key_c"] as const;
const ITEMS = 4;

type Command =
  | { kind: "claim"; member: number }
  | { kind: "advance"; ms: number }
  | { kind: "update"; member: number; item: number; change: "complete" | "reopen" | "touch" | "score" };

interface ModelItem {
  status: "PENDING" | "COMPLETED";
  lockedBy: string | null;
  lockedUntil: number | null;
}

const member = fc.integer({ min: 0, max: MEMBERS.length - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: member.map((m) => ({ kind: "claim" as const, member: m })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(0, 1, LOCK_MS - 1, LOCK_MS, LOCK_MS + 1),
        fc.integer({ min: 0, max: 2 * LOCK_MS }),
      )
      .map((ms) => ({ kind: "advance" as const, ms })),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("update" as const),
      member,
      item: fc.integer({ min: 0, max: ITEMS - 1 }),
      change: fc.constantFrom("complete" as const, "reopen" as const, "touch" as const, "score" as const),
    }),
  },
);

const unexpiredOther = (item: ModelItem, who: string, now: number) =>
  item.lockedBy !== null && item.lockedBy !== who && (item.lockedUntil ?? 0) > now;

/** What a claim by `who` must hand out (an index into the items), per §12. */
function expectedClaim(items: readonly ModelItem[], who: string, now: number): number | null {
  const own = items.findIndex(
    (i) => i.status === "PENDING" && i.lockedBy === who && (i.lockedUntil ?? 0) > now,
  );
  if (own >= 0) return own;
  const free = items.findIndex(
    (i) => i.status === "PENDING" && (i.lockedBy === null || (i.lockedUntil ?? 0) <= now),
  );
  return free >= 0 ? free : null;
}

const view = (item: QueueItemRecord): ModelItem => ({
  status: item.status,
  lockedBy: item.lockedByKeyId,
  lockedUntil: item.lockedUntil,
});

describe("annotation queue locks (property)", () => {
  it("never gives one item to two members and follows the claim order under any interleaving", {
    timeout: 120_000,
  }, async () => {
    // One store for every run; each run works on a queue of its own.
    let now = 0;
    let runs = 0;
    const store = await openTestStore();
    try {
      const groundwork = createGroundwork({
        store,
        clock: { now: () => now },
        config: { queues: { lockSeconds: LOCK_SECONDS } },
      });
      const principals: Principal[] = await Promise.all(
        MEMBERS.map(async (apiKeyId) => ({
          ...(await groundwork.principal("acme", "member")),
          apiKeyId,
        })),
      );
      const admin = await groundwork.principal("acme", "admin");
      const subjects: { subjectType: "conversation"; subjectId: string }[] = [];
      for (let i = 0; i < ITEMS; i++) {
        subjects.push({
          subjectType: "conversation",
          subjectId: (await groundwork.conversations.create(admin, { title: `c${i}` })).id,
        });
      }
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40 }), async (commands) => {
          now = 1_700_000_000_000;
          const queue = await groundwork.annotationQueues.create(admin, {
            name: `q${++runs}`,
            scoreConfigs: [{ name: "ok", dataType: "BOOLEAN" }],
          });
          const ids = (
            await groundwork.annotationQueues.addItems(admin, queue.id, { items: subjects })
          ).added.map((item) => item.id);
          const model: ModelItem[] = ids.map(() => ({
            status: "PENDING",
            lockedBy: null,
            lockedUntil: null,
          }));
          // What each member was handed, as the members see it: item index → member → lock end.
          // A reopen releases the item for everyone.
          const handed = ids.map(() => new Map<string, number>());
          const real = async () =>
            (
              await groundwork.annotationQueues.listItems(admin, queue.id, {}, { page: 0, size: 100 })
            ).items.map(view);

          for (const step of commands) {
            if (step.kind === "advance") {
              now += step.ms;
              continue;
            }
            const who = MEMBERS[step.member] ?? "";
            const principal = principals[step.member] as Principal;
            if (step.kind === "claim") {
              const before = await real();
              const claimed = await groundwork.annotationQueues.claim(principal, queue.id);
              const index = claimed === null ? null : ids.indexOf(claimed.id);
              expect(index).toBe(expectedClaim(model, who, now));
              if (index !== null) {
                // Never an item another member holds an unexpired lock on…
                expect(unexpiredOther(before[index] as ModelItem, who, now)).toBe(false);
                // …nor one handed to another member whose lock has not run out.
                for (const [other, until] of handed[index] ?? []) {
                  if (other !== who) expect(until).toBeLessThanOrEqual(now);
                }
                handed[index]?.set(who, now + LOCK_MS);
                model[index] = { status: "PENDING", lockedBy: who, lockedUntil: now + LOCK_MS };
              }
            } else {
              const target = model[step.item] as ModelItem;
              const body =
                step.change === "complete"
                  ? { status: "COMPLETED", scores: [{ name: "ok", value: true }] }
                  : step.change === "reopen"
                    ? { status: "PENDING" }
                    : step.change === "score"
                      ? { scores: [{ name: "ok", value: false }] }
                      : {};
              const run = async () =>
                await groundwork.annotationQueues.updateItem(principal, queue.id, ids[step.item] ?? "", body);
              if (unexpiredOther(target, who, now)) {
                await expect(run()).rejects.toMatchObject({ status: 409, code: "item_locked" });
              } else {
                await run();
                if (step.change === "reopen") handed[step.item]?.clear();
                else handed[step.item]?.set(who, now + LOCK_MS);
                model[step.item] =
                  step.change === "reopen"
                    ? { status: "PENDING", lockedBy: null, lockedUntil: null }
                    : {
                        status: step.change === "complete" ? "COMPLETED" : target.status,
                        lockedBy: who,
                        lockedUntil: now + LOCK_MS,
                      };
              }
            }
            expect(await real()).toEqual(model);
            const completed = model.filter((item) => item.status === "COMPLETED").length;
            expect((await groundwork.annotationQueues.get(admin, queue.id)).counts).toEqual({
              pending: ITEMS - completed,
              completed,
            });
          }
        }),
        { numRuns: 150 },
      );
    } finally {
      await store.close();
    }
  });
});
