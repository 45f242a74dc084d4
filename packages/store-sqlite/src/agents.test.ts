import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
beforeEach(() => {
  store = openStore({ file: ":memory:" });
  org = store.organizations.create("acme", "enterprise").id;
});
afterEach(() => store.close());

describe("AgentStore", () => {
  it("creates by unique name with version 1, then numbers versions", () => {
    const created = store.agents.create(org, {
      name: "a",
      description: null,
      definition: { name: "a", model: "m" },
    });
    expect(created?.version.versionNumber).toBe(1);
    expect(store.agents.create(org, { name: "a", description: null, definition: {} })).toBeNull();
    const agentId = created?.agent.id ?? "";
    const v2 = store.agents.commitVersion(agentId, { name: "a", model: "n" }, { description: "d" });
    expect(v2.versionNumber).toBe(2);
    expect(store.agents.get(org, agentId)?.description).toBe("d");
    expect(store.agents.latestVersion(agentId)?.id).toBe(v2.id);
    expect(store.agents.deactivateVersion(agentId, v2.id)).toBe(true);
    expect(store.agents.deactivateVersion(agentId, v2.id)).toBe(false);
    expect(store.agents.latestVersion(agentId)?.versionNumber).toBe(1);
    expect(store.agents.getVersionByNumber(agentId, 2)?.active).toBe(false);
  });

  it("labels point at versions", () => {
    const { agent, version } = store.agents.create(org, { name: "a", description: null, definition: {} }) ?? {
      agent: { id: "" },
      version: { id: "" },
    };
    expect(store.agents.createLabel(agent.id, "production", version.id)).toBe(true);
    expect(store.agents.createLabel(agent.id, "production", version.id)).toBe(false);
    expect(store.agents.listLabels(agent.id).map((l) => l.name)).toEqual(["production"]);
    expect(store.agents.deleteLabel(agent.id, "production")).toBe(true);
  });

  it("a paused run is continued at most once", () => {
    const { agent } = store.agents.create(org, { name: "a", description: null, definition: {} }) ?? {
      agent: { id: "" },
    };
    const conversation = store.agents.createConversation(org, agent.id, "ask");
    store.agents.saveRun({
      id: "resp_1",
      organizationId: org,
      agentId: agent.id,
      conversationId: conversation.id,
      previousResponseId: null,
      status: "requires_approval",
      state: { x: 1 },
      pausedAt: 5,
    });
    expect(store.agents.listRunsByStatus(org, agent.id, ["requires_approval"]).map((r) => r.id)).toEqual([
      "resp_1",
    ]);
    expect(store.agents.claimContinuation(org, "resp_1", "resp_2")).toBe(true);
    expect(store.agents.claimContinuation(org, "resp_1", "resp_3")).toBe(false);
    expect(store.agents.getRun(org, "resp_1")?.continuedBy).toBe("resp_2");
    expect(store.agents.listRunsByStatus(org, agent.id, ["requires_approval"])).toEqual([]);
  });

  it("conversations keep mode and remembered tools", () => {
    const { agent } = store.agents.create(org, { name: "a", description: null, definition: {} }) ?? {
      agent: { id: "" },
    };
    const c = store.agents.createConversation(org, agent.id, "plan");
    store.agents.updateConversation(c.id, { mode: "auto", remembered: ["t"], lastResponseId: "resp_9" });
    expect(store.agents.getConversation(org, c.id)).toMatchObject({
      mode: "auto",
      remembered: ["t"],
      lastResponseId: "resp_9",
    });
  });
});
