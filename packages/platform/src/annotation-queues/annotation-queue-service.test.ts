/** Annotation queues through the library: queue rules, items, claims and locks on an injected clock, scored completion. */
import type { Principal } from "@groundwork/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let store: PlatformStore;
let groundwork: Groundwork;
let now: number;
let alice: Principal;
let bob: Principal;
let admin: Principal;
let stranger: Principal;
let conversations: string[];
const all = { page: 0, size: 100 };
const LOCK_MS = 300_000;

const member = async (
  organization: string,
  apiKeyId: string,
  role: Principal["role"] = "member",
): Promise<Principal> => ({
  ...(await groundwork.principal(organization, role)),
  apiKeyId,
});

beforeEach(async () => {
  now = Date.parse("2025-01-31T09:00:00.000Z");
  store = await openTestStore();
  groundwork = createGroundwork({ store, clock: { now: () => now } });
  alice = await member("acme", "key_alice");
  bob = await member("acme", "key_bob");
  admin = await member("acme", "key_admin", "admin");
  stranger = await member("other", "key_stranger", "admin");
  conversations = [];
  for (const title of ["one", "two", "three"]) {
    conversations.push((await groundwork.conversations.create(alice, { title })).id);
  }
});
afterEach(async () => await store.close());

async function failure(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code: string; param: string | null };
    return { status, code, param };
  }
  throw new Error("expected a failure");
}

const aq = () => groundwork.annotationQueues;
const CONFIGS = [
  { name: "quality", dataType: "NUMERIC", min: 1, max: 5 },
  { name: "tone", dataType: "CATEGORICAL", categories: ["kind", "neutral", "rude"] },
  { name: "resolved", dataType: "BOOLEAN" },
];
const queue = async (name = "support", scoreConfigs: unknown = CONFIGS) =>
  await aq().create(admin, { name, scoreConfigs } as never);
const subjects = (...ids: string[]) => ids.map((subjectId) => ({ subjectType: "conversation", subjectId }));
const fullScores = [
  { name: "quality", value: 4 },
  { name: "tone", value: "kind", comment: "thanked the customer" },
  { name: "resolved", value: true },
];

describe("queues", () => {
  it("creates, reads, renames, lists by status and archives once; names are unique per organization", async () => {
    const support = await queue();
    expect(support).toMatchObject({
      id: expect.stringMatching(/^aq_/),
      name: "support",
      description: null,
      status: "ACTIVE",
      counts: { pending: 0, completed: 0 },
      archivedAt: null,
      scoreConfigs: CONFIGS,
    });
    expect(await failure(async () => await queue())).toEqual({
      status: 409,
      code: "conflict",
      param: "name",
    });
    expect((await queue("support-2")).name).toBe("support-2");
    expect((await aq().create(stranger, { name: "support", scoreConfigs: CONFIGS } as never)).name).toBe(
      "support",
    );
    expect(
      await failure(async () => await aq().update(admin, support.id, { name: "support-2" })),
    ).toMatchObject({
      status: 409,
      param: "name",
    });
    const renamed = await aq().update(admin, support.id, {
      name: "support",
      description: "weekly review",
      scoreConfigs: [{ name: "quality", dataType: "NUMERIC" }],
    });
    expect(renamed).toMatchObject({ description: "weekly review", scoreConfigs: [{ name: "quality" }] });
    expect((await aq().update(admin, support.id, {})).name).toBe("support");

    const archived = await aq().archive(admin, support.id);
    expect(archived).toMatchObject({ status: "ARCHIVED", archivedAt: expect.any(Number) });
    expect((await aq().archive(admin, support.id)).archivedAt).toBe(archived.archivedAt);
    const names = async (status?: string) =>
      (await aq().list(alice, status === undefined ? {} : { status }, all)).items.map((q) => q.name);
    expect(await names()).toEqual(["support-2"]);
    expect(await names("ARCHIVED")).toEqual(["support"]);
    expect(await names("all")).toEqual(["support-2", "support"]);
    expect((await failure(async () => await names("archived"))).param).toBe("status");
    expect(await failure(async () => await aq().update(admin, support.id, { description: "x" }))).toEqual({
      status: 409,
      code: "conflict",
      param: "queueId",
    });
    expect(await failure(async () => await aq().get(stranger, support.id))).toEqual({
      status: 404,
      code: "not_found",
      param: "queueId",
    });
    expect((await failure(async () => await aq().archive(stranger, support.id))).status).toBe(404);
  });

  it("validates score configs with the field named", async () => {
    const cases: Array<[unknown, string]> = [
      [[], "scoreConfigs"],
      [Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, dataType: "BOOLEAN" })), "scoreConfigs"],
      [[{ name: "a b", dataType: "BOOLEAN" }], "scoreConfigs[0].name"],
      [[{ name: "a", dataType: "TEXT" }], "scoreConfigs[0].dataType"],
      [
        [
          { name: "a", dataType: "BOOLEAN" },
          { name: "a", dataType: "NUMERIC" },
        ],
        "scoreConfigs[1].name",
      ],
      [[{ name: "a", dataType: "NUMERIC", min: 5, max: 5 }], "scoreConfigs[0].max"],
      [[{ name: "a", dataType: "NUMERIC", min: "1" }], "scoreConfigs[0].min"],
      [[{ name: "a", dataType: "NUMERIC", categories: ["x", "y"] }], "scoreConfigs[0].categories"],
      [[{ name: "a", dataType: "CATEGORICAL" }], "scoreConfigs[0].categories"],
      [[{ name: "a", dataType: "CATEGORICAL", categories: ["x"] }], "scoreConfigs[0].categories"],
      [
        [{ name: "a", dataType: "CATEGORICAL", categories: Array.from({ length: 51 }, (_, i) => `c${i}`) }],
        "scoreConfigs[0].categories",
      ],
      [[{ name: "a", dataType: "CATEGORICAL", categories: ["x", "x"] }], "scoreConfigs[0].categories[1]"],
      [[{ name: "a", dataType: "CATEGORICAL", categories: ["x", ""] }], "scoreConfigs[0].categories[1]"],
      [[{ name: "a", dataType: "CATEGORICAL", categories: ["x", "y"], max: 2 }], "scoreConfigs[0].max"],
      [[{ name: "a", dataType: "BOOLEAN", min: 0 }], "scoreConfigs[0].min"],
    ];
    for (const [scoreConfigs, param] of cases) {
      expect(
        await failure(async () => await queue("q", scoreConfigs)),
        JSON.stringify(scoreConfigs),
      ).toMatchObject({
        status: 400,
        param,
      });
    }
    expect((await failure(async () => await aq().create(admin, { scoreConfigs: CONFIGS }))).param).toBe(
      "name",
    );
    expect(
      (await failure(async () => await aq().create(admin, { name: "x".repeat(201), scoreConfigs: CONFIGS })))
        .param,
    ).toBe("name");
    // null bounds count as absent; 2 and 50 categories are the limits.
    const ok = await queue("ok", [
      { name: "n", dataType: "NUMERIC", min: null, max: 10 },
      { name: "c2", dataType: "CATEGORICAL", categories: ["x", "y"] },
      { name: "c50", dataType: "CATEGORICAL", categories: Array.from({ length: 50 }, (_, i) => `c${i}`) },
    ]);
    expect(ok.scoreConfigs[0]).toEqual({ name: "n", dataType: "NUMERIC", max: 10 });
  });
});

describe("items", () => {
  it("adds subjects of the organization in order, skips those already PENDING, and lists and counts them", async () => {
    const q = await queue();
    const [a, b] = conversations;
    const first = await aq().addItems(alice, q.id, { items: subjects(a ?? "", b ?? "", a ?? "") });
    expect(first.skipped).toBe(1);
    expect(first.added).toHaveLength(2);
    expect(first.added[0]).toMatchObject({
      id: expect.stringMatching(/^aqi_/),
      queueId: q.id,
      subjectType: "conversation",
      subjectId: a,
      status: "PENDING",
      lockedByKeyId: null,
      lockedUntil: null,
      completedByKeyId: null,
      completedAt: null,
      scoreIds: [],
    });
    expect(await aq().addItems(alice, q.id, { items: subjects(b ?? "") })).toEqual({ added: [], skipped: 1 });
    expect((await aq().get(alice, q.id)).counts).toEqual({ pending: 2, completed: 0 });
    expect((await aq().listItems(alice, q.id, {}, all)).items.map((i) => i.subjectId)).toEqual([a, b]);
    expect((await aq().listItems(alice, q.id, { status: "COMPLETED" }, all)).total).toBe(0);
    expect(
      (await failure(async () => await aq().listItems(alice, q.id, { status: "DONE" }, all))).param,
    ).toBe("status");
  });

  it("refuses subjects that do not exist in the organization (404 naming the item) and adds none", async () => {
    const q = await queue();
    const foreign = (await groundwork.conversations.create(stranger, {})).id;
    expect(
      await failure(
        async () => await aq().addItems(alice, q.id, { items: subjects(conversations[0] ?? "", foreign) }),
      ),
    ).toEqual({ status: 404, code: "not_found", param: "items[1].subjectId" });
    expect(
      (
        await failure(
          async () =>
            await aq().addItems(alice, q.id, { items: [{ subjectType: "response", subjectId: "resp_x" }] }),
        )
      ).param,
    ).toBe("items[0].subjectId");
    expect((await aq().get(alice, q.id)).counts.pending).toBe(0);
    expect((await failure(async () => await aq().addItems(alice, q.id, { items: [] }))).param).toBe("items");
    expect(
      (
        await failure(
          async () => await aq().addItems(alice, q.id, { items: [{ subjectType: "doc", subjectId: "x" }] }),
        )
      ).param,
    ).toBe("items[0].subjectType");
    const many = Array.from({ length: 501 }, () => subjects(conversations[0] ?? "")[0]);
    expect((await failure(async () => await aq().addItems(alice, q.id, { items: many }))).param).toBe(
      "items",
    );
    expect(
      (await failure(async () => await aq().addItems(stranger, q.id, { items: subjects(foreign) }))).status,
    ).toBe(404);
  });

  it("finds an organization's items on a subject across queues, newest first", async () => {
    const [a] = conversations;
    const one = await queue("one");
    const two = await queue("two");
    const inOne = (await aq().addItems(alice, one.id, { items: subjects(a ?? "") })).added[0];
    const inTwo = (await aq().addItems(alice, two.id, { items: subjects(a ?? "") })).added[0];
    await aq().archive(admin, two.id);
    const found = await aq().findItems(bob, { subjectType: "conversation", subjectId: a }, all);
    expect(found.items.map((i) => i.id)).toEqual([inTwo?.id, inOne?.id]);
    expect((await aq().findItems(stranger, { subjectType: "conversation", subjectId: a }, all)).total).toBe(
      0,
    );
    expect(
      (await failure(async () => await aq().findItems(bob, { subjectType: "conversation" }, all))).param,
    ).toBe("subjectId");
    expect((await failure(async () => await aq().findItems(bob, { subjectId: a }, all))).param).toBe(
      "subjectType",
    );
    expect(
      (
        await failure(
          async () =>
            await aq().findItems(bob, { subjectType: "conversation", subjectId: a, status: "x" }, all),
        )
      ).param,
    ).toBe("status");
  });
});

describe("claims and locks", () => {
  it("locks the oldest free item to one member, returns the member's own lock renewed, and frees expired locks", async () => {
    const q = await queue();
    const [first, second] = (
      await aq().addItems(alice, q.id, {
        items: subjects(...conversations.slice(0, 2)),
      })
    ).added;
    const claimed = await aq().claim(alice, q.id);
    expect(claimed).toMatchObject({ id: first?.id, lockedByKeyId: "key_alice", lockedUntil: now + LOCK_MS });
    now += 1_000;
    expect(await aq().claim(alice, q.id)).toMatchObject({ id: first?.id, lockedUntil: now + LOCK_MS });
    expect(await aq().claim(bob, q.id)).toMatchObject({ id: second?.id, lockedByKeyId: "key_bob" });
    const carol = await member("acme", "key_carol");
    expect(await aq().claim(carol, q.id)).toBeNull();
    // Alice's lock ends at its lockedUntil: from then on the item is free.
    now += LOCK_MS;
    expect(await aq().claim(carol, q.id)).toMatchObject({ id: first?.id, lockedByKeyId: "key_carol" });
    expect(await failure(async () => await aq().updateItem(alice, q.id, first?.id ?? "", {}))).toEqual({
      status: 409,
      code: "item_locked",
      param: "itemId",
    });
  });

  it("uses queues.lockSeconds and refuses a lock shorter than a second", async () => {
    const short = createGroundwork({
      store,
      clock: { now: () => now },
      config: { queues: { lockSeconds: 1 } },
    });
    const q = await queue();
    await aq().addItems(alice, q.id, { items: subjects(conversations[0] ?? "") });
    expect((await short.annotationQueues.claim(alice, q.id))?.lockedUntil).toBe(now + 1_000);
    now += 1_000;
    expect((await short.annotationQueues.claim(bob, q.id))?.lockedByKeyId).toBe("key_bob");
    for (const lockSeconds of [0, 0.5, Number.NaN]) {
      expect(() => createGroundwork({ store, config: { queues: { lockSeconds } } })).toThrow(/lockSeconds/);
    }
  });

  it("refuses claims and item updates on an archived queue, and archiving releases the locks", async () => {
    const q = await queue();
    const [item] = (await aq().addItems(alice, q.id, { items: subjects(conversations[0] ?? "") })).added;
    await aq().claim(alice, q.id);
    const archived = await aq().archive(admin, q.id);
    expect(archived.status).toBe("ARCHIVED");
    expect(await aq().getItem(bob, q.id, item?.id ?? "")).toMatchObject({
      lockedByKeyId: null,
      lockedUntil: null,
    });
    for (const write of [
      async () => await aq().claim(bob, q.id),
      async () =>
        await aq().updateItem(bob, q.id, item?.id ?? "", { scores: [{ name: "quality", value: 3 }] }),
      async () => await aq().addItems(bob, q.id, { items: subjects(conversations[1] ?? "") }),
    ]) {
      expect(await failure(write)).toEqual({ status: 409, code: "conflict", param: "queueId" });
    }
  });

  it("needs a member: a library principal without an API key id cannot claim", async () => {
    const q = await queue();
    expect(
      (await failure(async () => await aq().claim(await groundwork.principal("acme", "member"), q.id)))
        .status,
    ).toBe(400);
  });
});

describe("item updates", () => {
  it("records HUMAN scores with the item's id, completes with every config scored, and reopens", async () => {
    const q = await queue();
    const [item] = (await aq().addItems(alice, q.id, { items: subjects(conversations[0] ?? "") })).added;
    const id = item?.id ?? "";
    const done = await aq().updateItem(alice, q.id, id, { status: "COMPLETED", scores: fullScores });
    expect(done).toMatchObject({
      status: "COMPLETED",
      completedByKeyId: "key_alice",
      completedAt: now,
      lockedByKeyId: "key_alice",
      lockedUntil: now + LOCK_MS,
    });
    expect(done.scoreIds).toHaveLength(3);
    const scores = (await groundwork.scores.list(alice, { subjectId: conversations[0] }, all)).items;
    expect(
      scores.map((s) => [s.name, s.value, s.source, s.queueItemId, s.createdByKeyId, s.dataType]),
    ).toEqual([
      ["resolved", true, "HUMAN", id, "key_alice", "BOOLEAN"],
      ["tone", "kind", "HUMAN", id, "key_alice", "CATEGORICAL"],
      ["quality", 4, "HUMAN", id, "key_alice", "NUMERIC"],
    ]);
    expect(new Set(done.scoreIds)).toEqual(new Set(scores.map((s) => s.id)));
    expect((await aq().get(alice, q.id)).counts).toEqual({ pending: 0, completed: 1 });

    // Reopen: lock and completion cleared; completing again needs scores sent since.
    now += 1_000;
    const reopened = await aq().updateItem(alice, q.id, id, { status: "PENDING" });
    expect(reopened).toMatchObject({
      status: "PENDING",
      lockedByKeyId: null,
      lockedUntil: null,
      completedByKeyId: null,
      completedAt: null,
    });
    expect(reopened.scoreIds).toHaveLength(3);
    expect(await failure(async () => await aq().updateItem(bob, q.id, id, { status: "COMPLETED" }))).toEqual({
      status: 400,
      code: "scores_required",
      param: "scores",
    });
    // Scores sent in earlier calls since the reopen count.
    await aq().updateItem(bob, q.id, id, { scores: [{ name: "quality", value: 2 }] });
    expect(
      (await failure(async () => await aq().updateItem(bob, q.id, id, { status: "COMPLETED" }))).code,
    ).toBe("scores_required");
    await aq().updateItem(bob, q.id, id, {
      scores: [
        { name: "tone", value: "neutral" },
        { name: "resolved", value: false },
      ],
    });
    expect(await aq().updateItem(bob, q.id, id, { status: "COMPLETED" })).toMatchObject({
      status: "COMPLETED",
      completedByKeyId: "key_bob",
    });
    expect((await aq().getItem(alice, q.id, id)).scoreIds).toHaveLength(6);
  });

  it("refuses values outside the config and names that are not configs, recording nothing", async () => {
    const q = await queue();
    const [item] = (await aq().addItems(alice, q.id, { items: subjects(conversations[0] ?? "") })).added;
    const id = item?.id ?? "";
    const cases: Array<[unknown, string]> = [
      [[{ name: "quality", value: 0 }], "scores[0].value"],
      [[{ name: "quality", value: 5.5 }], "scores[0].value"],
      [[{ name: "quality", value: "4" }], "scores[0].value"],
      [[{ name: "tone", value: "angry" }], "scores[0].value"],
      [[{ name: "resolved", value: 1 }], "scores[0].value"],
      [
        [
          { name: "quality", value: 3 },
          { name: "speed", value: 1 },
        ],
        "scores[1].name",
      ],
      [
        [
          { name: "quality", value: 3 },
          { name: "quality", value: 4 },
        ],
        "scores[1].name",
      ],
      [[{ name: "quality", value: 3, comment: "c".repeat(2001) }], "scores[0].comment"],
      [[{ value: 3 }], "scores[0].name"],
      ["no", "scores"],
    ];
    for (const [scores, param] of cases) {
      expect(
        await failure(async () => await aq().updateItem(alice, q.id, id, { scores })),
        JSON.stringify(scores),
      ).toMatchObject({ status: 400, param });
    }
    expect(
      (await failure(async () => await aq().updateItem(alice, q.id, id, { status: "DONE" }))).param,
    ).toBe("status");
    expect(await failure(async () => await aq().updateItem(alice, q.id, "aqi_missing", {}))).toMatchObject({
      status: 404,
      param: "itemId",
    });
    expect(await aq().getItem(alice, q.id, id)).toMatchObject({ scoreIds: [], lockedByKeyId: null });
    // The range ends are inside.
    expect(
      (await aq().updateItem(alice, q.id, id, { scores: [{ name: "quality", value: 5 }] })).scoreIds,
    ).toHaveLength(1);
    expect(
      (await aq().updateItem(alice, q.id, id, { scores: [{ name: "quality", value: 1 }] })).scoreIds,
    ).toHaveLength(2);
  });

  it("takes or renews the caller's lock on any update; PENDING on a pending item releases it", async () => {
    const q = await queue();
    const [first, second] = (
      await aq().addItems(alice, q.id, {
        items: subjects(...conversations.slice(0, 2)),
      })
    ).added;
    const id = first?.id ?? "";
    expect(await aq().updateItem(alice, q.id, id, { scores: [{ name: "quality", value: 3 }] })).toMatchObject(
      {
        lockedByKeyId: "key_alice",
        lockedUntil: now + LOCK_MS,
      },
    );
    // Alice holds the first item: Bob's claim gets the second; Alice's claim returns hers.
    expect((await aq().claim(bob, q.id))?.id).toBe(second?.id);
    expect((await aq().claim(alice, q.id))?.id).toBe(id);
    now += 60_000;
    expect((await aq().updateItem(alice, q.id, id, {})).lockedUntil).toBe(now + LOCK_MS);
    expect(
      (await failure(async () => await aq().updateItem(bob, q.id, id, { status: "PENDING" }))).code,
    ).toBe("item_locked");
    const released = await aq().updateItem(alice, q.id, id, { status: "PENDING" });
    expect(released).toMatchObject({ lockedByKeyId: null, lockedUntil: null, status: "PENDING" });
    // A release is not a reopen: the score sent before still counts towards completion.
    expect(
      (await failure(async () => await aq().updateItem(bob, q.id, id, { status: "COMPLETED" }))).code,
    ).toBe("scores_required");
    expect(
      (
        await aq().updateItem(bob, q.id, id, {
          status: "COMPLETED",
          scores: [
            { name: "tone", value: "rude" },
            { name: "resolved", value: true },
          ],
        })
      ).status,
    ).toBe("COMPLETED");
  });

  it("writes nothing when the item is locked by another member", async () => {
    const q = await queue();
    const [item] = (await aq().addItems(alice, q.id, { items: subjects(conversations[0] ?? "") })).added;
    await aq().claim(alice, q.id);
    expect(
      await failure(
        async () =>
          await aq().updateItem(bob, q.id, item?.id ?? "", { status: "COMPLETED", scores: fullScores }),
      ),
    ).toMatchObject({ status: 409, code: "item_locked" });
    expect((await groundwork.scores.list(alice, {}, all)).total).toBe(0);
    expect(await aq().getItem(bob, q.id, item?.id ?? "")).toMatchObject({
      status: "PENDING",
      lockedByKeyId: "key_alice",
    });
  });
});
