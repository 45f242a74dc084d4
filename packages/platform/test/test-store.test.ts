import { describe, expect, it } from "vitest";
import { openTestDatabase, openTestStore, queryTestStore, testStoreKind } from "./test-store.js";

describe(`the test store (${testStoreKind()})`, () => {
  it("opens a fresh, migrated store per call", async () => {
    const first = await openTestStore({ secret: "test-store-secret" });
    const second = await openTestStore({ secret: "test-store-secret" });
    try {
      const organization = await first.organizations.create("acme", "team");
      const { key } = await first.apiKeys.create({ organizationId: organization.id, role: "admin" });
      expect((await first.apiKeys.authenticate(key))?.organizationId).toBe(organization.id);
      // The second store is another database: nothing of the first is in it.
      expect(await second.organizations.get(organization.id)).toBeNull();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("opens the next store empty after one was closed, its migrations kept", async () => {
    const first = await openTestStore();
    const organization = await first.organizations.create("acme", "team");
    await first.apiKeys.create({ organizationId: organization.id, role: "admin" });
    await first.close();
    const second = await openTestStore();
    try {
      expect(await second.organizations.get(organization.id)).toBeNull();
      expect(await queryTestStore(second, "SELECT id FROM api_keys")).toEqual([]);
      // Still migrated: the store writes and reads as the first one did.
      const again = await second.organizations.create("acme", "team");
      expect((await second.organizations.get(again.id))?.name).toBe("acme");
    } finally {
      await second.close();
    }
  });

  it("reads and writes rows of the store's own database with ? placeholders", async () => {
    const store = await openTestStore();
    try {
      const organization = await store.organizations.create("acme", "team");
      await queryTestStore(store, "UPDATE organizations SET name = ? WHERE id = ?", [
        "renamed",
        organization.id,
      ]);
      expect(
        await queryTestStore(store, "SELECT name FROM organizations WHERE id = ?", [organization.id]),
      ).toEqual([{ name: "renamed" }]);
    } finally {
      await store.close();
    }
  });

  it("reopens a database that outlives its stores, as a restarted server does", async () => {
    const database = await openTestDatabase();
    try {
      const first = await database.open();
      const organization = await first.organizations.create("acme", "team");
      await first.close();
      const second = await database.open();
      expect((await second.organizations.get(organization.id))?.name).toBe("acme");
      await second.close();
    } finally {
      database.remove();
    }
  });
});
