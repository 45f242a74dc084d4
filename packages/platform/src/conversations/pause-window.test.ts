/**
 * The pause window as durable background work (PLATFORM.md §6): a pause nobody answers is
 * closed by a job — the items are recorded as timed out and the continuation runs with the
 * model seeing the timeout — without anyone calling back, across a restart.
 */
import type { RunState } from "@groundwork/agents";
import { isGroundworkError, type Principal } from "@groundwork/core";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/test-database.js";
import { createGroundwork } from "../create-groundwork.js";

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat"] });
});
afterAll(async () => {
  await upstream.close();
});

const agent = {
  name: "helper",
  model: "gw-chat",
  tools: [
    { name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } },
    { name: "lookup", annotations: { readOnlyHint: true, destructiveHint: false } },
  ],
  hitlPolicy: { version: 1, classes: { write: "approve" } },
};

const WINDOW_MS = 300;

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the pause-window job", () => {
  it("closes an unanswered pause after a restart: timeouts recorded, the continuation runs, late answers are pause_expired", async () => {
    const database = await openTestDatabase();
    try {
      const config = {
        builtin: { baseUrl: upstream.url, apiKey: "k" },
        agents: { pauseTimeoutMs: WINDOW_MS },
        workers: { pollMs: 20 },
      };
      upstream.reset();
      upstream.enqueue(
        {
          toolCalls: [
            { id: "r1", name: "refund", arguments: {} },
            { id: "l1", name: "lookup", arguments: {} },
          ],
        },
        { text: "nobody answered" },
      );
      let store = await database.open();
      const first = createGroundwork({ store, config });
      const key = await store.apiKeys.create({
        organizationId: (await first.principal()).organizationId,
        role: "member",
      });
      const principal: Principal = { ...(await first.principal()), role: "member", apiKeyId: key.record.id };
      await first.agentManagement.apply(principal, agent);
      const paused = await first.agents.respond(
        principal,
        first.agents.parseBody({ model: "agent/helper", input: "go" }),
      );
      expect(paused.status).toBe("requires_approval");
      // The process goes away before the window passes; nobody ever answers.
      await first.close();
      await store.close();
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 50));

      store = await database.open();
      const second = await createGroundwork({ store, config }).start();
      try {
        const org = principal.organizationId;
        await until(
          async () => (await store.conversations.get(org, paused.conversationId))?.status === "idle",
        );
        const conversation = await store.conversations.get(org, paused.conversationId);
        expect(conversation).toMatchObject({ turnCount: 2 });
        const continuation = (await store.agents.getRun(org, conversation?.lastResponseId ?? ""))
          ?.state as RunState;
        expect(continuation).toMatchObject({
          status: "completed",
          previousResponseId: paused.id,
          text: "nobody answered",
        });
        expect(continuation.toolCalls.map((c) => [c.callId, c.status])).toEqual([
          ["r1", "timed_out"],
          ["l1", "timed_out"],
        ]);
        const lastCall = upstream.requests[1]?.body as { messages: Array<{ role: string; content: string }> };
        expect(
          lastCall.messages
            .filter((m) => m.role === "tool")
            .map((m) => m.content)
            .join("\n"),
        ).toMatch(/No answer arrived within one hour of the pause/);
        const items = await store.conversations.listItems(
          paused.conversationId,
          { order: "asc" },
          { page: 0, size: 100 },
        );
        expect(items.items.map((i) => i.type)).toEqual([
          "message",
          "function_call",
          "function_call",
          "approval_request",
          "approval_response",
          "function_call_output",
          "function_call_output",
          "message",
        ]);
        expect(items.items[4]?.data).toEqual({
          approvalId: paused.pendingApprovals[0]?.id,
          approve: false,
          reason: "timed_out",
        });
        const late = await second.agents
          .respond(
            principal,
            second.agents.parseBody({
              model: "agent/helper",
              previous_response_id: paused.id,
              input: [
                {
                  type: "approval_response",
                  approval_request_id: paused.pendingApprovals[0]?.id,
                  approve: true,
                },
              ],
            }),
          )
          .catch((error: unknown) => error);
        expect(isGroundworkError(late) && late.code).toBe("pause_expired");
      } finally {
        await second.close();
        await store.close();
      }
    } finally {
      await database.remove();
    }
  });
});
