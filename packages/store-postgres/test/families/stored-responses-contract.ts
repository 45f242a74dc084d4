/** The stored responses contract: the same answers from every store. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OpenFamilies, testClock, uniqueName } from "./tenants-documents-harness.js";

export function describeStoredResponsesContract(
  label: string,
  open: OpenFamilies<"organizations" | "storedResponses">,
): void {
  let ids = 0;
  const responseId = () =>
    `resp_${++ids}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

  describe(`stored responses on ${label}`, () => {
    it("saves once (the first owner stays), gets the response object as answered, deletes", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const other = await store.organizations.create(uniqueName(), "team");
      const id = responseId();
      const response = {
        id,
        object: "response",
        output: [{ type: "message", text: "hé ✓" }],
        usage: { total: 3 },
      };
      const input = [{ role: "user", content: "hi" }, "plain"];
      await store.storedResponses.save({
        id,
        organizationId: org.id,
        createdByKeyId: "key_a",
        kind: "model",
        conversationId: null,
        input,
        response,
        retainForMs: 60_000,
      });
      await store.storedResponses.save({
        id,
        organizationId: other.id,
        createdByKeyId: "key_b",
        kind: "agent",
        conversationId: "conv_x",
        input: [],
        response: null,
        retainForMs: null,
      });
      const got = await store.storedResponses.get(org.id, id);
      expect(got).toEqual({
        id,
        organizationId: org.id,
        createdByKeyId: "key_a",
        kind: "model",
        conversationId: null,
        input,
        response,
        createdAt: clock.time,
        expiresAt: clock.time + 60_000,
      });
      // The object comes back with its keys in the order it was answered.
      expect(JSON.stringify(got?.response)).toBe(JSON.stringify(response));
      expect(await store.storedResponses.get(other.id, id)).toBeNull();
      expect(await store.storedResponses.delete(other.id, id)).toBe(false);
      expect(await store.storedResponses.delete(org.id, id)).toBe(true);
      expect(await store.storedResponses.delete(org.id, id)).toBe(false);
      expect(await store.storedResponses.get(org.id, id)).toBeNull();
    });

    it("an agent answer keeps no object; a held one never expires", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const id = responseId();
      await store.storedResponses.save({
        id,
        organizationId: org.id,
        createdByKeyId: "key_a",
        kind: "agent",
        conversationId: "conv_1",
        input: [],
        response: undefined,
        retainForMs: null,
      });
      clock.time += 10 * 365 * 86_400_000;
      expect(await store.storedResponses.get(org.id, id)).toMatchObject({
        kind: "agent",
        conversationId: "conv_1",
        response: null,
        expiresAt: null,
      });
    });

    it("hides and purges exactly the responses past their retention", async () => {
      const clock = testClock();
      const store = await open(clock);
      // Earlier tests' rows on a shared database expire before this test's start.
      clock.time += 1_000_000;
      await store.storedResponses.purgeExpired();
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }), { maxLength: 8 }),
          fc.integer({ min: 0, max: 120 }),
          async (retentions, later) => {
            const org = await store.organizations.create(uniqueName(), "team");
            const start = clock.time;
            const saved = retentions.map((retainForMs) => ({ id: responseId(), retainForMs }));
            for (const { id, retainForMs } of saved) {
              await store.storedResponses.save({
                id,
                organizationId: org.id,
                createdByKeyId: "key",
                kind: "model",
                conversationId: null,
                input: [],
                response: {},
                retainForMs,
              });
            }
            clock.time = start + later;
            const expired = saved.filter((s) => s.retainForMs !== null && s.retainForMs <= later);
            for (const { id, retainForMs } of saved) {
              const visible = (await store.storedResponses.get(org.id, id)) !== null;
              expect(visible).toBe(retainForMs === null || retainForMs > later);
            }
            expect(await store.storedResponses.purgeExpired()).toBe(expired.length);
            expect(await store.storedResponses.purgeExpired()).toBe(0);
            // Past every retention drawn: the next run starts with nothing left to expire.
            clock.time = start + 200;
            await store.storedResponses.purgeExpired();
          },
        ),
        { numRuns: 12 },
      );
    });
  });
}
