import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";
import type { PluginInput } from "./plugins.js";

let store: Store;
let org: string;
let now = 1_000;

const input = (name: string, extra: Partial<PluginInput> = {}): PluginInput => ({
  name,
  version: "1.0.0",
  description: null,
  manifest: { name, homepage: "https://example.com" },
  source: { type: "upload", url: null },
  components: { skillIds: ["skl_1"], connectorIds: [], agentIds: ["agt_1"] },
  warnings: ["w"],
  synced: false,
  ...extra,
});

beforeEach(() => {
  store = openStore({ file: ":memory:", clock: { now: () => now } });
  org = store.organizations.create("acme", "team").id;
});
afterEach(() => store.close());

describe("PluginStore", () => {
  it("creates, reads, updates, lists newest first and deletes", () => {
    const id = store.plugins.newId();
    expect(id).toMatch(/^plg_/);
    const created = store.plugins.create(org, id, input("one"));
    expect(created).toMatchObject({
      id,
      name: "one",
      manifest: { homepage: "https://example.com" },
      components: { skillIds: ["skl_1"], agentIds: ["agt_1"], connectorIds: [] },
      warnings: ["w"],
      installedAt: 1_000,
      lastSyncedAt: null,
    });
    now = 2_000;
    const updated = store.plugins.update(
      org,
      id,
      input("one", { version: "2.0.0", source: { type: "url", url: "https://x/p.zip" }, synced: true }),
    );
    expect(updated).toMatchObject({
      version: "2.0.0",
      source: { type: "url", url: "https://x/p.zip" },
      installedAt: 1_000,
      updatedAt: 2_000,
      lastSyncedAt: 2_000,
    });
    now = 3_000;
    expect(store.plugins.update(org, id, input("one"))?.lastSyncedAt).toBe(2_000);
    const second = store.plugins.create(org, store.plugins.newId(), input("two"));
    expect(store.plugins.list(org, { page: 0, size: 10 }).items.map((p) => p.name)).toEqual(["two", "one"]);
    expect(store.plugins.byName(org, "two")?.id).toBe(second.id);
    expect(() => store.plugins.create(org, store.plugins.newId(), input("two"))).toThrow(/UNIQUE/);
    const other = store.organizations.create("other", "team").id;
    expect(store.plugins.get(other, id)).toBeNull();
    expect(store.plugins.delete(other, id)).toBe(false);
    expect(store.plugins.delete(org, id)).toBe(true);
    expect(store.plugins.all(org).map((p) => p.name)).toEqual(["two"]);
  });

  it("rolls back everything written inside atomically when it throws", () => {
    expect(() =>
      store.plugins.atomically(() => {
        store.plugins.create(org, store.plugins.newId(), input("gone"));
        store.skills.atomically(() =>
          store.skills.create(org, { name: "s", namespace: "gone", description: "d" }),
        );
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(store.plugins.all(org)).toEqual([]);
    expect(store.skills.byQualifiedName(org, "gone:s")).toBeNull();
  });
});
