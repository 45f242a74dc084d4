/** The dataset store: revisions per epoch, versions that freeze without copying, order, cascade. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
const all = { page: 0, size: 100 };

beforeEach(() => {
  store = openStore({ file: ":memory:" });
  org = store.organizations.create("acme", "team").id;
});
afterEach(() => store.close());

const values = (input: unknown) => ({ input, expectedOutput: null, metadata: {}, sourceTraceId: null });
const inputs = (page: { items: Array<{ input: unknown }> }) => page.items.map((item) => item.input);
const revisions = () =>
  (store.db.prepare("SELECT count(*) AS n FROM dataset_items").get() as { n: number }).n;

describe("DatasetStore", () => {
  it("creates, reads, lists by name and updates a dataset", () => {
    const created = store.datasets.create(org, { name: "Golden QA", description: null, metadata: { a: 1 } });
    expect(created).toMatchObject({
      name: "Golden QA",
      itemCount: 0,
      latestVersionId: null,
      latestVersionNumber: null,
      metadata: { a: 1 },
    });
    store.datasets.create(org, { name: "other", description: "x", metadata: {} });
    expect(store.datasets.list(org, { name: "golden" }, all).items.map((d) => d.id)).toEqual([created.id]);
    expect(store.datasets.list(org, {}, all).total).toBe(2);
    expect(store.datasets.update(org, created.id, { description: "d" })).toMatchObject({ description: "d" });
    expect(store.datasets.get("org_other", created.id)).toBeNull();
  });

  it("keeps the order of one call and appends later calls after it", () => {
    const ds = store.datasets.create(org, { name: "d", description: null, metadata: {} });
    store.datasets.addItems(ds.id, [values(3), values(1), values(2)]);
    store.datasets.addItems(ds.id, [values(0)]);
    expect(inputs(store.datasets.listItems(ds.id, null, all))).toEqual([3, 1, 2, 0]);
    expect(inputs(store.datasets.listItems(ds.id, null, { page: 1, size: 3 }))).toEqual([0]);
  });

  it("freezes versions without copying rows; later edits and deletes leave them unchanged", () => {
    const ds = store.datasets.create(org, { name: "d", description: null, metadata: {} });
    const [a, b] = store.datasets.addItems(ds.id, [values("a"), values("b")]);
    if (a === undefined || b === undefined) throw new Error("no items");
    const v1 = store.datasets.createVersion(ds.id, "first");
    expect(revisions()).toBe(2);
    expect(v1).toMatchObject({ versionNumber: 1, itemCount: 2, description: "first" });
    expect(store.datasets.get(org, ds.id)).toMatchObject({ latestVersionId: v1.id, latestVersionNumber: 1 });

    store.datasets.updateItem(ds.id, a.id, { expectedOutput: "A" });
    store.datasets.updateItem(ds.id, a.id, { expectedOutput: "AA" }); // unseen revision: rewritten in place
    store.datasets.deleteItem(ds.id, b.id);
    const [c] = store.datasets.addItems(ds.id, [values("c")]);
    store.datasets.deleteItem(ds.id, c?.id ?? ""); // never frozen: removed outright
    expect(revisions()).toBe(3);

    const frozen = store.datasets.listItems(ds.id, v1, all);
    expect(frozen.total).toBe(2);
    expect(frozen.items.map((item) => [item.id, item.expectedOutput])).toEqual([
      [a.id, null],
      [b.id, null],
    ]);
    const current = store.datasets.listItems(ds.id, null, all);
    expect(current.items.map((item) => [item.id, item.expectedOutput])).toEqual([[a.id, "AA"]]);
    expect(current.total).toBe(1);

    const v2 = store.datasets.createVersion(ds.id, null);
    store.datasets.updateItem(ds.id, a.id, { metadata: { k: 1 } });
    expect(store.datasets.listItems(ds.id, v2, all).items.map((item) => item.expectedOutput)).toEqual(["AA"]);
    expect(store.datasets.listItems(ds.id, v1, all).items).toHaveLength(2);
    expect(store.datasets.getItem(ds.id, a.id)).toMatchObject({ metadata: { k: 1 }, expectedOutput: "AA" });
    expect(store.datasets.getVersionByNumber(ds.id, 2)?.id).toBe(v2.id);
    expect(store.datasets.getVersionById(ds.id, v1.id)?.versionNumber).toBe(1);
    expect(store.datasets.listVersions(ds.id, all).items.map((v) => v.versionNumber)).toEqual([2, 1]);
  });

  it("knows which organization an item belongs to, frozen or current, and deletes everything with the dataset", () => {
    const ds = store.datasets.create(org, { name: "d", description: null, metadata: {} });
    const [a] = store.datasets.addItems(ds.id, [values("a")]);
    const id = a?.id ?? "";
    store.datasets.createVersion(ds.id, null);
    store.datasets.deleteItem(ds.id, id);
    expect(store.datasets.itemExists(org, id)).toBe(true);
    const other = store.organizations.create("other", "team").id;
    expect(store.datasets.itemExists(other, id)).toBe(false);
    expect(store.datasets.delete(org, ds.id)).toBe(true);
    expect(store.datasets.itemExists(org, id)).toBe(false);
    expect(revisions()).toBe(0);
    expect(store.db.prepare("SELECT count(*) AS n FROM dataset_versions").get()).toEqual({ n: 0 });
  });

  it("pages across blocks exactly like a plain list, current and frozen, after deletes", () => {
    const ds = store.datasets.create(org, { name: "big", description: null, metadata: {} });
    const ids: string[] = [];
    for (const size of [1000, 1500, 700]) {
      const added = store.datasets.addItems(
        ds.id,
        Array.from({ length: size }, (_, i) => values(ids.length + i)),
      );
      ids.push(...added.map((item) => item.id));
    }
    const drop = (keep: (index: number) => boolean) => {
      for (const [index, id] of ids.entries()) {
        if (!keep(index) && store.datasets.getItem(ds.id, id) !== null) store.datasets.deleteItem(ds.id, id);
      }
    };
    drop((i) => i % 7 !== 0 && !(i >= 1000 && i < 1100));
    const v1 = store.datasets.createVersion(ds.id, null);
    const frozenModel = ids.map((_, i) => i).filter((i) => i % 7 !== 0 && !(i >= 1000 && i < 1100));
    drop((i) => i % 7 !== 0 && !(i >= 1000 && i < 1100) && i % 5 !== 0 && i < 3000);
    const currentModel = frozenModel.filter((i) => i % 5 !== 0 && i < 3000);
    for (const [version, model] of [
      [null, currentModel],
      [v1, frozenModel],
    ] as const) {
      for (const page of [0, 1, 9, 10, 11, 22, 23, 40]) {
        const listed = store.datasets.listItems(ds.id, version, { page, size: 100 });
        expect(listed.total).toBe(model.length);
        expect(inputs(listed), `page ${page}`).toEqual(model.slice(page * 100, page * 100 + 100));
      }
      const odd = store.datasets.listItems(ds.id, version, { page: 37, size: 53 });
      expect(inputs(odd)).toEqual(model.slice(37 * 53, 38 * 53));
    }
  });
});
