import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
let other: string;
let now = 1_000;

beforeEach(() => {
  store = openStore({ file: ":memory:", clock: { now: () => now++ } });
  org = store.organizations.create("acme", "enterprise").id;
  other = store.organizations.create("globex", "enterprise").id;
});
afterEach(() => store.close());

const page = { page: 0, size: 20 };

describe("SchemaStore", () => {
  it("creates schemas with a latest label pointing at nothing, scoped to the organization", () => {
    const schema = store.schemas.create(org, { name: "Invoice", description: "Supplier invoices" });
    expect(schema).toMatchObject({ name: "Invoice", description: "Supplier invoices", organizationId: org });
    expect(store.schemas.get(other, schema.id)).toBeNull();
    expect(store.schemas.listLabels(schema.id)).toEqual([
      expect.objectContaining({ name: "latest", schemaVersionId: null }),
    ]);
    expect(store.schemas.latestVersion(schema.id)).toBeNull();
  });

  it("lists newest first, searches name and description with LIKE wildcards escaped, pages", () => {
    store.schemas.create(org, { name: "Invoice" });
    store.schemas.create(org, { name: "Receipt", description: "till receipts 100%" });
    store.schemas.create(org, { name: "Contract_v2" });
    store.schemas.create(other, { name: "Invoice elsewhere" });
    expect(store.schemas.list(org, page).items.map((s) => s.name)).toEqual([
      "Contract_v2",
      "Receipt",
      "Invoice",
    ]);
    expect(store.schemas.list(org, page, "INVO").items.map((s) => s.name)).toEqual(["Invoice"]);
    expect(store.schemas.list(org, page, "100%").items.map((s) => s.name)).toEqual(["Receipt"]);
    expect(store.schemas.list(org, page, "t_v").items.map((s) => s.name)).toEqual(["Contract_v2"]);
    expect(store.schemas.list(org, page, "_").total).toBe(1);
    const second = store.schemas.list(org, { page: 1, size: 2 });
    expect(second).toMatchObject({ total: 3, items: [{ name: "Invoice" }] });
  });

  it("numbers versions, moves latest, deactivates and re-activates as a copy", () => {
    const schema = store.schemas.create(org, { name: "Invoice" });
    const v1 = store.schemas.commitVersion(schema.id, {
      jsonSchema: { type: "object" },
      changeDescription: "first",
    });
    const v2 = store.schemas.commitVersion(schema.id, { jsonSchema: { type: "array" } });
    expect([v1.versionNumber, v2.versionNumber]).toEqual([1, 2]);
    expect(store.schemas.latestVersion(schema.id)?.id).toBe(v2.id);

    expect(store.schemas.deactivateVersion(schema.id, v2.id)).toBe(true);
    expect(store.schemas.deactivateVersion(schema.id, v2.id)).toBe(false);
    expect(store.schemas.getVersion(org, schema.id, v2.id)).toMatchObject({ active: false });
    expect(store.schemas.latestVersion(schema.id)?.id).toBe(v1.id);

    const v3 = store.schemas.commitVersion(schema.id, {
      jsonSchema: v2.jsonSchema,
      copiedFromVersionId: v2.id,
    });
    expect(v3).toMatchObject({
      versionNumber: 3,
      jsonSchema: { type: "array" },
      copiedFromVersionId: v2.id,
      active: true,
    });
    expect(store.schemas.latestVersion(schema.id)?.id).toBe(v3.id);

    store.schemas.deactivateVersion(schema.id, v1.id);
    store.schemas.deactivateVersion(schema.id, v3.id);
    expect(store.schemas.latestVersion(schema.id)).toBeNull();
    expect(store.schemas.listVersions(schema.id, page).items.map((v) => v.versionNumber)).toEqual([3, 2, 1]);
    expect(store.schemas.getVersion(other, schema.id, v1.id)).toBeNull();
  });

  it("keeps custom labels apart from latest and deletes everything with the schema", () => {
    const schema = store.schemas.create(org, { name: "Invoice" });
    const v1 = store.schemas.commitVersion(schema.id, { jsonSchema: { type: "object" } });
    const v2 = store.schemas.commitVersion(schema.id, { jsonSchema: { type: "object" } });
    expect(store.schemas.createLabel(schema.id, "production", v1.id)).toBe(true);
    expect(store.schemas.createLabel(schema.id, "production", v2.id)).toBe(false);
    expect(store.schemas.updateLabel(schema.id, "production", v2.id)).toBe(true);
    expect(store.schemas.listLabels(schema.id).map((l) => [l.name, l.schemaVersionId])).toEqual([
      ["latest", v2.id],
      ["production", v2.id],
    ]);
    expect(store.schemas.deleteLabel(schema.id, "production")).toBe(true);

    store.schemas.setExtractionConfig(v1.id, { validation: { enabled: false } });
    expect(store.schemas.versionById(v1.id)).toMatchObject({
      organizationId: org,
      schemaName: "Invoice",
      extractionConfig: { validation: { enabled: false } },
    });

    expect(store.schemas.delete(other, schema.id)).toBe(false);
    expect(store.schemas.delete(org, schema.id)).toBe(true);
    expect(store.schemas.versionById(v1.id)).toBeNull();
    expect(store.schemas.listLabels(schema.id)).toEqual([]);
  });

  it("updates name and description", () => {
    const schema = store.schemas.create(org, { name: "Invoice", description: "x" });
    expect(store.schemas.update(org, schema.id, { name: "Bill" })).toMatchObject({
      name: "Bill",
      description: "x",
    });
    expect(store.schemas.update(org, schema.id, { description: null })).toMatchObject({ description: null });
    expect(store.schemas.update(other, schema.id, { name: "no" })).toBeNull();
  });
});
