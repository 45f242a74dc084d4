import { openStore } from "@groundwork/store-sqlite";
import { describe, expect, it } from "vitest";
import { openTestStore } from "../test/test-store.js";
import type { PlatformStore } from "./store-port.js";

describe("PlatformStore", () => {
  it("is satisfied by the SQLite store as it is (no wrapper)", async () => {
    const sqlite = openStore({ file: ":memory:" });
    // The assignment is the check: tsc fails here when a family stops matching its port.
    const store: PlatformStore = sqlite;
    expect(store).toBe(sqlite);
    await store.close();
  });

  it("runs a family's atomically as one unit of work: kept when it resolves, undone when it throws", async () => {
    const store = await openTestStore();
    try {
      await store.ping();
      const created = await store.datasets.atomically(async () => {
        const { organization } = await store.organizations.ensure("acme", "team");
        return organization;
      });
      expect((await store.organizations.get(created.id))?.name).toBe("acme");
      await expect(
        store.datasets.atomically(async () => {
          await store.organizations.ensure("rolled-back", "team");
          throw new Error("undo");
        }),
      ).rejects.toThrow("undo");
      expect(await store.organizations.findByName("rolled-back")).toBeNull();
    } finally {
      await store.close();
    }
  });
});
