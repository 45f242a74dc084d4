/**
 * Agent management as a library: apply a definition file, run the agent, manage versions
 * and labels, explain the policy — the same service the `/v1/agents` routes call.
 */
import { isGroundworkError } from "@groundwork/core";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let upstream: Upstream;
let store: PlatformStore;
let groundwork: Groundwork;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat"] });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  store = await openTestStore();
  groundwork = createGroundwork({ store, config: { builtin: { baseUrl: upstream.url, apiKey: "k" } } });
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
});

const helper = {
  name: "helper",
  model: "gw-chat",
  instructions: "Answer briefly.",
  tools: [{ name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } }],
  hitlPolicy: { version: 1, classes: { write: "approve" } },
};

/** The GroundworkError a call throws, for its code, param and message. */
async function errorOf(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    if (isGroundworkError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to throw");
}

describe("AgentManagement", () => {
  it("applies a definition file and runs the agent in a few lines", async () => {
    const principal = await groundwork.principal();
    const applied = await groundwork.agentManagement.apply(principal, helper);
    expect(applied.result).toBe("created");
    upstream.enqueue({ text: "Hi!" });
    const run = await groundwork.agents.respond(principal, { model: "agent/helper", input: "hello" });
    expect(run).toMatchObject({ status: "completed", text: "Hi!", agentVersionId: applied.version.id });
  });

  it("adds a version only when the file changed", async () => {
    const principal = await groundwork.principal();
    const agents = groundwork.agentManagement;
    const first = await agents.apply(principal, helper);
    expect(await agents.apply(principal, helper)).toMatchObject({
      result: "unchanged",
      version: first.version,
    });
    const second = await agents.apply(principal, { ...helper, instructions: "Answer at length." });
    expect(second.result).toBe("versioned");
    expect(second.version.versionNumber).toBe(2);
    expect((await agents.get(principal, first.agent.id)).latest?.id).toBe(second.version.id);
  });

  it("refuses a second agent of the same name, speaking of the operation", async () => {
    const principal = await groundwork.principal();
    await groundwork.agentManagement.create(principal, helper);
    const error = await errorOf(async () => await groundwork.agentManagement.create(principal, helper));
    expect(error.status).toBe(409);
    expect(error.param).toBe("name");
    expect(error.message).toBe('An agent named "helper" exists; apply the definition to add a version');
  });

  it("labels versions and runs a label", async () => {
    const principal = await groundwork.principal();
    const agents = groundwork.agentManagement;
    const first = await agents.apply(principal, helper);
    await agents.apply(principal, { ...helper, instructions: "v2" });
    await agents.setLabel(principal, first.agent.id, "stable", first.version.id);
    expect((await agents.listLabels(principal, first.agent.id)).map((l) => l.version?.versionNumber)).toEqual(
      [1],
    );
    upstream.enqueue({ text: "ok" });
    const run = await groundwork.agents.respond(principal, { model: "agent/helper@stable", input: "x" });
    expect(run.agentVersionId).toBe(first.version.id);
  });

  it("explains the policy of a version per tool and mode", async () => {
    const principal = await groundwork.principal();
    const { agent, version } = await groundwork.agentManagement.apply(principal, helper);
    const ask = await groundwork.agentManagement.explainPolicy(
      principal,
      agent.id,
      String(version.versionNumber),
    );
    expect(ask.tools).toMatchObject([
      { tool: "refund", verdict: "PAUSE_APPROVAL", modeChangedVerdict: null },
    ]);
    const plan = await groundwork.agentManagement.explainPolicy(principal, agent.id, version.id, {
      mode: "plan",
    });
    expect(plan.tools).toMatchObject([{ verdict: "BLOCK", modeChangedVerdict: "conversation_mode.plan" }]);
  });

  it("explains the policy only for an installation that exists (this build has none)", async () => {
    const principal = await groundwork.principal();
    const { agent, version } = await groundwork.agentManagement.apply(principal, helper);
    const error = await errorOf(
      async () =>
        await groundwork.agentManagement.explainPolicy(principal, agent.id, version.id, {
          installationId: "plg_x",
        }),
    );
    expect(error.status).toBe(404);
    expect(error.param).toBe("installationId");
  });
});
