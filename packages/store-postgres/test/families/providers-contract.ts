/** The providers contract: the same answers from every store, keys sealed at rest. */
import { CredentialCipher } from "@groundwork/store-rows";
import { describe, expect, it } from "vitest";
import { type OpenFamilies, TEST_SECRET, testClock, uniqueName } from "./tenants-documents-harness.js";

/** Reads a provider's sealed key as stored (to check it is sealed, never the plaintext). */
export type ReadSealedKey = (providerId: string) => Promise<string | null>;

export function describeProvidersContract(
  label: string,
  open: OpenFamilies<"organizations" | "providers">,
  readSealedKey: ReadSealedKey,
): void {
  describe(`providers on ${label}`, () => {
    it("creates, gets and lists without the key; credentials decrypt the sealed key", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const config = {
        baseUrl: "https://example.test/v1",
        zeta: 1,
        alpha: [true, null],
        nested: { b: 2, a: 1 },
      };
      const created = await store.providers.create({
        organizationId: org.id,
        name: "main",
        type: "openai",
        config,
        apiKey: "sk-secret-1",
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^prv_/),
        organizationId: org.id,
        name: "main",
        type: "openai",
        config,
        hasApiKey: true,
        createdAt: clock.time,
        updatedAt: clock.time,
      });
      // The stored config keeps its key order (it is answered to clients as written).
      expect(Object.keys(created.config)).toEqual(["baseUrl", "zeta", "alpha", "nested"]);
      expect(await store.providers.get(org.id, created.id)).toEqual(created);
      expect(await store.providers.list(org.id)).toEqual([created]);
      const sealed = await readSealedKey(created.id);
      expect(sealed).not.toBeNull();
      expect(sealed).not.toContain("sk-secret-1");
      expect(new CredentialCipher(TEST_SECRET).decrypt(sealed as string, created.id)).toBe("sk-secret-1");
      expect(await store.providers.getWithCredentials(org.id, created.id)).toEqual({
        record: created,
        apiKey: "sk-secret-1",
      });
    });

    it("finds the oldest provider of a type, with its key", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const base = { organizationId: org.id, config: {} };
      const local = await store.providers.create({ ...base, name: "local", type: "ollama", apiKey: null });
      clock.time += 5;
      const first = await store.providers.create({ ...base, name: "a", type: "openai", apiKey: "k1" });
      clock.time += 5;
      await store.providers.create({ ...base, name: "b", type: "openai", apiKey: "k2" });
      expect(await store.providers.findWithCredentials(org.id, "openai")).toEqual({
        record: first,
        apiKey: "k1",
      });
      expect(await store.providers.findWithCredentials(org.id, "ollama")).toEqual({
        record: local,
        apiKey: null,
      });
      expect(await store.providers.findWithCredentials(org.id, "anthropic")).toBeNull();
      expect((await store.providers.list(org.id)).map((p) => p.name)).toEqual(["local", "a", "b"]);
    });

    it("updates name, config and key, and deletes", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const created = await store.providers.create({
        organizationId: org.id,
        name: "p",
        type: "openai",
        config: { a: 1 },
        apiKey: "old",
      });
      clock.time += 1000;
      const renamed = await store.providers.update(org.id, created.id, { name: "q" });
      expect(renamed).toEqual({ ...created, name: "q", updatedAt: clock.time });
      const reconfigured = await store.providers.update(org.id, created.id, {
        config: { b: 2 },
        apiKey: "new",
      });
      expect(reconfigured?.config).toEqual({ b: 2 });
      expect((await store.providers.getWithCredentials(org.id, created.id))?.apiKey).toBe("new");
      const keyless = await store.providers.update(org.id, created.id, { apiKey: null });
      expect(keyless?.hasApiKey).toBe(false);
      expect((await store.providers.getWithCredentials(org.id, created.id))?.apiKey).toBeNull();
      expect(await store.providers.update(org.id, "prv_missing", { name: "x" })).toBeNull();
      expect(await store.providers.delete(org.id, created.id)).toBe(true);
      expect(await store.providers.delete(org.id, created.id)).toBe(false);
      expect(await store.providers.get(org.id, created.id)).toBeNull();
    });

    it("keeps organizations apart", async () => {
      const store = await open(testClock());
      const mine = await store.organizations.create(uniqueName(), "team");
      const theirs = await store.organizations.create(uniqueName(), "team");
      const p = await store.providers.create({
        organizationId: mine.id,
        name: "p",
        type: "openai",
        config: {},
        apiKey: "k",
      });
      expect(await store.providers.get(theirs.id, p.id)).toBeNull();
      expect(await store.providers.getWithCredentials(theirs.id, p.id)).toBeNull();
      expect(await store.providers.findWithCredentials(theirs.id, "openai")).toBeNull();
      expect(await store.providers.list(theirs.id)).toEqual([]);
      expect(await store.providers.update(theirs.id, p.id, { name: "stolen" })).toBeNull();
      expect(await store.providers.delete(theirs.id, p.id)).toBe(false);
      expect((await store.providers.get(mine.id, p.id))?.name).toBe("p");
    });
  });
}
