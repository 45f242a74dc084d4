/**
 * The connectors family's contract (store-sqlite's `ConnectorStore`): connectors with their
 * unique label, listing and pages, updates that drop connections or tool lists, members'
 * sealed tokens, allowances, tool lists, input requests, organization isolation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConnectorStore, NewConnector, NewInputRequest } from "../../../store-sqlite/src/connectors.js";
import { type Awaitable, type Backend, familyUnderTest, type TestClock } from "./family-fixture.js";

export type ConnectorsFamily = Awaitable<ConnectorStore>;

const connector = (serverLabel: string, extra: Partial<NewConnector> = {}): NewConnector => ({
  serverLabel,
  url: `https://${serverLabel}.example.com/mcp`,
  host: `${serverLabel}.example.com`,
  authKind: "bearer",
  description: null,
  agentIds: null,
  enabled: true,
  pluginId: null,
  ...extra,
});

const inputRequest = (organizationId: string, extra: Partial<NewInputRequest> = {}): NewInputRequest => ({
  organizationId,
  memberId: "key_1",
  responseId: "resp_1",
  connectorId: null,
  serverLabel: "crm",
  tool: "lookup",
  callId: "call_1",
  mode: "form",
  message: "Which account?",
  requestedSchema: { type: "object", properties: { account: { type: "string" } } },
  url: null,
  expiresAt: 1_800_000_000_000,
  ...extra,
});

const newestFirst = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function describeConnectorsContract(
  label: string,
  open: (
    clock: TestClock,
  ) => Promise<{ family: ConnectorsFamily; backend: Backend; close(): Promise<void> | void }>,
): void {
  describe(`connectors contract on ${label}`, () => {
    const under = familyUnderTest(open);

    it("creates, reads, lists, updates and deletes connectors", async () => {
      const connectors = under.family();
      const org = await under.backend().organization();
      const start = under.clock.now();
      const crm = await connectors.create(
        org,
        connector("crm", { agentIds: ["agt_b", "agt_a"], description: "d" }),
      );
      expect(crm).toEqual({
        id: crm.id,
        organizationId: org,
        serverLabel: "crm",
        url: "https://crm.example.com/mcp",
        host: "crm.example.com",
        authKind: "bearer",
        description: "d",
        agentIds: ["agt_b", "agt_a"],
        enabled: true,
        pluginId: null,
        createdAt: start,
        updatedAt: start,
      });
      expect(crm.id).toMatch(/^cnr_/);
      expect(await connectors.get(org, crm.id)).toEqual(crm);
      expect(await connectors.getByLabel(org, "crm")).toEqual(crm);
      expect(await connectors.getByLabel(org, "CRM")).toBeNull();
      await expect(Promise.resolve().then(() => connectors.create(org, connector("crm")))).rejects.toThrow(
        /unique/i,
      );
      under.clock.advance(10);
      const wiki = await connectors.create(
        org,
        connector("wiki", { enabled: false, pluginId: "plg_1", authKind: "none" }),
      );
      expect(wiki).toMatchObject({ enabled: false, pluginId: "plg_1", agentIds: null });
      expect(await connectors.list(org, 0, 10)).toEqual({ items: [wiki, crm], total: 2 });
      expect(await connectors.list(org, 1, 10)).toEqual({ items: [crm], total: 2 });
      expect(await connectors.all(org)).toEqual([crm, wiki]);
      under.clock.advance(10);
      const updated = await connectors.update(org, crm.id, {
        description: null,
        enabled: false,
        agentIds: null,
      });
      expect(updated).toEqual({
        ...crm,
        description: null,
        enabled: false,
        agentIds: null,
        updatedAt: start + 20,
      });
      expect(await connectors.update(org, "cnr_missing", { enabled: true })).toBeNull();
      expect(await connectors.delete(org, crm.id)).toBe(true);
      expect(await connectors.delete(org, crm.id)).toBe(false);
      expect(await connectors.get(org, crm.id)).toBeNull();
    });

    it("keeps members' tokens sealed, drops connections on an auth change and tool lists on a URL change", async () => {
      const connectors = under.family();
      const org = await under.backend().organization();
      const crm = await connectors.create(org, connector("crm"));
      expect(await connectors.connection(crm.id, "key_a")).toBeNull();
      expect(await connectors.tokenOf(crm.id, "key_a")).toBeNull();
      await connectors.connect(crm.id, "key_a", "secret-token-a");
      await connectors.connect(crm.id, "key_b", "secret-token-b");
      expect(await connectors.connection(crm.id, "key_a")).toEqual({
        status: "connected",
        connectedAt: under.clock.now(),
      });
      expect(await connectors.tokenOf(crm.id, "key_a")).toBe("secret-token-a");
      await connectors.markExpired(crm.id, "key_a");
      expect((await connectors.connection(crm.id, "key_a"))?.status).toBe("expired");
      under.clock.advance(3);
      await connectors.connect(crm.id, "key_a", "renewed");
      expect(await connectors.connection(crm.id, "key_a")).toEqual({
        status: "connected",
        connectedAt: under.clock.now(),
      });
      expect(await connectors.tokenOf(crm.id, "key_a")).toBe("renewed");
      expect(await connectors.disconnect(crm.id, "key_b")).toBe(true);
      expect(await connectors.disconnect(crm.id, "key_b")).toBe(false);

      const tools = [
        {
          name: "lookup",
          description: null,
          inputSchema: { type: "object" },
          readOnlyHint: true,
          destructiveHint: false,
        },
      ];
      await connectors.saveToolList(crm.id, "key_a", tools);
      expect(await connectors.toolList(crm.id, "key_a")).toEqual({ tools, listedAt: under.clock.now() });
      expect(await connectors.toolList(crm.id, "key_b")).toBeNull();

      // Same auth kind and URL: connections and tool lists stay.
      await connectors.update(org, crm.id, { description: "same auth" });
      expect(await connectors.tokenOf(crm.id, "key_a")).toBe("renewed");
      expect(await connectors.toolList(crm.id, "key_a")).not.toBeNull();
      await connectors.update(org, crm.id, { url: "https://crm.example.com/v2" });
      expect(await connectors.toolList(crm.id, "key_a")).toBeNull();
      expect(await connectors.tokenOf(crm.id, "key_a")).toBe("renewed");
      await connectors.update(org, crm.id, { authKind: "oauth" });
      expect(await connectors.connection(crm.id, "key_a")).toBeNull();

      await connectors.connect(crm.id, "key_a", "a");
      await connectors.connect(crm.id, "key_b", "b");
      expect(await connectors.disconnectAll(crm.id)).toBe(2);
      expect(await connectors.disconnectAll(crm.id)).toBe(0);
    });

    it("keeps allowances per agent, oldest first, and drops everything with the connector", async () => {
      const connectors = under.family();
      const org = await under.backend().organization();
      const crm = await connectors.create(org, connector("crm"));
      await connectors.allow(crm.id, "key_a", "agt_z", ["https://a"]);
      under.clock.advance(1);
      await connectors.allow(crm.id, "key_a", "agt_b", []);
      await connectors.allow(crm.id, "key_a", "agt_a", ["x", "y"]);
      const t = under.clock.now();
      expect(await connectors.allowances(crm.id, "key_a")).toEqual([
        { agentId: "agt_z", destinations: ["https://a"], allowedAt: t - 1 },
        { agentId: "agt_a", destinations: ["x", "y"], allowedAt: t },
        { agentId: "agt_b", destinations: [], allowedAt: t },
      ]);
      under.clock.advance(1);
      await connectors.allow(crm.id, "key_a", "agt_z", ["https://b"]);
      expect((await connectors.allowances(crm.id, "key_a")).at(-1)).toEqual({
        agentId: "agt_z",
        destinations: ["https://b"],
        allowedAt: t + 1,
      });
      expect(await connectors.allowances(crm.id, "key_b")).toEqual([]);
      expect(await connectors.disallow(crm.id, "key_a", "agt_a")).toBe(true);
      expect(await connectors.disallow(crm.id, "key_a", "agt_a")).toBe(false);
      await connectors.connect(crm.id, "key_a", "token");
      await connectors.saveToolList(crm.id, "key_a", []);
      await connectors.delete(org, crm.id);
      expect(await connectors.allowances(crm.id, "key_a")).toEqual([]);
      expect(await connectors.connection(crm.id, "key_a")).toBeNull();
      expect(await connectors.toolList(crm.id, "key_a")).toBeNull();
    });

    it("opens, answers and lists input requests", async () => {
      const connectors = under.family();
      const org = await under.backend().organization();
      const start = under.clock.now();
      const first = await connectors.createInput(inputRequest(org));
      expect(first).toEqual({
        ...inputRequest(org),
        id: first.id,
        status: "open",
        action: null,
        content: null,
        createdAt: start,
        answeredAt: null,
      });
      expect(first.id).toMatch(/^inp_/);
      under.clock.advance(1);
      const second = await connectors.createInput(
        inputRequest(org, { mode: "url", url: "https://x", requestedSchema: null }),
      );
      const mine = async () => {
        const ids = new Set([first.id, second.id]);
        return (await connectors.openInputs()).filter((i) => ids.has(i.id)).map((i) => i.id);
      };
      expect(await mine()).toEqual([first.id, second.id]);
      under.clock.advance(1);
      expect(
        await connectors.closeInput(first.id, "answered", { action: "accept", content: { account: "acme" } }),
      ).toBe(true);
      expect(await connectors.closeInput(first.id, "expired", { action: "cancel", content: null })).toBe(
        false,
      );
      expect(await connectors.getInput(org, first.id)).toMatchObject({
        status: "answered",
        action: "accept",
        content: { account: "acme" },
        answeredAt: start + 2,
      });
      expect(await mine()).toEqual([second.id]);
      expect(await connectors.getInput(await under.backend().organization(), second.id)).toBeNull();
    });

    it("keeps organizations apart", async () => {
      const connectors = under.family();
      const org = await under.backend().organization();
      const other = await under.backend().organization();
      const crm = await connectors.create(org, connector("crm"));
      await connectors.create(other, connector("crm"));
      expect(await connectors.get(other, crm.id)).toBeNull();
      expect((await connectors.getByLabel(other, "crm"))?.id).not.toBe(crm.id);
      expect(await connectors.update(other, crm.id, { enabled: false })).toBeNull();
      expect(await connectors.delete(other, crm.id)).toBe(false);
      expect((await connectors.list(other, 0, 10)).total).toBe(1);
      expect((await connectors.get(org, crm.id))?.enabled).toBe(true);
    });

    it("finds nothing by an id with a NUL character (a request path's %00)", async () => {
      const connectors = under.family();
      const org = await under.backend().organization();
      const crm = await connectors.create(org, connector("crm"));
      const odd = `${crm.id}\0`;
      expect(await connectors.get(org, odd)).toBeNull();
      expect(await connectors.update(org, odd, { enabled: false })).toBeNull();
      expect(await connectors.delete(org, odd)).toBe(false);
      expect(await connectors.getInput(org, "inp_\0")).toBeNull();
      expect((await connectors.get(org, crm.id))?.enabled).toBe(true);
    });

    it("lists in the same order and pages as a model, for random creations (property)", async () => {
      const connectors = under.family();
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 10 }),
          fc.integer({ min: 1, max: 4 }),
          async (times, size) => {
            const org = await under.backend().organization();
            const made: Array<{ id: string; createdAt: number }> = [];
            for (const [index, time] of times.entries()) {
              under.clock.set(1_700_000_000_000 + time);
              made.push(await connectors.create(org, connector(`c${index}`)));
            }
            const expected = [...made].sort(newestFirst).map((c) => c.id);
            const listed: string[] = [];
            for (let offset = 0; offset < made.length; offset += size) {
              const page = await connectors.list(org, offset, size);
              expect(page.total).toBe(made.length);
              listed.push(...page.items.map((c) => c.id));
            }
            expect(listed).toEqual(expected);
            expect((await connectors.all(org)).map((c) => c.id)).toEqual([...expected].reverse());
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
