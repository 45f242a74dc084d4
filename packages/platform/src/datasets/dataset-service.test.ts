/** Datasets through the library: rules, limits, validation as a whole, versions and isolation. */
import type { Principal } from "@groundwork/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import { DATASET_ITEM_MAX_BYTES, DATASET_MAX_ITEMS } from "./dataset-bodies.js";

/** A database of its own per test: the dataset_full case sets a count no store method forges. */
let database: TestDatabase;
let store: PlatformStore;
let groundwork: Groundwork;
let acme: Principal;
let other: Principal;
const all = { page: 0, size: 100 };

beforeEach(async () => {
  database = await openTestDatabase();
  store = await database.open();
  groundwork = createGroundwork({ store });
  acme = await groundwork.principal("acme", "member");
  other = await groundwork.principal("other", "member");
});
afterEach(async () => {
  await store.close();
  await database.remove();
});

async function failure(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code: string; param: string | null };
    return { status, code, param };
  }
  throw new Error("expected a failure");
}

const datasets = () => groundwork.datasets;

describe("DatasetService", () => {
  it("creates, renames, lists and deletes datasets; names are unique per organization", async () => {
    const qa = await datasets().create(acme, { name: "qa", metadata: { owner: "ml" } });
    expect(qa).toMatchObject({ name: "qa", description: null, itemCount: 0, latestVersionNumber: null });
    expect(await failure(async () => await datasets().create(acme, { name: "qa" }))).toEqual({
      status: 409,
      code: "conflict",
      param: "name",
    });
    expect((await datasets().create(other, { name: "qa" })).name).toBe("qa");
    const second = await datasets().create(acme, { name: "support" });
    expect(await failure(async () => await datasets().update(acme, second.id, { name: "qa" }))).toMatchObject(
      {
        status: 409,
      },
    );
    expect(await datasets().update(acme, qa.id, { name: "qa", description: "golden set" })).toMatchObject({
      description: "golden set",
    });
    expect((await datasets().update(acme, qa.id, {})).updatedAt).toBeGreaterThan(0);
    expect((await datasets().list(acme, { name: "QA" }, all)).items.map((d) => d.id)).toEqual([qa.id]);
    expect((await datasets().list(acme, {}, all)).items.map((d) => d.id)).toEqual([second.id, qa.id]);
    expect(await failure(async () => await datasets().get(other, qa.id))).toEqual({
      status: 404,
      code: "not_found",
      param: "datasetId",
    });
    await datasets().delete(acme, qa.id);
    expect((await failure(async () => await datasets().get(acme, qa.id))).status).toBe(404);
  });

  it("validates bodies with the field named", async () => {
    expect((await failure(async () => await datasets().create(acme, { name: "" }))).param).toBe("name");
    expect((await failure(async () => await datasets().create(acme, { name: "x".repeat(201) }))).param).toBe(
      "name",
    );
    expect(
      (await failure(async () => await datasets().create(acme, { name: "x", description: "d".repeat(4001) })))
        .param,
    ).toBe("description");
    expect(
      (
        await failure(
          async () => await datasets().create(acme, { name: "x", metadata: { big: "m".repeat(17 * 1024) } }),
        )
      ).param,
    ).toBe("metadata");
    expect(
      (await failure(async () => await datasets().create(acme, { name: "x", metadata: [] as never }))).param,
    ).toBe("metadata");
    const ds = await datasets().create(acme, { name: "d" });
    expect((await failure(async () => await datasets().addItem(acme, ds.id, {}))).param).toBe("input");
    expect((await failure(async () => await datasets().addItem(acme, ds.id, { input: null }))).param).toBe(
      "input",
    );
    expect(
      (await failure(async () => await datasets().addItem(acme, ds.id, { input: 1, metadata: "m" as never })))
        .param,
    ).toBe("metadata");
    expect(
      (
        await failure(
          async () => await datasets().addItem(acme, ds.id, { input: 1, sourceTraceId: "span_1" }),
        )
      ).param,
    ).toBe("sourceTraceId");
    expect((await failure(async () => await datasets().updateItem(acme, ds.id, "dsi_x", {}))).status).toBe(
      400,
    );
  });

  it("adds single items with defaults, and batches as a whole in the call's order", async () => {
    const ds = await datasets().create(acme, { name: "d" });
    const one = await datasets().addItem(acme, ds.id, { input: { q: "2+2?" }, sourceTraceId: "trc_abc123" });
    expect(one).toMatchObject({
      datasetId: ds.id,
      input: { q: "2+2?" },
      expectedOutput: null,
      metadata: {},
      sourceTraceId: "trc_abc123",
    });
    expect(one.id).toMatch(/^dsi_/);
    const bad = await failure(
      async () =>
        await datasets().addItems(acme, ds.id, {
          items: [{ input: 1 }, { input: 2 }, { input: 3, metadata: 5 as never }],
        }),
    );
    expect(bad).toEqual({ status: 400, code: "invalid_request", param: "items[2].metadata" });
    expect((await datasets().get(acme, ds.id)).itemCount).toBe(1);
    expect((await failure(async () => await datasets().addItems(acme, ds.id, { items: [] }))).param).toBe(
      "items",
    );
    expect(
      (
        await failure(
          async () =>
            await datasets().addItems(acme, ds.id, {
              items: Array.from({ length: 1001 }, () => ({ input: 1 })),
            }),
        )
      ).param,
    ).toBe("items");
    const batch = await datasets().addItems(acme, ds.id, {
      items: [5, 4, 3, 2, 1].map((input) => ({ input })),
    });
    expect(batch.count).toBe(5);
    expect((await datasets().listItems(acme, ds.id, {}, all)).items.map((item) => item.input)).toEqual([
      { q: "2+2?" },
      5,
      4,
      3,
      2,
      1,
    ]);
  });

  it("refuses items over 256 KiB of JSON with 400 item_too_large naming the largest field", async () => {
    const ds = await datasets().create(acme, { name: "d" });
    const half = "x".repeat(DATASET_ITEM_MAX_BYTES / 2);
    expect(
      await failure(
        async () => await datasets().addItem(acme, ds.id, { input: half, expectedOutput: `${half}yy` }),
      ),
    ).toEqual({
      status: 400,
      code: "item_too_large",
      param: "expectedOutput",
    });
    expect(
      (
        await failure(
          async () =>
            await datasets().addItems(acme, ds.id, { items: [{ input: 1 }, { input: `${half}${half}` }] }),
        )
      ).param,
    ).toBe("items[1].input");
    // Exactly at the limit: the three JSON texts together.
    const input = "i".repeat(DATASET_ITEM_MAX_BYTES - 2 - 4 - 2); // quotes, "null", "{}"
    const item = await datasets().addItem(acme, ds.id, { input });
    expect(
      await failure(
        async () => await datasets().updateItem(acme, ds.id, item.id, { expectedOutput: "more than null" }),
      ),
    ).toMatchObject({ status: 400, code: "item_too_large", param: "input" });
  });

  it("refuses to pass 100,000 items with 409 dataset_full, adding nothing", async () => {
    const ds = await datasets().create(acme, { name: "d" });
    await database.query(`UPDATE datasets SET item_count = ${DATASET_MAX_ITEMS - 2} WHERE id = '${ds.id}'`);
    expect(
      await failure(
        async () =>
          await datasets().addItems(acme, ds.id, { items: [{ input: 1 }, { input: 2 }, { input: 3 }] }),
      ),
    ).toEqual({ status: 409, code: "dataset_full", param: "items" });
    await datasets().addItems(acme, ds.id, { items: [{ input: 1 }, { input: 2 }] });
    expect(await failure(async () => await datasets().addItem(acme, ds.id, { input: 1 }))).toMatchObject({
      status: 409,
      code: "dataset_full",
    });
    expect((await datasets().get(acme, ds.id)).itemCount).toBe(DATASET_MAX_ITEMS);
  });

  it("freezes versions: item ids kept, later edits and deletes do not change them", async () => {
    const ds = await datasets().create(acme, { name: "d" });
    expect(await failure(async () => await datasets().createVersion(acme, ds.id, {}))).toEqual({
      status: 409,
      code: "dataset_empty",
      param: "datasetId",
    });
    const { items } = await datasets().addItems(acme, ds.id, {
      items: [{ input: "a", expectedOutput: "A" }, { input: "b" }],
    });
    const [a, b] = items;
    if (a === undefined || b === undefined) throw new Error("no items");
    const v1 = await datasets().createVersion(acme, ds.id, { description: "baseline" });
    expect(v1).toMatchObject({ versionNumber: 1, itemCount: 2, description: "baseline" });
    expect(v1.id).toMatch(/^dsv_/);
    expect(await datasets().get(acme, ds.id)).toMatchObject({
      latestVersionId: v1.id,
      latestVersionNumber: 1,
    });

    expect(await datasets().updateItem(acme, ds.id, a.id, { expectedOutput: null })).toMatchObject({
      id: a.id,
      expectedOutput: null,
      metadata: {},
    });
    await datasets().updateItem(acme, ds.id, b.id, { metadata: { reviewed: true } });
    await datasets().deleteItem(acme, ds.id, a.id);
    expect(await failure(async () => await datasets().deleteItem(acme, ds.id, a.id))).toMatchObject({
      status: 404,
      param: "itemId",
    });
    expect(
      await failure(async () => await datasets().updateItem(acme, ds.id, a.id, { metadata: {} })),
    ).toMatchObject({
      status: 404,
    });

    const frozen = await datasets().listItems(acme, ds.id, { version: "1" }, all);
    expect(frozen.items.map((item) => [item.id, item.expectedOutput, item.metadata])).toEqual([
      [a.id, "A", {}],
      [b.id, null, {}],
    ]);
    expect((await datasets().listItems(acme, ds.id, { version: v1.id }, all)).total).toBe(2);
    expect((await datasets().listItems(acme, ds.id, {}, all)).items.map((item) => item.id)).toEqual([b.id]);
    expect((await datasets().getVersion(acme, ds.id, "1")).id).toBe(v1.id);
    expect(await failure(async () => await datasets().getVersion(acme, ds.id, "2"))).toMatchObject({
      status: 404,
      param: "versionId",
    });
    expect(
      await failure(async () => await datasets().listItems(acme, ds.id, { version: "dsv_nope" }, all)),
    ).toMatchObject({
      status: 404,
      param: "version",
    });
    expect((await failure(async () => await datasets().getVersion(other, ds.id, "1"))).status).toBe(404);

    const v2 = await datasets().createVersion(acme, ds.id);
    expect(v2).toMatchObject({ versionNumber: 2, itemCount: 1, description: null });
    expect((await datasets().listVersions(acme, ds.id, all)).items.map((v) => v.versionNumber)).toEqual([
      2, 1,
    ]);
  });

  it("asks the registered in-use checks before deleting (409 dataset_in_use)", async () => {
    const ds = await datasets().create(acme, { name: "d" });
    let referencing: string | null = "experiment exp_1 runs on it";
    datasets().addInUseCheck((organizationId, datasetId) =>
      organizationId === acme.organizationId && datasetId === ds.id ? referencing : null,
    );
    expect(await failure(async () => await datasets().delete(acme, ds.id))).toEqual({
      status: 409,
      code: "dataset_in_use",
      param: "datasetId",
    });
    referencing = null;
    await datasets().delete(acme, ds.id);
    expect((await datasets().list(acme, {}, all)).total).toBe(0);
  });

  it("tells other services whether an item belongs to an organization", async () => {
    const ds = await datasets().create(acme, { name: "d" });
    const item = await datasets().addItem(acme, ds.id, { input: "x" });
    expect(await datasets().hasItem(acme.organizationId, item.id)).toBe(true);
    expect(await datasets().hasItem(other.organizationId, item.id)).toBe(false);
    expect(await datasets().hasItem(acme.organizationId, "dsi_missing")).toBe(false);
    expect((await failure(async () => await datasets().addItem(other, ds.id, { input: 1 }))).status).toBe(
      404,
    );
    expect((await failure(async () => await datasets().deleteItem(other, ds.id, item.id))).status).toBe(404);
  });
});
