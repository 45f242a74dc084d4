/**
 * Reads inside and after a pause window (PLATFORM.md §6): pending items carry `expiresAt`
 * (= pausedAt + the window), and a read after it but before the job ran shows them `timed_out`.
 */

import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork } from "../create-groundwork.js";

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat"] });
});
afterAll(async () => {
  await upstream.close();
});

const WINDOW_MS = 60_000;

it("gives pending items expiresAt and shows them timed_out between the window's end and the job", async () => {
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  const store = await openTestStore({ clock: { now: () => now } });
  // Not started: the pause-window job never runs, as between `expiresAt` and a late job.
  const groundwork = createGroundwork({
    store,
    clock: { now: () => now },
    config: { builtin: { baseUrl: upstream.url, apiKey: "k" }, agents: { pauseTimeoutMs: WINDOW_MS } },
  });
  try {
    const key = await store.apiKeys.create({
      organizationId: (await groundwork.principal()).organizationId,
      role: "member",
    });
    const principal = { ...(await groundwork.principal()), role: "member" as const, apiKeyId: key.record.id };
    await groundwork.agentManagement.apply(principal, {
      name: "helper",
      model: "gw-chat",
      tools: [{ name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } }],
      hitlPolicy: { version: 1, classes: { write: "approve" } },
    });
    upstream.reset();
    upstream.enqueue({ toolCalls: [{ id: "r1", name: "refund", arguments: {} }] });
    const answer = await groundwork.respondWithAgent(principal, { model: "agent/helper", input: "go" });
    const created = (answer as { json: { id: string; run: { pendingApprovals: unknown[] } } }).json;
    const expiresAt = new Date(now + WINDOW_MS).toISOString();
    expect(created.run.pendingApprovals).toMatchObject([{ callId: "r1", expiresAt, status: "pending" }]);

    now += WINDOW_MS;
    const atEnd = (await groundwork.responses.get(principal, created.id)) as typeof created;
    expect(atEnd.run.pendingApprovals).toMatchObject([{ expiresAt, status: "pending" }]);
    now += 1;
    const after = (await groundwork.responses.get(principal, created.id)) as typeof created;
    expect(after.run.pendingApprovals).toMatchObject([{ expiresAt, status: "timed_out" }]);
  } finally {
    await groundwork.close();
    await store.close();
  }
});
