/**
 * `openPostgresStore` answers the platform's whole store: the assignment below is the type-level
 * proof (every family of `PlatformStore` is present with compatible methods); the test checks at
 * run time that the families work.
 */
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import type { PlatformStore } from "../../platform/src/store-port.js";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { openPostgresStore } from "../src/open-postgres-store.js";
import { fromPGlite, type PGliteLike } from "../src/sql-client.js";

describe("openPostgresStore", () => {
  it("has every family of the platform's store, pings, closes once", async () => {
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
    // Schemas, skills and experiments, the last families ported, answer through the composed store.
    const schema = await store.schemas.create(org.id, { name: "invoice" });
    expect(await store.schemas.get(org.id, schema.id)).toEqual(schema);
    expect(await store.skills.list(org.id, { page: 0, size: 5 })).toEqual({ items: [], total: 0 });
    expect(await store.experiments.list(org.id, {}, { page: 0, size: 5 })).toEqual({ items: [], total: 0 });
    // The knowledge-base families are whole: a listing answers (nothing yet).
    expect(await store.knowledgeBases.list(org.id, { page: 0, size: 10 })).toEqual({ items: [], total: 0 });
    await store.close();
    await store.close(); // a second close is a no-op
  }, 120_000);
});
