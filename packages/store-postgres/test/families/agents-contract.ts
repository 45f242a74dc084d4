/**
 * The agents family's contract (store-sqlite's `AgentStore`): agents with their unique name,
 * listing and the catalog filter, numbered versions (soft delete, newest active), labels,
 * conversations, runs with their at-most-once continuation, organization isolation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentStore, RunInput } from "../../../store-sqlite/src/agents.js";
import {
  type Atomic,
  type Awaitable,
  type Backend,
  familyUnderTest,
  type TestClock,
} from "./family-fixture.js";

export type AgentsFamily = Omit<Awaitable<AgentStore>, "atomically"> & Atomic;

const definition = (model: string) => ({ model, instructions: "Be brief.", tools: [{ z: 1, a: 2 }] });

const run = (
  org: string,
  agentId: string,
  conversationId: string,
  id: string,
  extra: Partial<RunInput> = {},
) => ({
  id,
  organizationId: org,
  agentId,
  conversationId,
  previousResponseId: null,
  status: "requires_approval",
  state: { step: 1, items: ["x"] },
  pausedAt: 5,
  ...extra,
});

export function describeAgentsContract(
  label: string,
  open: (
    clock: TestClock,
  ) => Promise<{ family: AgentsFamily; backend: Backend; close(): Promise<void> | void }>,
): void {
  describe(`agents contract on ${label}`, () => {
    const under = familyUnderTest(open);

    it("creates agents with their first version, finds them, lists, updates and deletes them", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const start = under.clock.now();
      const created = await agents.create(org, {
        name: "helper",
        description: "d",
        definition: definition("m1"),
      });
      expect(created?.agent).toEqual({
        id: created?.agent.id,
        organizationId: org,
        name: "helper",
        description: "d",
        published: false,
        createdAt: start,
        updatedAt: start,
      });
      expect(created?.version).toEqual({
        id: created?.version.id,
        agentId: created?.agent.id,
        versionNumber: 1,
        definition: definition("m1"),
        active: true,
        copiedFromVersionId: null,
        createdAt: start,
        deactivatedAt: null,
      });
      expect(JSON.stringify(created?.version.definition)).toBe(JSON.stringify(definition("m1")));
      const id = created?.agent.id ?? "";
      expect(id).toMatch(/^agt_/);
      expect(await agents.create(org, { name: "helper", description: null, definition: {} })).toBeNull();
      expect(await agents.get(org, id)).toEqual(created?.agent);
      expect(await agents.getByName(org, "helper")).toEqual(created?.agent);
      expect(await agents.getByName(org, "Helper")).toBeNull();
      under.clock.advance(1);
      const second = await agents.create(org, { name: "second", description: null, definition: {} });
      expect((await agents.list(org, { page: 0, size: 10 })).items.map((a) => a.name)).toEqual([
        "second",
        "helper",
      ]);
      expect(await agents.list(org, { page: 0, size: 10 }, { publishedOnly: true })).toEqual({
        items: [],
        total: 0,
      });
      under.clock.advance(1);
      const published = await agents.update(org, id, { published: true, description: null });
      expect(published).toEqual({
        ...created?.agent,
        published: true,
        description: null,
        updatedAt: start + 2,
      });
      expect(await agents.update(org, id, {})).toMatchObject({
        published: true,
        description: null,
        name: "helper",
      });
      expect(
        (await agents.list(org, { page: 0, size: 10 }, { publishedOnly: true })).items.map((a) => a.id),
      ).toEqual([id]);
      expect(await agents.update(org, "agt_missing", { published: true })).toBeNull();
      await expect(
        Promise.resolve().then(() => agents.update(org, second?.agent.id ?? "", { name: "helper" })),
      ).rejects.toThrow(/unique/i);
      expect(await agents.delete(org, id)).toBe(true);
      expect(await agents.delete(org, id)).toBe(false);
      expect(await agents.versionById(created?.version.id ?? "")).toBeNull();
    });

    it("numbers versions, deactivates them softly and reads the newest active one", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const created = await agents.create(org, {
        name: "a",
        description: "old",
        definition: definition("m1"),
      });
      const agentId = created?.agent.id ?? "";
      const v1 = created?.version.id ?? "";
      under.clock.advance(10);
      const v2 = await agents.commitVersion(agentId, definition("m2"), {
        copiedFromVersionId: v1,
        description: "new",
      });
      expect(v2).toMatchObject({ versionNumber: 2, copiedFromVersionId: v1, active: true });
      expect(await agents.get(org, agentId)).toMatchObject({
        description: "new",
        updatedAt: under.clock.now(),
      });
      under.clock.advance(10);
      const v3 = await agents.commitVersion(agentId, definition("m3"));
      expect(await agents.get(org, agentId)).toMatchObject({
        description: "new",
        updatedAt: under.clock.now(),
      });
      expect(await agents.getVersion(agentId, v2.id)).toEqual(v2);
      expect(await agents.getVersion("agt_other", v2.id)).toBeNull();
      expect(await agents.getVersionByNumber(agentId, 3)).toEqual(v3);
      expect(await agents.getVersionByNumber(agentId, 4)).toBeNull();
      expect(await agents.latestVersion(agentId)).toEqual(v3);
      const listed = await agents.listVersions(agentId, { page: 0, size: 2 });
      expect(listed).toMatchObject({ total: 3 });
      expect(listed.items.map((v) => v.versionNumber)).toEqual([3, 2]);
      expect(
        (await agents.listVersions(agentId, { page: 1, size: 2 })).items.map((v) => v.versionNumber),
      ).toEqual([1]);
      under.clock.advance(1);
      expect(await agents.deactivateVersion(agentId, v3.id)).toBe(true);
      expect(await agents.deactivateVersion(agentId, v3.id)).toBe(false);
      expect(await agents.versionById(v3.id)).toMatchObject({
        active: false,
        deactivatedAt: under.clock.now(),
      });
      expect(await agents.latestVersion(agentId)).toEqual(v2);
      await agents.deactivateVersion(agentId, v2.id);
      await agents.deactivateVersion(agentId, v1);
      expect(await agents.latestVersion(agentId)).toBeNull();
      // Numbers go on after deactivated versions.
      expect((await agents.commitVersion(agentId, {})).versionNumber).toBe(4);
    });

    it("keeps labels by name", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const created = await agents.create(org, { name: "a", description: null, definition: {} });
      const agentId = created?.agent.id ?? "";
      const v1 = created?.version.id ?? "";
      const v2 = (await agents.commitVersion(agentId, { v: 2 })).id;
      expect(await agents.createLabel(agentId, "prod", v1)).toBe(true);
      expect(await agents.createLabel(agentId, "prod", v2)).toBe(false);
      expect(await agents.createLabel(agentId, "Beta", v2)).toBe(true);
      expect(await agents.createLabel(agentId, "alpha", v2)).toBe(true);
      expect((await agents.listLabels(agentId)).map((l) => l.name)).toEqual(["Beta", "alpha", "prod"]);
      expect(await agents.getLabel(agentId, "prod")).toEqual({
        agentId,
        name: "prod",
        agentVersionId: v1,
        createdAt: under.clock.now(),
        updatedAt: under.clock.now(),
      });
      under.clock.advance(5);
      expect(await agents.updateLabel(agentId, "prod", v2)).toBe(true);
      expect(await agents.updateLabel(agentId, "missing", v2)).toBe(false);
      expect(await agents.getLabel(agentId, "prod")).toMatchObject({
        agentVersionId: v2,
        updatedAt: under.clock.now(),
      });
      expect(await agents.deleteLabel(agentId, "prod")).toBe(true);
      expect(await agents.deleteLabel(agentId, "prod")).toBe(false);
      expect(await agents.getLabel(agentId, "prod")).toBeNull();
    });

    it("finds nothing by an id, name or label with a NUL character (a request's %00)", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const created = await agents.create(org, { name: "a", description: null, definition: {} });
      const agentId = created?.agent.id ?? "";
      const versionId = created?.version.id ?? "";
      expect(await agents.createLabel(agentId, "prod", versionId)).toBe(true);
      expect(await agents.get(org, `${agentId}\0`)).toBeNull();
      expect(await agents.getByName(org, "a\0")).toBeNull();
      expect(await agents.getVersion(agentId, `${versionId}\0`)).toBeNull();
      expect(await agents.versionById("\0")).toBeNull();
      expect(await agents.getLabel(agentId, "prod\0")).toBeNull();
      expect((await agents.getLabel(agentId, "prod"))?.agentVersionId).toBe(versionId);
    });

    it("creates and updates conversations", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const start = under.clock.now();
      const conv = await agents.createConversation(org, null, "ask", {
        title: "t",
        metadata: { b: "2", a: "1" },
        createdByKeyId: "key_1",
      });
      expect(conv).toEqual({
        id: conv.id,
        organizationId: org,
        agentId: null,
        mode: "ask",
        remembered: [],
        lastResponseId: null,
        title: "t",
        metadata: { b: "2", a: "1" },
        createdByKeyId: "key_1",
        createdAt: start,
        updatedAt: start,
      });
      expect(conv.id).toMatch(/^conv_/);
      expect(Object.keys(conv.metadata)).toEqual(["b", "a"]);
      const bare = await agents.createConversation(org, "agt_1", "plan");
      expect(bare).toMatchObject({ agentId: "agt_1", title: null, metadata: {}, createdByKeyId: "" });
      under.clock.advance(3);
      await agents.updateConversation(conv.id, {
        agentId: "agt_2",
        mode: "auto",
        remembered: ["tool_a"],
        lastResponseId: "resp_1",
        title: null,
        metadata: {},
      });
      expect(await agents.getConversation(org, conv.id)).toEqual({
        ...conv,
        agentId: "agt_2",
        mode: "auto",
        remembered: ["tool_a"],
        lastResponseId: "resp_1",
        title: null,
        metadata: {},
        updatedAt: start + 3,
      });
      await agents.updateConversation(conv.id, {});
      expect(await agents.getConversation(org, conv.id)).toMatchObject({ agentId: "agt_2", title: null });
      expect(await agents.getConversation(await under.backend().organization(), conv.id)).toBeNull();
    });

    it("stores runs and lets a paused one be continued once", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const conv = (await agents.createConversation(org, "agt_1", "ask")).id;
      const start = under.clock.now();
      await agents.saveRun(run(org, "agt_1", conv, "resp_1"));
      expect(await agents.getRun(org, "resp_1")).toEqual({
        ...run(org, "agt_1", conv, "resp_1"),
        continuedBy: null,
        createdAt: start,
        updatedAt: start,
      });
      under.clock.advance(1);
      await agents.saveRun(
        run(org, "agt_1", conv, "resp_1", { status: "completed", state: "done", pausedAt: null }),
      );
      expect(await agents.getRun(org, "resp_1")).toMatchObject({
        status: "completed",
        state: "done",
        pausedAt: null,
        createdAt: start,
        updatedAt: start + 1,
      });
      await agents.saveRun(run(org, "agt_1", conv, "resp_2"));
      under.clock.advance(1);
      await agents.saveRun(run(org, "agt_1", conv, "resp_3", { status: "requires_tool_output" }));
      await agents.saveRun(run(org, "agt_2", conv, "resp_4"));
      const paused = async () =>
        (await agents.listRunsByStatus(org, "agt_1", ["requires_approval", "requires_tool_output"])).map(
          (r) => r.id,
        );
      expect(await paused()).toEqual(["resp_2", "resp_3"]);
      expect(await agents.listRunsByStatus(org, "agt_1", [])).toEqual([]);
      expect(await agents.claimContinuation(org, "resp_2", "resp_5")).toBe(true);
      expect(await agents.claimContinuation(org, "resp_2", "resp_6")).toBe(false);
      expect((await agents.getRun(org, "resp_2"))?.continuedBy).toBe("resp_5");
      expect(await paused()).toEqual(["resp_3"]);
      expect(await agents.claimAndSaveRun(org, "resp_3", run(org, "agt_1", conv, "resp_7"))).toBe(true);
      expect(await agents.claimAndSaveRun(org, "resp_3", run(org, "agt_1", conv, "resp_8"))).toBe(false);
      expect(await agents.getRun(org, "resp_8")).toBeNull();
      expect(await agents.getRun(org, "resp_7")).not.toBeNull();
      await agents.closeRun(run(org, "agt_1", conv, "resp_7", { status: "cancelled" }));
      expect(await agents.getRun(org, "resp_7")).toMatchObject({
        status: "cancelled",
        continuedBy: "resp_7",
      });
      expect(await agents.claimContinuation(org, "resp_7", "resp_9")).toBe(false);
      const other = await under.backend().organization();
      expect(await agents.getRun(other, "resp_1")).toBeNull();
      expect(await agents.claimContinuation(other, "resp_4", "resp_x")).toBe(false);
      expect(await agents.listRunsByStatus(other, "agt_2", ["requires_approval"])).toEqual([]);
    });

    it("keeps organizations apart", async () => {
      const agents = under.family();
      const org = await under.backend().organization();
      const other = await under.backend().organization();
      const mine = await agents.create(org, { name: "same", description: null, definition: {} });
      expect(await agents.create(other, { name: "same", description: null, definition: {} })).not.toBeNull();
      expect(await agents.get(other, mine?.agent.id ?? "")).toBeNull();
      expect(await agents.update(other, mine?.agent.id ?? "", { published: true })).toBeNull();
      expect(await agents.delete(other, mine?.agent.id ?? "")).toBe(false);
      expect((await agents.list(other, { page: 0, size: 10 })).total).toBe(1);
    });

    it("numbers versions 1…n and lists agents as a model, for random commits (property)", async () => {
      const agents = under.family();
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ at: fc.integer({ min: 0, max: 2 }), versions: fc.integer({ min: 0, max: 3 }) }),
            {
              maxLength: 6,
            },
          ),
          fc.integer({ min: 1, max: 4 }),
          async (plan, size) => {
            const org = await under.backend().organization();
            const made: Array<{ id: string; createdAt: number }> = [];
            for (const [index, step] of plan.entries()) {
              under.clock.set(1_700_000_000_000 + step.at);
              const created = await agents.create(org, {
                name: `a${index}`,
                description: null,
                definition: {},
              });
              const id = created?.agent.id ?? "";
              for (let v = 0; v < step.versions; v++) await agents.commitVersion(id, { v });
              const versions = await agents.listVersions(id, { page: 0, size: 100 });
              expect(versions.items.map((v) => v.versionNumber)).toEqual(
                Array.from({ length: step.versions + 1 }, (_, i) => step.versions + 1 - i),
              );
              made.push({ id, createdAt: 1_700_000_000_000 + step.at });
            }
            const expected = [...made]
              .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
              .map((a) => a.id);
            const listed: string[] = [];
            for (let page = 0; page * size < made.length; page++) {
              listed.push(...(await agents.list(org, { page, size })).items.map((a) => a.id));
            }
            expect(listed).toEqual(expected);
          },
        ),
        { numRuns: 12 },
      );
    });
  });
}
