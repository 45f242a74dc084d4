/** `POST /v1/scores` and `GET /v1/scores`: success, validation, roles, isolation and fuzzed bodies. */
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;
/** A Member key of another organization. */
let stranger: string;
let conversationId: string;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
  stranger = await tenant.keyFor("member", "enterprise");
  conversationId = (await bodyOf(await json(tenant.keys.member, "POST", "/v1/conversations", {})))
    .id as string;
});

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const record = (key: string, body: unknown) => json(key, "POST", "/v1/scores", body);
const list = (key: string, query = "") => json(key, "GET", `/v1/scores${query}`);
const keyIdOf = async (key: string) => (await bodyOf(await json(key, "GET", "/v1/me"))).keyId as string;
const score = (overrides: Record<string, unknown> = {}) => ({
  subjectType: "conversation",
  subjectId: conversationId,
  name: "helpfulness",
  dataType: "NUMERIC",
  value: 4.5,
  ...overrides,
});

async function storeResponse(organizationId: string, id: string) {
  await tenant.store.storedResponses.save({
    id,
    organizationId,
    createdByKeyId: "",
    kind: "model",
    conversationId: null,
    input: [],
    response: { id },
    retainForMs: null,
  });
}

describe("POST /v1/scores", () => {
  it("records a HUMAN score (201) with the caller's key and ISO timestamp", async () => {
    const response = await record(tenant.keys.member, score({ comment: "good" }));
    expect(response.status).toBe(201);
    expect(await bodyOf(response)).toEqual({
      id: expect.stringMatching(/^scr_/),
      subjectType: "conversation",
      subjectId: conversationId,
      name: "helpfulness",
      dataType: "NUMERIC",
      value: 4.5,
      comment: "good",
      source: "HUMAN",
      queueItemId: null,
      createdByKeyId: await keyIdOf(tenant.keys.member),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const api = await bodyOf(
      await record(tenant.keys.admin, score({ source: "API", dataType: "BOOLEAN", value: true })),
    );
    expect(api).toMatchObject({ source: "API", value: true, comment: null });
  });

  it("scores stored responses and extractions of the organization", async () => {
    await storeResponse(tenant.organizationId, "resp_mine");
    const extraction = await tenant.store.extractions.create({
      organizationId: tenant.organizationId,
      schemaId: "sch_1",
      schemaVersionId: "scv_1",
      status: "COMPLETED",
      strategy: "SINGLE_SHOT",
      model: "m",
      inputText: "x",
      imageCount: 0,
      inputTokens: 1,
    });
    for (const [subjectType, subjectId] of [
      ["response", "resp_mine"],
      ["extraction", extraction.id],
    ]) {
      const response = await record(
        tenant.keys.member,
        score({ subjectType, subjectId, dataType: "CATEGORICAL", value: "ok" }),
      );
      expect(response.status).toBe(201);
    }
  });

  it("answers 404 for a missing subject, another organization's, or a type without subjects here", async () => {
    const other = await bodyOf(await json(stranger, "POST", "/v1/conversations", {}));
    const otherOrg = (await bodyOf(await json(stranger, "GET", "/v1/me"))).organizationId as string;
    await storeResponse(otherOrg, "resp_theirs");
    for (const body of [
      score({ subjectId: "conv_missing" }),
      score({ subjectId: other.id }),
      score({ subjectType: "response", subjectId: "resp_theirs" }),
      score({ subjectType: "extraction", subjectId: conversationId }),
      score({ subjectType: "dataset_item", subjectId: "dsi_1" }),
      score({ subjectType: "trace", subjectId: "trc_1" }),
      score({ subjectType: "run_result", subjectId: "xres_1" }),
    ]) {
      const response = await record(tenant.keys.member, body);
      expect(response.status, JSON.stringify(body)).toBe(404);
      expect((await bodyOf(response)).error).toMatchObject({
        type: "invalid_request_error",
        code: "not_found",
        param: "subjectId",
      });
    }
    // The stranger can score their own conversation, not ours.
    expect((await record(stranger, score({ subjectId: other.id }))).status).toBe(201);
    expect((await record(stranger, score())).status).toBe(404);
  });

  it("answers 400 with the envelope and param for invalid bodies", async () => {
    const cases: Array<[unknown, string | null]> = [
      [score({ value: "4.5" }), "value"],
      [score({ dataType: "BOOLEAN", value: "yes" }), "value"],
      [score({ dataType: "CATEGORICAL", value: 3 }), "value"],
      [score({ dataType: "CATEGORICAL", value: "" }), "value"],
      [score({ value: null }), "value"],
      [score({ name: "bad name" }), "name"],
      [score({ name: "x".repeat(101) }), "name"],
      [score({ comment: "x".repeat(2001) }), "comment"],
      [score({ source: "EVAL" }), "source"],
      [score({ source: "BOT" }), "source"],
      [score({ subjectType: "file" }), "subjectType"],
      [score({ dataType: "TEXT" }), "dataType"],
      [{ ...score(), subjectId: undefined }, "subjectId"],
      [[], null],
      ["not json", null],
      ["", null],
    ];
    for (const [body, param] of cases) {
      const response = await record(tenant.keys.member, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { error } = await bodyOf(response);
      expect(error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", param });
      expect(error.message.length).toBeGreaterThan(0);
    }
  });

  it("needs the Member role (a Viewer gets 403) and a key (401)", async () => {
    const viewer = await record(tenant.keys.viewer, score());
    expect(viewer.status).toBe(403);
    expect((await bodyOf(viewer)).error.code).toBe("forbidden");
    expect((await app.request("/v1/scores", { method: "POST", body: JSON.stringify(score()) })).status).toBe(
      401,
    );
  });

  it("never answers 500 to fuzzed bodies", async () => {
    const field = fc.oneof(
      fc.string(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            subjectType: fc.oneof(fc.constantFrom("conversation", "response", "trace"), field),
            subjectId: fc.oneof(fc.constant(conversationId), field),
            name: fc.oneof(fc.constant("n"), field),
            dataType: fc.oneof(fc.constantFrom("NUMERIC", "CATEGORICAL", "BOOLEAN"), field),
            value: field,
            comment: field,
            source: fc.oneof(fc.constantFrom("HUMAN", "API", "EVAL"), field),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const response = await record(tenant.keys.member, body);
          expect([201, 400, 404]).toContain(response.status);
          if (response.status !== 201)
            expect((await bodyOf(response)).error.type).toBe("invalid_request_error");
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("GET /v1/scores", () => {
  it("lists the organization's scores newest first with every filter (Viewer may list)", async () => {
    await storeResponse(tenant.organizationId, "resp_mine");
    const first = await bodyOf(await record(tenant.keys.member, score()));
    const second = await bodyOf(
      await record(tenant.keys.member, score({ name: "tone", dataType: "CATEGORICAL", value: "warm" })),
    );
    const third = await bodyOf(
      await record(
        tenant.keys.admin,
        score({
          subjectType: "response",
          subjectId: "resp_mine",
          source: "API",
          dataType: "BOOLEAN",
          value: false,
        }),
      ),
    );
    const ids = async (query: string) => {
      const response = await list(tenant.keys.viewer, query);
      expect(response.status, query).toBe(200);
      return ((await bodyOf(response)).content as Array<{ id: string }>).map((s) => s.id);
    };
    expect(await ids("")).toEqual([third.id, second.id, first.id]);
    expect(await ids("?subjectType=conversation")).toEqual([second.id, first.id]);
    expect(await ids(`?subjectId=${conversationId}&name=tone`)).toEqual([second.id]);
    expect(await ids("?source=API")).toEqual([third.id]);
    expect(await ids("?source=EVAL")).toEqual([]);
    expect(await ids("?dataType=NUMERIC")).toEqual([first.id]);
    expect(await ids(`?from=${encodeURIComponent(first.createdAt as string)}`)).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
    expect(await ids(`?to=${encodeURIComponent(first.createdAt as string)}`)).toEqual([]);
    expect(await ids("?from=2999-01-01T00:00:00%2B02:00")).toEqual([]);
    const paged = await bodyOf(await list(tenant.keys.viewer, "?page=1&size=2"));
    expect(paged).toMatchObject({ page: 1, size: 2, totalElements: 3, totalPages: 2 });
    expect(paged.content).toEqual([first]);
    // Another organization sees none of them.
    expect(await bodyOf(await list(stranger))).toMatchObject({ content: [], totalElements: 0 });
  });

  it("answers 400 naming the bad query parameter", async () => {
    for (const [query, param] of [
      ["?from=yesterday", "from"],
      ["?to=2025-01-01", "to"],
      ["?from=2025-01-01T10:00:00", "from"],
      ["?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z", "to"],
      ["?subjectType=file", "subjectType"],
      ["?source=human", "source"],
      ["?dataType=number", "dataType"],
      ["?page=-1", "page"],
      ["?size=101", "size"],
    ] as const) {
      const response = await list(tenant.keys.viewer, query);
      expect(response.status, query).toBe(400);
      expect((await bodyOf(response)).error).toMatchObject({ code: "invalid_request", param });
    }
  });

  it("needs a key", async () => {
    expect((await app.request("/v1/scores")).status).toBe(401);
  });
});
