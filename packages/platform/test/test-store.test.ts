import { describe, expect, it } from "vitest";
import { openTestStore, testStoreKind } from "./test-store.js";

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
});
