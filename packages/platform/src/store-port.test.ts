import { openStore } from "@groundwork/store-sqlite";
import { describe, expect, it } from "vitest";
import type { PlatformStore } from "./store-port.js";

describe("PlatformStore", () => {
  it("is satisfied by the SQLite store as it is (no wrapper), atomically included", async () => {
    const sqlite = openStore({ file: ":memory:" });
    // The assignment is the check: tsc fails here when a family stops matching its port.
    const store: PlatformStore = sqlite;
    expect(store).toBe(sqlite);
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
    expect(
      sqlite.db.prepare("SELECT count(*) AS n FROM organizations WHERE name = 'rolled-back'").get(),
    ).toEqual({
      n: 0,
    });
    await store.close();
  });
});
