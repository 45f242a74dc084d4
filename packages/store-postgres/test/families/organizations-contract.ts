/** The organizations and API keys contract: the same answers from every store. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OpenFamilies, testClock, uniqueName } from "./tenants-documents-harness.js";

export function describeOrganizationsContract(
  label: string,
  open: OpenFamilies<"organizations" | "apiKeys">,
): void {
  describe(`organizations and API keys on ${label}`, () => {
    it("creates, gets, finds by name, counts and changes the plan", async () => {
      const clock = testClock();
      const store = await open(clock);
      const before = await store.organizations.count();
      const name = uniqueName();
      const created = await store.organizations.create(name, "team");
      expect(created).toEqual({
        id: expect.stringMatching(/^org_/),
        name,
        plan: "team",
        createdAt: clock.time,
      });
      expect(await store.organizations.get(created.id)).toEqual(created);
      expect(await store.organizations.findByName(name)).toEqual(created);
      expect(await store.organizations.get("org_missing")).toBeNull();
      expect(await store.organizations.findByName(uniqueName())).toBeNull();
      expect(await store.organizations.count()).toBe(before + 1);
      await store.organizations.setPlan(created.id, "business");
      expect((await store.organizations.get(created.id))?.plan).toBe("business");
    });

    it("refuses a second organization of the same name; ensure keeps the existing plan", async () => {
      const store = await open(testClock());
      const name = uniqueName();
      const first = await store.organizations.ensure(name, "free");
      expect(first.created).toBe(true);
      expect(first.organization.plan).toBe("free");
      const second = await store.organizations.ensure(name, "enterprise");
      expect(second).toEqual({ organization: first.organization, created: false });
      await expect(Promise.resolve().then(() => store.organizations.create(name, "team"))).rejects.toThrow();
      // Names compare byte for byte: another case is another organization.
      const upper = await store.organizations.ensure(name.toUpperCase(), "team");
      expect(upper.created).toBe(true);
    });

    it("creates a key shown once, stores only what lists show, and authenticates it", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const { record, key } = await store.apiKeys.create({ organizationId: org.id, role: "member" });
      expect(key).toMatch(/^gw_[A-Za-z0-9_-]{43}$/);
      expect(record).toEqual({
        id: expect.stringMatching(/^key_/),
        organizationId: org.id,
        name: "member key",
        role: "member",
        prefix: key.slice(0, 10),
        createdAt: clock.time,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(await store.apiKeys.list(org.id)).toEqual([record]);
      expect(await store.apiKeys.authenticate(key)).toEqual({
        organizationId: org.id,
        organizationName: org.name,
        plan: "team",
        role: "member",
        apiKeyId: record.id,
      });
      expect((await store.apiKeys.list(org.id))[0]?.lastUsedAt).toBe(clock.time);
      expect(await store.apiKeys.authenticate("gw_unknown")).toBeNull();
      expect(await store.apiKeys.authenticate(`x${key}`)).toBeNull();
    });

    it("writes last use at most once a minute", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const { record, key } = await store.apiKeys.create({
        organizationId: org.id,
        role: "admin",
        name: "ci",
      });
      const start = clock.time;
      await store.apiKeys.authenticate(key);
      clock.time += 30_000;
      await store.apiKeys.authenticate(key);
      expect((await store.apiKeys.list(org.id))[0]?.lastUsedAt).toBe(start);
      clock.time = start + 60_000;
      await store.apiKeys.authenticate(key);
      const [listed] = await store.apiKeys.list(org.id);
      expect(listed).toEqual({ ...record, lastUsedAt: start + 60_000 });
    });

    it("revokes by id or by the key; a revoked key no longer authenticates", async () => {
      const store = await open(testClock());
      const org = await store.organizations.create(uniqueName(), "team");
      const a = await store.apiKeys.create({ organizationId: org.id, role: "viewer" });
      const b = await store.apiKeys.create({ organizationId: org.id, role: "viewer" });
      expect(await store.apiKeys.authenticate(a.key)).not.toBeNull();
      expect(await store.apiKeys.revoke(a.record.id)).toBe(true);
      expect(await store.apiKeys.revoke(a.record.id)).toBe(false);
      expect(await store.apiKeys.authenticate(a.key)).toBeNull();
      expect(await store.apiKeys.revoke(b.key)).toBe(true);
      expect(await store.apiKeys.authenticate(b.key)).toBeNull();
      expect(await store.apiKeys.revoke("key_unknown")).toBe(false);
      const listed = await store.apiKeys.list(org.id);
      expect(listed.map((k) => k.revokedAt !== null)).toEqual([true, true]);
    });

    it("answers a plan change at once (the verified-key cache is forgotten)", async () => {
      const store = await open(testClock());
      const org = await store.organizations.create(uniqueName(), "free");
      const { key } = await store.apiKeys.create({ organizationId: org.id, role: "admin" });
      expect((await store.apiKeys.authenticate(key))?.plan).toBe("free");
      await store.organizations.setPlan(org.id, "enterprise");
      expect((await store.apiKeys.authenticate(key))?.plan).toBe("enterprise");
    });

    it("lists keys oldest first (ties by id), per organization or all", async () => {
      const clock = testClock();
      const store = await open(clock);
      const one = await store.organizations.create(uniqueName(), "team");
      const two = await store.organizations.create(uniqueName(), "team");
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2 })), { maxLength: 8 }),
          async (steps) => {
            const made: string[] = [];
            for (const [inOne, advance] of steps) {
              clock.time += advance;
              const { record } = await store.apiKeys.create({
                organizationId: inOne ? one.id : two.id,
                role: "viewer",
              });
              if (inOne) made.push(record.id);
            }
            const listed = await store.apiKeys.list(one.id);
            expect(listed.every((k) => k.organizationId === one.id)).toBe(true);
            const order = listed.map((k) => [k.createdAt, k.id] as const);
            const sorted = [...order].sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
            expect(order).toEqual(sorted);
            for (const id of made) expect(listed.some((k) => k.id === id)).toBe(true);
            const all = await store.apiKeys.list();
            expect(all.filter((k) => k.organizationId === one.id)).toEqual(listed);
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
