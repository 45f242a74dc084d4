/**
 * `openPostgresStore` answers the platform's whole store: the assignment below is the type-level
 * proof (every family of `PlatformStore` is present with compatible methods); the test checks at
 * run time that ported families work and a family not yet ported refuses with a 501.
 */
import { PGlite } from "@electric-sql/pglite";
import { isGroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import type { PlatformStore } from "../../platform/src/store-port.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { openPostgresStore, PENDING_POSTGRES_FAMILIES } from "../src/open-postgres-store.js";
import { fromPGlite, type PGliteLike } from "../src/sql-client.js";

describe("openPostgresStore", () => {
  it("has every family of the platform's store, pings, refuses families not yet ported, closes once", async () => {
    const store: PlatformStore = await openPostgresStore({
      client: fromPGlite((await PGlite.create()) as unknown as PGliteLike),
      secret: "a-test-master-secret-of-some-length",
    });
    const sqlite = openStore({ file: ":memory:" });
    const families = Object.keys(sqlite).filter((key) => !["db", "ping", "close"].includes(key));
    sqlite.close();
    for (const family of families) expect(store).toHaveProperty(family);
    await store.ping();
    const org = await store.organizations.create("acme", "team");
    expect(await store.organizations.get(org.id)).toEqual(org);
    for (const family of PENDING_POSTGRES_FAMILIES) {
      const refused = await Promise.resolve()
        .then(() => (store[family] as unknown as Record<string, () => unknown>).get?.())
        .catch((error: unknown) => error);
      expect(isGroundworkError(refused) && refused.status === 501 && refused.code === "not_implemented").toBe(
        true,
      );
      expect((refused as Error).message).toBe(`${family} is not available on PostgreSQL yet`);
    }
    // The knowledge-base families are whole: a listing answers (nothing yet).
    expect(await store.knowledgeBases.list(org.id, { page: 0, size: 10 })).toEqual({ items: [], total: 0 });
    await store.close();
    await store.close(); // a second close is a no-op
  }, 120_000);
});
