/** `/v1/datasets…` (PLATFORM.md §8): each endpoint's success, validation, roles and organization isolation. */
import { createGroundwork } from "@groundwork/platform";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import {
  bearer,
  bodyOf,
  createTestTenant,
  queryTestStore,
  type TestTenant,
} from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;
/** An Admin key of another organization. */
let stranger: string;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
  stranger = await tenant.keyFor("admin", "enterprise");
});

const call = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const member = (method: string, path: string, body?: unknown) => call(tenant.keys.member, method, path, body);

async function dataset(name = "qa"): Promise<string> {
  const response = await member("POST", "/v1/datasets", { name });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).id as string;
}

async function addItems(id: string, items: unknown[]): Promise<string[]> {
  const response = await member("POST", `/v1/datasets/${id}/items/batch`, { items });
  expect(response.status).toBe(201);
  return ((await bodyOf(response)).items as Array<{ id: string }>).map((item) => item.id);
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe("datasets", () => {
  it("creates (201), reads, lists with a name filter, updates and deletes (204)", async () => {
    const created = await member("POST", "/v1/datasets", {
      name: "Golden QA",
      description: "hand-checked",
      metadata: { team: "ml" },
    });
    expect(created.status).toBe(201);
    const body = await bodyOf(created);
    expect(body).toEqual({
      id: expect.stringMatching(/^ds_/),
      object: "dataset",
      name: "Golden QA",
      description: "hand-checked",
      metadata: { team: "ml" },
      itemCount: 0,
      latestVersionId: null,
      latestVersionNumber: null,
      createdAt: ISO,
      updatedAt: ISO,
    });
    const id = body.id as string;
    await dataset("support");
    const filtered = await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/datasets?name=golden"));
    expect(filtered).toMatchObject({ page: 0, size: 20, totalElements: 1, totalPages: 1 });
    const listed = await bodyOf(await call(tenant.keys.viewer, "GET", "/v1/datasets?size=1"));
    expect(listed).toMatchObject({ totalElements: 2, totalPages: 2, content: [{ name: "support" }] });
    expect((await bodyOf(await call(tenant.keys.viewer, "GET", `/v1/datasets/${id}`))).name).toBe(
      "Golden QA",
    );

    const patched = await member("PATCH", `/v1/datasets/${id}`, { description: null, metadata: {} });
    expect(patched.status).toBe(200);
    expect(await bodyOf(patched)).toMatchObject({ description: null, metadata: {}, name: "Golden QA" });
    const taken = await member("PATCH", `/v1/datasets/${id}`, { name: "support" });
    expect(taken.status).toBe(409);
    expect((await bodyOf(taken)).error).toMatchObject({ code: "conflict", param: "name" });
    expect((await member("POST", "/v1/datasets", { name: "support" })).status).toBe(409);

    const deleted = await call(tenant.keys.admin, "DELETE", `/v1/datasets/${id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await member("GET", `/v1/datasets/${id}`)).status).toBe(404);
  });

  it("answers 400 with the error envelope and param for bad bodies and queries", async () => {
    const id = await dataset();
    const cases: Array<[string, string, unknown, string | null]> = [
      ["POST", "/v1/datasets", {}, "name"],
      ["POST", "/v1/datasets", { name: "x", description: 5 }, "description"],
      ["POST", "/v1/datasets", { name: "x", metadata: [1] }, "metadata"],
      ["POST", "/v1/datasets", "not json", null],
      ["PATCH", `/v1/datasets/${id}`, { name: "" }, "name"],
      ["POST", `/v1/datasets/${id}/items`, { expectedOutput: 1 }, "input"],
      ["POST", `/v1/datasets/${id}/items`, { input: 1, sourceTraceId: "abc" }, "sourceTraceId"],
      [
        "POST",
        `/v1/datasets/${id}/items/batch`,
        { items: [{ input: 1 }, { input: null }] },
        "items[1].input",
      ],
      [
        "POST",
        `/v1/datasets/${id}/items/batch`,
        { items: [{ input: 1 }, { input: 2, metadata: 3 }] },
        "items[1].metadata",
      ],
      ["POST", `/v1/datasets/${id}/items/batch`, { items: [] }, "items"],
      ["POST", `/v1/datasets/${id}/items/batch`, {}, "items"],
      ["POST", `/v1/datasets/${id}/versions`, { description: 1 }, "description"],
      ["GET", "/v1/datasets?page=-1", undefined, "page"],
      ["GET", `/v1/datasets/${id}/items?size=101`, undefined, "size"],
      ["GET", `/v1/datasets/${id}/versions?size=0`, undefined, "size"],
    ];
    for (const [method, path, body, param] of cases) {
      const response = await member(method, path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      const { error } = await bodyOf(response);
      expect(error).toMatchObject({ type: "invalid_request_error", param });
    }
    expect((await member("GET", `/v1/datasets/${id}/items`)).status).toBe(200);
    expect((await bodyOf(await member("GET", `/v1/datasets/${id}`))).itemCount).toBe(0);
  });

  it("refuses an item over 256 KiB with 400 item_too_large", async () => {
    const id = await dataset();
    const response = await member("POST", `/v1/datasets/${id}/items/batch`, {
      items: [{ input: "ok" }, { input: "x".repeat(200 * 1024), metadata: { note: "y".repeat(60 * 1024) } }],
    });
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).error).toMatchObject({ code: "item_too_large", param: "items[1].input" });
  });

  it("never answers 5xx to malformed item bodies", async () => {
    const id = await dataset();
    const item = fc.record(
      {
        input: fc.jsonValue(),
        expectedOutput: fc.jsonValue(),
        metadata: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
        sourceTraceId: fc.oneof(fc.constant("trc_abc"), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("items", "items/batch", "versions"),
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          item.map((v) => JSON.stringify(v)),
          fc.array(item, { maxLength: 3 }).map((items) => JSON.stringify({ items })),
        ),
        async (path, body) => {
          const response = await member("POST", `/v1/datasets/${id}/${path}`, body);
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect((await bodyOf(response)).error).toBeDefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("items and versions", () => {
  it("adds one (201) and many (201 {count, items}), lists oldest first in call order", async () => {
    const id = await dataset();
    const single = await member("POST", `/v1/datasets/${id}/items`, {
      input: { question: "2+2?" },
      expectedOutput: "4",
      sourceTraceId: "trc_01hzyxw",
    });
    expect(single.status).toBe(201);
    expect(await bodyOf(single)).toEqual({
      id: expect.stringMatching(/^dsi_/),
      object: "dataset_item",
      datasetId: id,
      input: { question: "2+2?" },
      expectedOutput: "4",
      metadata: {},
      sourceTraceId: "trc_01hzyxw",
      createdAt: ISO,
      updatedAt: ISO,
    });
    const batch = await member("POST", `/v1/datasets/${id}/items/batch`, {
      items: ["c", "a", "b"].map((input) => ({ input })),
    });
    expect(batch.status).toBe(201);
    expect(await bodyOf(batch)).toMatchObject({
      count: 3,
      items: [{ input: "c" }, { input: "a" }, { input: "b" }],
    });
    const page = await bodyOf(
      await call(tenant.keys.viewer, "GET", `/v1/datasets/${id}/items?size=2&page=1`),
    );
    expect(page).toMatchObject({ totalElements: 4, totalPages: 2, page: 1, size: 2 });
    expect((page.content as Array<{ input: unknown }>).map((item) => item.input)).toEqual(["a", "b"]);
  });

  it("freezes versions (201), lists them newest first, and keeps their items through edits and deletes", async () => {
    const id = await dataset();
    const empty = await member("POST", `/v1/datasets/${id}/versions`);
    expect(empty.status).toBe(409);
    expect((await bodyOf(empty)).error.code).toBe("dataset_empty");
    const [first, second] = await addItems(id, [{ input: 1, expectedOutput: "one" }, { input: 2 }]);

    const v1 = await member("POST", `/v1/datasets/${id}/versions`);
    expect(v1.status).toBe(201);
    const version = await bodyOf(v1);
    expect(version).toEqual({
      id: expect.stringMatching(/^dsv_/),
      object: "dataset_version",
      datasetId: id,
      versionNumber: 1,
      description: null,
      itemCount: 2,
      createdAt: ISO,
    });
    expect(await bodyOf(await member("GET", `/v1/datasets/${id}`))).toMatchObject({
      latestVersionId: version.id,
      latestVersionNumber: 1,
    });

    const cleared = await member("PATCH", `/v1/datasets/${id}/items/${first}`, { expectedOutput: null });
    expect(cleared.status).toBe(200);
    expect(await bodyOf(cleared)).toMatchObject({ id: first, expectedOutput: null });
    expect((await member("PATCH", `/v1/datasets/${id}/items/${first}`, {})).status).toBe(400);
    const removed = await member("DELETE", `/v1/datasets/${id}/items/${second}`);
    expect(removed.status).toBe(204);
    expect((await member("DELETE", `/v1/datasets/${id}/items/${second}`)).status).toBe(404);
    expect((await member("PATCH", `/v1/datasets/${id}/items/${second}`, { metadata: {} })).status).toBe(404);

    const v2 = await bodyOf(
      await member("POST", `/v1/datasets/${id}/versions`, { description: "after cleanup" }),
    );
    expect(v2).toMatchObject({ versionNumber: 2, itemCount: 1, description: "after cleanup" });
    const versions = await bodyOf(await call(tenant.keys.viewer, "GET", `/v1/datasets/${id}/versions`));
    expect((versions.content as Array<{ versionNumber: number }>).map((v) => v.versionNumber)).toEqual([
      2, 1,
    ]);
    for (const ref of ["1", version.id as string]) {
      const read = await call(tenant.keys.viewer, "GET", `/v1/datasets/${id}/versions/${ref}`);
      expect((await bodyOf(read)).id).toBe(version.id);
      const items = await bodyOf(
        await call(tenant.keys.viewer, "GET", `/v1/datasets/${id}/items?version=${ref}`),
      );
      expect(items.content).toMatchObject([
        { id: first, expectedOutput: "one" },
        { id: second, expectedOutput: null },
      ]);
      expect(items.totalElements).toBe(2);
    }
    const now = await bodyOf(await member("GET", `/v1/datasets/${id}/items`));
    expect(now.content).toMatchObject([{ id: first, expectedOutput: null }]);
    for (const ref of ["3", "dsv_missing", "0"]) {
      const missing = await member("GET", `/v1/datasets/${id}/versions/${ref}`);
      expect(missing.status).toBe(404);
      const listing = await member("GET", `/v1/datasets/${id}/items?version=${ref}`);
      expect(listing.status).toBe(404);
      expect((await bodyOf(listing)).error.param).toBe("version");
    }
  });

  it("answers 409 dataset_full past 100,000 items", async () => {
    const id = await dataset();
    await queryTestStore(tenant.store, "UPDATE datasets SET item_count = 99999 WHERE id = ?", [id]);
    const full = await member("POST", `/v1/datasets/${id}/items/batch`, {
      items: [{ input: 1 }, { input: 2 }],
    });
    expect(full.status).toBe(409);
    expect((await bodyOf(full)).error).toMatchObject({ code: "dataset_full", type: "invalid_request_error" });
    expect((await member("POST", `/v1/datasets/${id}/items`, { input: 1 })).status).toBe(201);
    expect((await member("POST", `/v1/datasets/${id}/items`, { input: 1 })).status).toBe(409);
  });
});

describe("roles and isolation", () => {
  it("lets Viewers read, Members write and only Admins delete a dataset", async () => {
    const id = await dataset();
    const [item] = await addItems(id, [{ input: 1 }]);
    const viewer = (method: string, path: string, body?: unknown) =>
      call(tenant.keys.viewer, method, path, body);
    for (const [method, path, body] of [
      ["POST", "/v1/datasets", { name: "v" }],
      ["PATCH", `/v1/datasets/${id}`, { name: "v" }],
      ["POST", `/v1/datasets/${id}/items`, { input: 1 }],
      ["POST", `/v1/datasets/${id}/items/batch`, { items: [{ input: 1 }] }],
      ["PATCH", `/v1/datasets/${id}/items/${item}`, { expectedOutput: 1 }],
      ["DELETE", `/v1/datasets/${id}/items/${item}`, undefined],
      ["POST", `/v1/datasets/${id}/versions`, {}],
      ["DELETE", `/v1/datasets/${id}`, undefined],
    ] as const) {
      const response = await viewer(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect((await bodyOf(response)).error.code).toBe("forbidden");
    }
    expect((await member("DELETE", `/v1/datasets/${id}`)).status).toBe(403);
    expect((await member("DELETE", `/v1/datasets/${id}/items/${item}`)).status).toBe(204);
    expect((await call(tenant.keys.admin, "DELETE", `/v1/datasets/${id}`)).status).toBe(204);
  });

  it("answers 404 for another organization's dataset, items and versions", async () => {
    const id = await dataset();
    const [item] = await addItems(id, [{ input: 1 }]);
    await member("POST", `/v1/datasets/${id}/versions`);
    for (const [method, path, body] of [
      ["GET", `/v1/datasets/${id}`, undefined],
      ["PATCH", `/v1/datasets/${id}`, { name: "mine" }],
      ["DELETE", `/v1/datasets/${id}`, undefined],
      ["GET", `/v1/datasets/${id}/versions`, undefined],
      ["GET", `/v1/datasets/${id}/versions/1`, undefined],
      ["POST", `/v1/datasets/${id}/versions`, {}],
      ["GET", `/v1/datasets/${id}/items`, undefined],
      ["POST", `/v1/datasets/${id}/items`, { input: 1 }],
      ["POST", `/v1/datasets/${id}/items/batch`, { items: [{ input: 1 }] }],
      ["PATCH", `/v1/datasets/${id}/items/${item}`, { expectedOutput: 1 }],
      ["DELETE", `/v1/datasets/${id}/items/${item}`, undefined],
    ] as const) {
      const response = await call(stranger, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await bodyOf(response)).error.code).toBe("not_found");
    }
    expect((await bodyOf(await call(stranger, "GET", "/v1/datasets"))).totalElements).toBe(0);
    expect((await bodyOf(await member("GET", `/v1/datasets/${id}`))).itemCount).toBe(1);
  });

  it("answers 409 dataset_in_use when a registered check says an experiment references it", async () => {
    const id = await dataset();
    const groundwork = createGroundwork({ store: tenant.store });
    groundwork.datasets.addInUseCheck((_org, datasetId) => (datasetId === id ? "experiment exp_1" : null));
    const withCheck = createApp({ groundwork });
    const response = await withCheck.request(`/v1/datasets/${id}`, {
      method: "DELETE",
      headers: bearer(tenant.keys.admin),
    });
    expect(response.status).toBe(409);
    expect((await bodyOf(response)).error).toMatchObject({ code: "dataset_in_use", param: "datasetId" });
  });
});
