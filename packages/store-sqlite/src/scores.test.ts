import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";
import type { ScoreInsert } from "./scores.js";

let store: Store;
let org: string;
let other: string;
let now = 1_000;

beforeEach(() => {
  now = 1_000;
  store = openStore({ file: ":memory:", clock: { now: () => now++ } });
  org = store.organizations.create("acme", "enterprise").id;
  other = store.organizations.create("other", "enterprise").id;
});
afterEach(() => store.close());

const base = (overrides: Partial<ScoreInsert> = {}): ScoreInsert => ({
  organizationId: org,
  subjectType: "response",
  subjectId: "resp_1",
  name: "helpfulness",
  dataType: "NUMERIC",
  value: 0.75,
  comment: null,
  source: "HUMAN",
  queueItemId: null,
  createdByKeyId: "key_1",
  ...overrides,
});

describe("ScoreStore", () => {
  it("records and reads back each data type", () => {
    const numeric = store.scores.create(base());
    const categorical = store.scores.create(base({ dataType: "CATEGORICAL", value: "good", comment: "ok" }));
    const boolean = store.scores.create(base({ dataType: "BOOLEAN", value: false, createdByKeyId: null }));
    expect(numeric.id).toMatch(/^scr_/);
    for (const record of [numeric, categorical, boolean]) {
      expect(store.scores.get(org, record.id)).toEqual(record);
      expect(store.scores.get(other, record.id)).toBeNull();
    }
    expect(store.scores.get(org, boolean.id)?.value).toBe(false);
  });

  it("lists newest first with every filter, scoped by organization", () => {
    const a = store.scores.create(base());
    const b = store.scores.create(base({ name: "tone", subjectId: "resp_2" }));
    const c = store.scores.create(base({ source: "API", dataType: "BOOLEAN", value: true }));
    store.scores.create(base({ organizationId: other }));
    expect([b.createdAt, c.createdAt]).toEqual([a.createdAt + 1, a.createdAt + 2]);
    const page = { page: 0, size: 20 };
    const ids = (filter: Parameters<Store["scores"]["list"]>[1]) =>
      store.scores.list(org, filter, page).items.map((s) => s.id);
    expect(ids({})).toEqual([c.id, b.id, a.id]);
    expect(ids({ name: "tone" })).toEqual([b.id]);
    expect(ids({ subjectType: "response", subjectId: "resp_1" })).toEqual([c.id, a.id]);
    expect(ids({ source: "API" })).toEqual([c.id]);
    expect(ids({ dataType: "NUMERIC" })).toEqual([b.id, a.id]);
    expect(ids({ from: b.createdAt })).toEqual([c.id, b.id]);
    expect(ids({ to: b.createdAt })).toEqual([a.id]);
    expect(ids({ from: b.createdAt, to: c.createdAt })).toEqual([b.id]);
    expect(ids({ subjectType: "trace" })).toEqual([]);
    const second = store.scores.list(org, {}, { page: 1, size: 2 });
    expect(second).toEqual({ items: [expect.objectContaining({ id: a.id })], total: 3 });
  });

  it("records many in one transaction: all or none", () => {
    const made = store.scores.createMany([base(), base({ name: "b" })]);
    expect(made).toHaveLength(2);
    expect(() =>
      store.scores.createMany([base({ name: "c" }), base({ dataType: "WRONG" as "NUMERIC" })]),
    ).toThrow();
    expect(store.scores.list(org, {}, { page: 0, size: 20 }).total).toBe(2);
  });

  it("has indexes for the list filters", () => {
    const names = (
      store.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'scores'")
        .all() as Array<{ name: string }>
    ).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["scores_created", "scores_subject", "scores_name"]));
    const plan = store.db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT * FROM scores WHERE organization_id = ? AND subject_type = ? AND subject_id = ? ORDER BY created_at DESC",
      )
      .all("o", "response", "r") as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(" ")).toContain("scores_subject");
  });
});
