/**
 * The conversations family's contract (store-sqlite's `ConversationStore`): the listing with the
 * fields derived from responses (status, turn count, last activity) and its filters and pages,
 * items in order with their filters, deletion with runs and stored responses, isolation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConversationStore } from "../../../store-sqlite/src/conversations.js";
import type { AgentsFamily } from "./agents-contract.js";
import { type Awaitable, type Backend, familyUnderTest, type TestClock } from "./family-fixture.js";

export type ConversationsFamily = Awaitable<ConversationStore>;

export interface ConversationsUnderTest {
  family: ConversationsFamily;
  agents: AgentsFamily;
  backend: Backend;
  /** Stores a response (the stored-responses family's row) in a conversation, or not. */
  storeResponse(organizationId: string, id: string, conversationId: string | null): Promise<void>;
  responseStored(organizationId: string, id: string): Promise<boolean>;
  close(): Promise<void> | void;
}

const run = (org: string, agentId: string, conversationId: string, id: string, status: string) => ({
  id,
  organizationId: org,
  agentId,
  conversationId,
  previousResponseId: null,
  status,
  state: { id, usage: { tokens: id.length } },
  pausedAt: null,
});

export function describeConversationsContract(
  label: string,
  open: (clock: TestClock) => Promise<ConversationsUnderTest>,
): void {
  describe(`conversations contract on ${label}`, () => {
    let opened: ConversationsUnderTest | undefined;
    const under = familyUnderTest(async (clock) => {
      opened = await open(clock);
      return opened;
    });
    const extra = () => opened as ConversationsUnderTest;

    it("derives status, turns and last activity, filters and pages newest activity first", async () => {
      const conversations = under.family();
      const { agents } = extra();
      const org = await under.backend().organization();
      const agent =
        (await agents.create(org, { name: "helper", description: null, definition: {} }))?.agent.id ?? "";
      const start = under.clock.now();
      const idle = await agents.createConversation(org, null, "ask", { title: "idle" });
      under.clock.advance(10);
      const busy = await agents.createConversation(org, agent, "auto");
      under.clock.advance(10);
      const paused = await agents.createConversation(org, agent, "ask");
      under.clock.advance(10);
      await agents.saveRun(run(org, agent, busy.id, "resp_b1", "completed"));
      under.clock.advance(10);
      await agents.saveRun(run(org, agent, busy.id, "resp_b2", "in_progress"));
      await agents.updateConversation(busy.id, { lastResponseId: "resp_b2" });
      await agents.saveRun(run(org, agent, paused.id, "resp_p1", "requires_approval"));
      await agents.updateConversation(paused.id, { lastResponseId: "resp_p1" });

      expect(await conversations.get(org, idle.id)).toEqual({
        ...(await agents.getConversation(org, idle.id)),
        agentName: null,
        status: "idle",
        turnCount: 0,
        lastActivityAt: start,
      });
      expect(await conversations.get(org, busy.id)).toMatchObject({
        agentName: "helper",
        status: "in_progress",
        turnCount: 2,
        lastActivityAt: start + 40,
      });
      expect(await conversations.get(org, paused.id)).toMatchObject({ status: "paused", turnCount: 1 });
      const all = await conversations.list(org, {}, { page: 0, size: 10 });
      expect(all.total).toBe(3);
      // busy and paused both last acted at start + 40: the larger id first.
      const tied = [busy.id, paused.id].sort().reverse();
      expect(all.items.map((c) => c.id)).toEqual([...tied, idle.id]);
      expect((await conversations.list(org, {}, { page: 1, size: 2 })).items.map((c) => c.id)).toEqual([
        idle.id,
      ]);
      expect(
        (await conversations.list(org, { status: "paused" }, { page: 0, size: 10 })).items.map((c) => c.id),
      ).toEqual([paused.id]);
      expect(
        (await conversations.list(org, { agentId: agent, mode: "auto" }, { page: 0, size: 10 })).items.map(
          (c) => c.id,
        ),
      ).toEqual([busy.id]);
      expect(
        (await conversations.list(org, { status: "idle", mode: "plan" }, { page: 0, size: 10 })).total,
      ).toBe(0);
      // A continued pause is idle.
      await agents.claimContinuation(org, "resp_p1", "resp_p2");
      expect((await conversations.get(org, paused.id))?.status).toBe("idle");
      expect(await conversations.runStates(org, busy.id)).toEqual([
        { id: "resp_b1", usage: { tokens: 7 } },
        { id: "resp_b2", usage: { tokens: 7 } },
      ]);
      const other = await under.backend().organization();
      expect(await conversations.get(other, busy.id)).toBeNull();
      expect((await conversations.list(other, {}, { page: 0, size: 10 })).total).toBe(0);
      expect(await conversations.runStates(other, busy.id)).toEqual([]);
    });

    it("appends items in order and lists them by order, type and response", async () => {
      const conversations = under.family();
      const { agents } = extra();
      const org = await under.backend().organization();
      const conv = (await agents.createConversation(org, null, "ask")).id;
      expect(await conversations.appendItems(conv, "resp_1", [])).toEqual([]);
      const first = await conversations.appendItems(conv, "resp_1", [
        { type: "message", data: { role: "user", content: "hi", z: 1, a: 2 } },
        { type: "function_call", data: { callId: "c1" } },
      ]);
      expect(first.map((i) => i.position)).toEqual([0, 1]);
      expect(first[0]).toEqual({
        id: first[0]?.id,
        conversationId: conv,
        responseId: "resp_1",
        position: 0,
        type: "message",
        data: { role: "user", content: "hi", z: 1, a: 2 },
        createdAt: under.clock.now(),
      });
      under.clock.advance(1);
      const second = await conversations.appendItems(conv, null, [
        { type: "message", data: { role: "assistant" } },
      ]);
      expect(second[0]?.position).toBe(2);
      expect(await conversations.countItems(conv)).toBe(3);
      const asc = await conversations.listItems(conv, { order: "asc" }, { page: 0, size: 10 });
      expect(asc).toEqual({ items: [...first, ...second], total: 3 });
      expect(Object.keys(asc.items[0]?.data ?? {})).toEqual(["role", "content", "z", "a"]);
      expect(
        (await conversations.listItems(conv, { order: "desc" }, { page: 0, size: 2 })).items.map(
          (i) => i.position,
        ),
      ).toEqual([2, 1]);
      expect(
        (
          await conversations.listItems(conv, { order: "asc", type: "message" }, { page: 0, size: 10 })
        ).items.map((i) => i.position),
      ).toEqual([0, 2]);
      expect(
        await conversations.listItems(
          conv,
          { order: "asc", type: "message", responseId: "resp_1" },
          { page: 0, size: 10 },
        ),
      ).toMatchObject({ total: 1 });
      expect(await conversations.countItems(await under.backend().conversation(org))).toBe(0);
    });

    it("deletes a conversation with its items, runs and stored responses, in its organization only", async () => {
      const conversations = under.family();
      const { agents, storeResponse, responseStored } = extra();
      const org = await under.backend().organization();
      const other = await under.backend().organization();
      const conv = (await agents.createConversation(org, "agt_1", "ask")).id;
      const kept = (await agents.createConversation(org, "agt_1", "ask")).id;
      await conversations.appendItems(conv, null, [{ type: "message", data: {} }]);
      await agents.saveRun(run(org, "agt_1", conv, "resp_run", "completed"));
      await agents.saveRun(run(org, "agt_1", kept, "resp_kept", "completed"));
      await storeResponse(org, "resp_run", null);
      await storeResponse(org, "resp_model", conv);
      await storeResponse(org, "resp_kept", kept);
      expect(await conversations.delete(other, conv)).toBe(false);
      expect(await responseStored(org, "resp_model")).toBe(true);
      expect(await conversations.delete(org, conv)).toBe(true);
      expect(await conversations.delete(org, conv)).toBe(false);
      expect(await conversations.get(org, conv)).toBeNull();
      expect(await conversations.countItems(conv)).toBe(0);
      expect(await agents.getRun(org, "resp_run")).toBeNull();
      expect(await responseStored(org, "resp_run")).toBe(false);
      expect(await responseStored(org, "resp_model")).toBe(false);
      expect(await responseStored(org, "resp_kept")).toBe(true);
      expect(await agents.getRun(org, "resp_kept")).not.toBeNull();
    });

    it("numbers appended items 0…n-1 and pages them as a model, for random appends (property)", async () => {
      const conversations = under.family();
      const item = fc.record({
        type: fc.constantFrom("message", "function_call", "reasoning"),
        data: fc.dictionary(fc.string(), fc.integer()),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(item, { maxLength: 3 }), { maxLength: 4 }),
          fc.integer({ min: 1, max: 3 }),
          fc.constantFrom("asc" as const, "desc" as const),
          async (batches, size, order) => {
            const org = await under.backend().organization();
            const conv = await under.backend().conversation(org);
            const model: Array<{ type: string; position: number }> = [];
            for (const batch of batches) {
              const added = await conversations.appendItems(conv, null, batch);
              model.push(...added.map((i) => ({ type: i.type, position: i.position })));
            }
            expect(model.map((i) => i.position)).toEqual(model.map((_, index) => index));
            const expected = model.filter((i) => i.type === "message").map((i) => i.position);
            if (order === "desc") expected.reverse();
            const listed: number[] = [];
            for (let page = 0; page * size < expected.length; page++) {
              const got = await conversations.listItems(conv, { order, type: "message" }, { page, size });
              expect(got.total).toBe(expected.length);
              listed.push(...got.items.map((i) => i.position));
            }
            expect(listed).toEqual(expected);
            expect(await conversations.countItems(conv)).toBe(model.length);
          },
        ),
        { numRuns: 12 },
      );
    });
  });
}
