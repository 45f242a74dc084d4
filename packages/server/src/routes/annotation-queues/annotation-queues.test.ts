/** `/v1/annotation-queues…` and `/v1/annotation-queue-items` (PLATFORM.md §12): success, validation, locks, roles, isolation, fuzzed bodies. */
import { createGroundwork } from "@groundwork/platform";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;
/** An Admin key of another organization. */
let stranger: string;
/** A second Member key of the organization. */
let colleague: string;
let conversations: string[];

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const CONFIGS = [
  { name: "quality", dataType: "NUMERIC", min: 1, max: 5 },
  { name: "tone", dataType: "CATEGORICAL", categories: ["kind", "rude"] },
];
const SCORES = [
  { name: "quality", value: 5, comment: "clear" },
  { name: "tone", value: "kind" },
];

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
  stranger = await tenant.keyFor("admin", "enterprise");
  colleague = (await tenant.store.apiKeys.create({ organizationId: tenant.organizationId, role: "member" }))
    .key;
  conversations = [];
  for (const title of ["one", "two", "three"]) {
    const created = await call(tenant.keys.member, "POST", "/v1/conversations", { title });
    conversations.push((await bodyOf(created)).id as string);
  }
});

function call(key: string, method: string, path: string, body?: unknown, application = app) {
  return application.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}
const admin = (method: string, path: string, body?: unknown) => call(tenant.keys.admin, method, path, body);
const member = (method: string, path: string, body?: unknown) => call(tenant.keys.member, method, path, body);
const viewer = (method: string, path: string, body?: unknown) => call(tenant.keys.viewer, method, path, body);
const keyIdOf = async (key: string) => (await bodyOf(await call(key, "GET", "/v1/me"))).keyId as string;
const subjects = (...ids: Array<string | undefined>) =>
  ids.map((subjectId) => ({ subjectType: "conversation", subjectId }));

async function createQueue(name = "support"): Promise<string> {
  const response = await admin("POST", "/v1/annotation-queues", { name, scoreConfigs: CONFIGS });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).id as string;
}

async function addItems(queueId: string, ids: Array<string | undefined>): Promise<string[]> {
  const response = await member("POST", `/v1/annotation-queues/${queueId}/items`, {
    items: subjects(...ids),
  });
  expect(response.status).toBe(201);
  return ((await bodyOf(response)).added as Array<{ id: string }>).map((item) => item.id);
}

describe("queues", () => {
  it("creates (201), reads, lists by status, updates, and archives idempotently", async () => {
    const created = await admin("POST", "/v1/annotation-queues", {
      name: "support",
      description: "weekly",
      scoreConfigs: [...CONFIGS, { name: "resolved", dataType: "BOOLEAN", min: null }],
    });
    expect(created.status).toBe(201);
    const body = await bodyOf(created);
    expect(body).toEqual({
      id: expect.stringMatching(/^aq_/),
      name: "support",
      description: "weekly",
      scoreConfigs: [...CONFIGS, { name: "resolved", dataType: "BOOLEAN" }],
      status: "ACTIVE",
      counts: { pending: 0, completed: 0 },
      createdAt: ISO,
      updatedAt: ISO,
      archivedAt: null,
    });
    const id = body.id as string;
    const other = await createQueue("triage");
    expect(
      (await admin("POST", "/v1/annotation-queues", { name: "support", scoreConfigs: CONFIGS })).status,
    ).toBe(409);
    const taken = await admin("PATCH", `/v1/annotation-queues/${id}`, { name: "triage" });
    expect(taken.status).toBe(409);
    expect((await bodyOf(taken)).error).toMatchObject({ code: "conflict", param: "name" });
    const patched = await admin("PATCH", `/v1/annotation-queues/${id}`, { description: null });
    expect(patched.status).toBe(200);
    expect(await bodyOf(patched)).toMatchObject({ description: null, name: "support" });
    expect(await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}`))).toMatchObject({
      id,
      name: "support",
    });

    const archived = await admin("POST", `/v1/annotation-queues/${id}/archive`);
    expect(archived.status).toBe(200);
    const archivedBody = await bodyOf(archived);
    expect(archivedBody).toMatchObject({ status: "ARCHIVED", archivedAt: ISO });
    const again = await bodyOf(await admin("POST", `/v1/annotation-queues/${id}/archive`));
    expect(again.archivedAt).toBe(archivedBody.archivedAt);
    const locked = await admin("PATCH", `/v1/annotation-queues/${id}`, { description: "x" });
    expect(locked.status).toBe(409);
    expect((await bodyOf(locked)).error).toMatchObject({ code: "conflict", param: "queueId" });

    const list = async (query: string) => {
      const page = await bodyOf(await viewer("GET", `/v1/annotation-queues${query}`));
      return page;
    };
    expect(await list("")).toMatchObject({ totalElements: 1, content: [{ id: other }] });
    expect(await list("?status=ARCHIVED")).toMatchObject({ totalElements: 1, content: [{ id }] });
    expect(await list("?status=all&size=1")).toMatchObject({
      page: 0,
      size: 1,
      totalElements: 2,
      totalPages: 2,
      content: [{ id: other }],
    });
  });

  it("answers 400 with the error envelope and param for bad bodies and queries", async () => {
    const id = await createQueue();
    const [item] = await addItems(id, [conversations[0]]);
    const cases: Array<[string, string, unknown, string | null]> = [
      ["POST", "/v1/annotation-queues", { scoreConfigs: CONFIGS }, "name"],
      ["POST", "/v1/annotation-queues", { name: "x" }, "scoreConfigs"],
      ["POST", "/v1/annotation-queues", { name: "x", scoreConfigs: [] }, "scoreConfigs"],
      [
        "POST",
        "/v1/annotation-queues",
        { name: "x", scoreConfigs: [{ name: "a", dataType: "X" }] },
        "scoreConfigs[0].dataType",
      ],
      [
        "POST",
        "/v1/annotation-queues",
        { name: "x", scoreConfigs: [{ name: "a", dataType: "CATEGORICAL", categories: ["only"] }] },
        "scoreConfigs[0].categories",
      ],
      [
        "POST",
        "/v1/annotation-queues",
        { name: "x", scoreConfigs: [{ name: "a", dataType: "NUMERIC", min: 3, max: 1 }] },
        "scoreConfigs[0].max",
      ],
      [
        "POST",
        "/v1/annotation-queues",
        {
          name: "x",
          scoreConfigs: [
            { name: "a", dataType: "BOOLEAN" },
            { name: "a", dataType: "BOOLEAN" },
          ],
        },
        "scoreConfigs[1].name",
      ],
      ["POST", "/v1/annotation-queues", { name: "x", description: 3, scoreConfigs: CONFIGS }, "description"],
      ["POST", "/v1/annotation-queues", "not json", null],
      ["PATCH", `/v1/annotation-queues/${id}`, { name: "" }, "name"],
      [
        "PATCH",
        `/v1/annotation-queues/${id}`,
        { scoreConfigs: [{ name: "q", dataType: "BOOLEAN", max: 1 }] },
        "scoreConfigs[0].max",
      ],
      ["POST", `/v1/annotation-queues/${id}/items`, {}, "items"],
      ["POST", `/v1/annotation-queues/${id}/items`, { items: [] }, "items"],
      [
        "POST",
        `/v1/annotation-queues/${id}/items`,
        { items: [{ subjectType: "conversation" }] },
        "items[0].subjectId",
      ],
      [
        "POST",
        `/v1/annotation-queues/${id}/items`,
        { items: [{ subjectType: "x", subjectId: "y" }] },
        "items[0].subjectType",
      ],
      [
        "POST",
        `/v1/annotation-queues/${id}/items`,
        { items: Array.from({ length: 501 }, () => subjects(conversations[0])[0]) },
        "items",
      ],
      ["PATCH", `/v1/annotation-queues/${id}/items/${item}`, { status: "DONE" }, "status"],
      [
        "PATCH",
        `/v1/annotation-queues/${id}/items/${item}`,
        { scores: [{ name: "quality", value: 9 }] },
        "scores[0].value",
      ],
      [
        "PATCH",
        `/v1/annotation-queues/${id}/items/${item}`,
        { scores: [{ name: "tone", value: "meh" }] },
        "scores[0].value",
      ],
      [
        "PATCH",
        `/v1/annotation-queues/${id}/items/${item}`,
        { scores: [{ name: "speed", value: 1 }] },
        "scores[0].name",
      ],
      ["PATCH", `/v1/annotation-queues/${id}/items/${item}`, { scores: {} }, "scores"],
      ["GET", "/v1/annotation-queues?status=open", undefined, "status"],
      ["GET", "/v1/annotation-queues?page=-1", undefined, "page"],
      ["GET", `/v1/annotation-queues/${id}/items?status=done`, undefined, "status"],
      ["GET", `/v1/annotation-queues/${id}/items?size=101`, undefined, "size"],
      ["GET", "/v1/annotation-queue-items", undefined, "subjectType"],
      ["GET", "/v1/annotation-queue-items?subjectType=conversation", undefined, "subjectId"],
      [
        "GET",
        `/v1/annotation-queue-items?subjectType=doc&subjectId=${conversations[0]}`,
        undefined,
        "subjectType",
      ],
      [
        "GET",
        `/v1/annotation-queue-items?subjectType=conversation&subjectId=${conversations[0]}&status=x`,
        undefined,
        "status",
      ],
    ];
    for (const [method, path, body, param] of cases) {
      const response = await admin(method, path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      const { error } = await bodyOf(response);
      expect(error, `${method} ${path}`).toMatchObject({ type: "invalid_request_error", param });
    }
    const item0 = await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}/items/${item}`));
    expect(item0).toMatchObject({ scoreIds: [], lockedByKeyId: null });
  });

  it("never answers 5xx to malformed bodies", async () => {
    const id = await createQueue();
    const [item] = await addItems(id, [conversations[0]]);
    const config = fc.record(
      {
        name: fc.oneof(fc.constantFrom("quality", "tone", "a"), fc.string()),
        dataType: fc.oneof(fc.constantFrom("NUMERIC", "CATEGORICAL", "BOOLEAN"), fc.jsonValue()),
        min: fc.oneof(fc.double(), fc.jsonValue()),
        max: fc.oneof(fc.double(), fc.jsonValue()),
        categories: fc.oneof(fc.array(fc.string(), { maxLength: 4 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    const score = fc.record(
      {
        name: fc.oneof(fc.constantFrom("quality", "tone"), fc.jsonValue()),
        value: fc.oneof(fc.double(), fc.constantFrom("kind", "rude"), fc.jsonValue()),
        comment: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const bodies = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          { name: fc.jsonValue(), scoreConfigs: fc.array(config, { maxLength: 3 }) },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            status: fc.oneof(fc.constantFrom("PENDING", "COMPLETED"), fc.jsonValue()),
            scores: fc.oneof(fc.array(score, { maxLength: 3 }), fc.jsonValue()),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc
        .array(fc.record({ subjectType: fc.jsonValue(), subjectId: fc.jsonValue() }), { maxLength: 3 })
        .map((items) => JSON.stringify({ items })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<[string, string]>(
          ["POST", "/v1/annotation-queues"],
          ["PATCH", `/v1/annotation-queues/${id}`],
          ["POST", `/v1/annotation-queues/${id}/items`],
          ["PATCH", `/v1/annotation-queues/${id}/items/${item}`],
          ["POST", `/v1/annotation-queues/${id}/items/claim`],
        ),
        bodies,
        async ([method, path], body) => {
          const response = await admin(method, path, body);
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect((await bodyOf(response)).error).toBeDefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("items, claims and locks", () => {
  it("adds items (201 {added, skipped}), refuses unknown subjects (404), lists oldest first", async () => {
    const id = await createQueue();
    const added = await member("POST", `/v1/annotation-queues/${id}/items`, {
      items: subjects(conversations[1], conversations[0], conversations[1]),
    });
    expect(added.status).toBe(201);
    const body = await bodyOf(added);
    expect(body.skipped).toBe(1);
    expect(body.added).toEqual([
      {
        id: expect.stringMatching(/^aqi_/),
        queueId: id,
        subjectType: "conversation",
        subjectId: conversations[1],
        status: "PENDING",
        lockedByKeyId: null,
        lockedUntil: null,
        completedByKeyId: null,
        completedAt: null,
        scoreIds: [],
        createdAt: ISO,
        updatedAt: ISO,
      },
      expect.objectContaining({ subjectId: conversations[0] }),
    ]);
    const again = await bodyOf(
      await member("POST", `/v1/annotation-queues/${id}/items`, { items: subjects(conversations[0]) }),
    );
    expect(again).toEqual({ added: [], skipped: 1 });
    const foreignConversation = (await bodyOf(await call(stranger, "POST", "/v1/conversations", {})))
      .id as string;
    const missing = await member("POST", `/v1/annotation-queues/${id}/items`, {
      items: subjects(conversations[2], foreignConversation),
    });
    expect(missing.status).toBe(404);
    expect((await bodyOf(missing)).error).toMatchObject({ code: "not_found", param: "items[1].subjectId" });
    const page = await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}/items?size=1&page=1`));
    expect(page).toMatchObject({
      totalElements: 2,
      totalPages: 2,
      content: [{ subjectId: conversations[0] }],
    });
    expect((await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}`))).counts).toEqual({
      pending: 2,
      completed: 0,
    });
  });

  it("claims (200, then the caller's own lock again; 204 when nothing is free), 409 item_locked, scores and completion", async () => {
    const id = await createQueue();
    const [first, second] = await addItems(id, [conversations[0], conversations[1]]);
    const [memberKeyId, colleagueKeyId] = [await keyIdOf(tenant.keys.member), await keyIdOf(colleague)];
    const claim = (key: string) => call(key, "POST", `/v1/annotation-queues/${id}/items/claim`);

    const mine = await claim(tenant.keys.member);
    expect(mine.status).toBe(200);
    expect(await bodyOf(mine)).toMatchObject({ id: first, lockedByKeyId: memberKeyId, lockedUntil: ISO });
    expect((await bodyOf(await claim(tenant.keys.member))).id).toBe(first);
    expect((await bodyOf(await claim(colleague))).id).toBe(second);
    const none = await claim(tenant.keys.admin);
    expect(none.status).toBe(204);
    expect(await none.text()).toBe("");

    const lockedOut = await call(colleague, "PATCH", `/v1/annotation-queues/${id}/items/${first}`, {
      scores: SCORES,
    });
    expect(lockedOut.status).toBe(409);
    expect((await bodyOf(lockedOut)).error).toMatchObject({ code: "item_locked", param: "itemId" });

    const incomplete = await member("PATCH", `/v1/annotation-queues/${id}/items/${first}`, {
      status: "COMPLETED",
      scores: [SCORES[0]],
    });
    expect(incomplete.status).toBe(400);
    expect((await bodyOf(incomplete)).error).toMatchObject({ code: "scores_required", param: "scores" });
    const done = await member("PATCH", `/v1/annotation-queues/${id}/items/${first}`, {
      status: "COMPLETED",
      scores: SCORES,
    });
    expect(done.status).toBe(200);
    const doneBody = await bodyOf(done);
    expect(doneBody).toMatchObject({
      status: "COMPLETED",
      completedByKeyId: memberKeyId,
      completedAt: ISO,
      lockedByKeyId: memberKeyId,
    });
    expect(doneBody.scoreIds).toHaveLength(2);
    const scores = await bodyOf(await viewer("GET", `/v1/scores?subjectId=${conversations[0]}`));
    expect(scores.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "quality",
          value: 5,
          comment: "clear",
          source: "HUMAN",
          queueItemId: first,
        }),
        expect.objectContaining({ name: "tone", value: "kind", dataType: "CATEGORICAL", queueItemId: first }),
      ]),
    );
    expect((await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}`))).counts).toEqual({
      pending: 1,
      completed: 1,
    });

    // Reopen: lock and completion cleared; the colleague may then work on it.
    const reopened = await bodyOf(
      await member("PATCH", `/v1/annotation-queues/${id}/items/${first}`, { status: "PENDING" }),
    );
    expect(reopened).toMatchObject({
      status: "PENDING",
      lockedByKeyId: null,
      lockedUntil: null,
      completedByKeyId: null,
      completedAt: null,
    });
    const taken = await call(colleague, "PATCH", `/v1/annotation-queues/${id}/items/${first}`, {
      scores: SCORES,
    });
    expect(await bodyOf(taken)).toMatchObject({ lockedByKeyId: colleagueKeyId, status: "PENDING" });
    const completed = await call(colleague, "PATCH", `/v1/annotation-queues/${id}/items/${first}`, {
      status: "COMPLETED",
    });
    expect(await bodyOf(completed)).toMatchObject({ status: "COMPLETED", completedByKeyId: colleagueKeyId });
    const listed = await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}/items?status=COMPLETED`));
    expect(listed).toMatchObject({ totalElements: 1, content: [{ id: first }] });
  });

  it("frees an item whose lock expired (GROUNDWORK_QUEUE_LOCK_SECONDS through the platform config)", async () => {
    let now = Date.parse("2025-01-31T09:00:00.000Z");
    const groundwork = createGroundwork({
      store: tenant.store,
      clock: { now: () => now },
      config: { queues: { lockSeconds: 1 } },
    });
    const timed = createApp({ groundwork });
    const id = await createQueue();
    const [item] = await addItems(id, [conversations[0]]);
    const claim = (key: string) =>
      call(key, "POST", `/v1/annotation-queues/${id}/items/claim`, undefined, timed);
    expect(await bodyOf(await claim(tenant.keys.member))).toMatchObject({
      id: item,
      lockedUntil: "2025-01-31T09:00:01.000Z",
    });
    now += 999;
    expect((await claim(colleague)).status).toBe(204);
    now += 1;
    expect(await bodyOf(await claim(colleague))).toMatchObject({
      id: item,
      lockedByKeyId: await keyIdOf(colleague),
      lockedUntil: "2025-01-31T09:00:02.000Z",
    });
  });

  it("finds items by subject across queues, newest first", async () => {
    const one = await createQueue("one");
    const two = await createQueue("two");
    const [inOne] = await addItems(one, [conversations[0]]);
    const [inTwo] = await addItems(two, [conversations[0], conversations[1]]);
    const found = await viewer(
      "GET",
      `/v1/annotation-queue-items?subjectType=conversation&subjectId=${conversations[0]}`,
    );
    expect(found.status).toBe(200);
    expect(await bodyOf(found)).toMatchObject({
      totalElements: 2,
      content: [
        { id: inTwo, queueId: two },
        { id: inOne, queueId: one },
      ],
    });
    const completed = await bodyOf(
      await viewer(
        "GET",
        `/v1/annotation-queue-items?subjectType=conversation&subjectId=${conversations[0]}&status=COMPLETED`,
      ),
    );
    expect(completed.totalElements).toBe(0);
    const foreign = await bodyOf(
      await call(
        stranger,
        "GET",
        `/v1/annotation-queue-items?subjectType=conversation&subjectId=${conversations[0]}`,
      ),
    );
    expect(foreign.totalElements).toBe(0);
  });

  it("answers 409 on writes to an archived queue and releases its locks", async () => {
    const id = await createQueue();
    const [item] = await addItems(id, [conversations[0]]);
    await member("POST", `/v1/annotation-queues/${id}/items/claim`);
    await admin("POST", `/v1/annotation-queues/${id}/archive`);
    expect(await bodyOf(await viewer("GET", `/v1/annotation-queues/${id}/items/${item}`))).toMatchObject({
      lockedByKeyId: null,
      lockedUntil: null,
    });
    for (const [method, path, body] of [
      ["POST", `/v1/annotation-queues/${id}/items`, { items: subjects(conversations[1]) }],
      ["POST", `/v1/annotation-queues/${id}/items/claim`, undefined],
      ["PATCH", `/v1/annotation-queues/${id}/items/${item}`, { scores: SCORES }],
      ["PATCH", `/v1/annotation-queues/${id}`, { name: "renamed" }],
    ] as const) {
      const response = await admin(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(409);
    }
    expect((await viewer("GET", `/v1/annotation-queues/${id}/items`)).status).toBe(200);
  });
});

describe("roles and isolation", () => {
  it("lets Viewers read and find, Members work on items, and only Admins manage queues", async () => {
    const id = await createQueue();
    const [item] = await addItems(id, [conversations[0]]);
    const forbidden = async (key: string, method: string, path: string, body?: unknown) => {
      const response = await call(key, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect((await bodyOf(response)).error.code).toBe("forbidden");
    };
    for (const [method, path, body] of [
      ["POST", "/v1/annotation-queues", { name: "v", scoreConfigs: CONFIGS }],
      ["PATCH", `/v1/annotation-queues/${id}`, { name: "v" }],
      ["POST", `/v1/annotation-queues/${id}/archive`, undefined],
      ["POST", `/v1/annotation-queues/${id}/items`, { items: subjects(conversations[1]) }],
      ["POST", `/v1/annotation-queues/${id}/items/claim`, undefined],
      ["PATCH", `/v1/annotation-queues/${id}/items/${item}`, { scores: SCORES }],
    ] as const) {
      await forbidden(tenant.keys.viewer, method, path, body);
    }
    for (const [method, path, body] of [
      ["POST", "/v1/annotation-queues", { name: "m", scoreConfigs: CONFIGS }],
      ["PATCH", `/v1/annotation-queues/${id}`, { name: "m" }],
      ["POST", `/v1/annotation-queues/${id}/archive`, undefined],
    ] as const) {
      await forbidden(tenant.keys.member, method, path, body);
    }
    for (const path of [
      "/v1/annotation-queues",
      `/v1/annotation-queues/${id}`,
      `/v1/annotation-queues/${id}/items`,
      `/v1/annotation-queues/${id}/items/${item}`,
      `/v1/annotation-queue-items?subjectType=conversation&subjectId=${conversations[0]}`,
    ]) {
      expect((await viewer("GET", path)).status, path).toBe(200);
    }
    expect(
      (await member("POST", `/v1/annotation-queues/${id}/items`, { items: subjects(conversations[1]) }))
        .status,
    ).toBe(201);
    expect((await member("POST", `/v1/annotation-queues/${id}/items/claim`)).status).toBe(200);
    expect(
      (await member("PATCH", `/v1/annotation-queues/${id}/items/${item}`, { scores: SCORES })).status,
    ).toBe(200);
    expect((await admin("POST", `/v1/annotation-queues/${id}/archive`)).status).toBe(200);
  });

  it("answers 404 for another organization's queues and items", async () => {
    const id = await createQueue();
    const [item] = await addItems(id, [conversations[0]]);
    for (const [method, path, body] of [
      ["GET", `/v1/annotation-queues/${id}`, undefined],
      ["PATCH", `/v1/annotation-queues/${id}`, { name: "mine" }],
      ["POST", `/v1/annotation-queues/${id}/archive`, undefined],
      ["GET", `/v1/annotation-queues/${id}/items`, undefined],
      ["POST", `/v1/annotation-queues/${id}/items`, { items: subjects(conversations[1]) }],
      ["POST", `/v1/annotation-queues/${id}/items/claim`, undefined],
      ["GET", `/v1/annotation-queues/${id}/items/${item}`, undefined],
      ["PATCH", `/v1/annotation-queues/${id}/items/${item}`, { scores: SCORES }],
    ] as const) {
      const response = await call(stranger, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await bodyOf(response)).error.code).toBe("not_found");
    }
    expect(
      (await bodyOf(await call(stranger, "GET", "/v1/annotation-queues?status=all"))).totalElements,
    ).toBe(0);
    // A stranger's queue cannot take this organization's subjects either.
    const theirs = (
      await bodyOf(
        await call(stranger, "POST", "/v1/annotation-queues", { name: "x", scoreConfigs: CONFIGS }),
      )
    ).id as string;
    const foreignSubject = await call(stranger, "POST", `/v1/annotation-queues/${theirs}/items`, {
      items: subjects(conversations[0]),
    });
    expect(foreignSubject.status).toBe(404);
    expect((await bodyOf(foreignSubject)).error.param).toBe("items[0].subjectId");
    const missingItem = await member("GET", `/v1/annotation-queues/${id}/items/aqi_missing`);
    expect((await bodyOf(missingItem)).error).toMatchObject({ code: "not_found", param: "itemId" });
    expect((await bodyOf(await member("GET", `/v1/annotation-queues/${id}`))).counts).toEqual({
      pending: 1,
      completed: 0,
    });
  });
});
