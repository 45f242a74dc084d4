import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ExtractionInsert } from "./extractions.js";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
let now = 1_000;

beforeEach(() => {
  store = openStore({ file: ":memory:", clock: { now: () => now++ } });
  org = store.organizations.create("acme", "enterprise").id;
});
afterEach(() => store.close());

const base = (overrides: Partial<ExtractionInsert> = {}): ExtractionInsert => ({
  organizationId: org,
  schemaId: "sch_1",
  schemaVersionId: "scv_1",
  status: "PENDING",
  strategy: "ASYNC",
  model: "hosted-a/gpt-x",
  inputText: "hello",
  imageCount: 0,
  inputTokens: 1,
  ...overrides,
});

describe("ExtractionStore", () => {
  it("keeps images only until the run finishes, and finishes once", () => {
    const record = store.extractions.create(base({ imageCount: 1 }), [
      { data: "aGk=", mimeType: "image/png" },
    ]);
    expect(record.id).toMatch(/^ext_/);
    expect(store.extractions.images(record.id)).toEqual([{ data: "aGk=", mimeType: "image/png" }]);
    expect(store.extractions.markProcessing(record.id)).toBe(true);
    expect(store.extractions.getById(record.id)).toMatchObject({ status: "PROCESSING" });
    expect(
      store.extractions.finish(record.id, { status: "COMPLETED", result: { structuredOutput: { a: 1 } } }),
    ).toBe(true);
    expect(store.extractions.images(record.id)).toEqual([]);
    expect(store.extractions.finish(record.id, { status: "FAILED", errorMessage: "late" })).toBe(false);
    expect(store.extractions.markProcessing(record.id)).toBe(false);
    expect(store.extractions.get(org, record.id)).toMatchObject({
      status: "COMPLETED",
      result: { structuredOutput: { a: 1 } },
      errorMessage: null,
    });
  });

  it("lists newest first with model search, version and status filters", () => {
    store.extractions.create(base({ model: "gw-chat", status: "COMPLETED", strategy: "SINGLE_SHOT" }));
    store.extractions.create(base({ model: "hosted-a/GPT-x", schemaVersionId: "scv_2" }));
    store.extractions.create(base({ model: "hosted-b/claude", status: "FAILED", strategy: "CHUNKED" }));
    const models = (filter = {}) =>
      store.extractions.list(org, { page: 0, size: 20 }, filter).items.map((e) => e.model);
    expect(models()).toEqual(["hosted-b/claude", "hosted-a/GPT-x", "gw-chat"]);
    expect(models({ search: "gpt" })).toEqual(["hosted-a/GPT-x"]);
    expect(models({ search: "hosted" })).toEqual(["hosted-b/claude", "hosted-a/GPT-x"]);
    expect(models({ schemaVersionId: "scv_2" })).toEqual(["hosted-a/GPT-x"]);
    expect(models({ status: "FAILED" })).toEqual(["hosted-b/claude"]);
    expect(store.extractions.list(org, { page: 1, size: 2 }).total).toBe(3);
  });

  it("deletes within the organization only", () => {
    const record = store.extractions.create(base());
    const other = store.organizations.create("globex", "team").id;
    expect(store.extractions.get(other, record.id)).toBeNull();
    expect(store.extractions.delete(other, record.id)).toBe(false);
    expect(store.extractions.delete(org, record.id)).toBe(true);
    expect(store.extractions.getById(record.id)).toBeNull();
  });
});
