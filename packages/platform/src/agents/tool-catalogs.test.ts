/** The tool catalogs as a library: deferral behind platform_tool_search, connector catalogs through providers. */
import type { ResolvedTool } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import { SkillRunTools } from "../skills/skill-run-tools.js";
import type { PlatformStore } from "../store-port.js";
import { ToolCatalogService } from "./tool-catalogs.js";

let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;

beforeEach(async () => {
  store = await openTestStore();
  groundwork = createGroundwork({ store });
  principal = await groundwork.principal("acme", "member");
});
afterEach(async () => await store.close());

const fn = (name: string) => ({ type: "function", name, endpoint: "https://example.com/x" });

function connectorTool(name: string, destructive = false): ResolvedTool {
  return {
    name,
    definition: { type: "mcp", name } as unknown as ResolvedTool["definition"],
    gate: {
      name,
      runs: "server",
      runnable: true,
      annotations: { readOnlyHint: !destructive, destructiveHint: destructive },
    },
    chat: { type: "function", function: { name, description: `${name} tool`, parameters: {} } },
    catalog: "connector:crm",
  };
}

describe("ToolCatalogService", () => {
  it("defers the offerable tools past the first 20 in catalog order when the runner answers tool_search", async () => {
    const applied = await groundwork.agentManagement.apply(principal, {
      name: "many",
      model: "gpt-4o-mini",
      tools: Array.from({ length: 19 }, (_, i) => fn(`fn_${i}`)),
      hitlPolicy: { tools: { fn_0: "deny", crm__wipe: "deny" } },
    });
    const service = new ToolCatalogService(store, {
      skillTools: new SkillRunTools(groundwork.skills),
      providers: [
        () => [
          {
            catalog: "connector:crm",
            reason: null,
            tools: [connectorTool("crm__a"), connectorTool("crm__wipe", true), connectorTool("crm__b")],
          },
          { catalog: "connector:mail", reason: "not_connected", tools: [] },
        ],
      ],
    });
    const result = await service.catalogs(principal, applied.agent.id);
    expect(result.catalogs.map((c) => [c.catalog, c.reason])).toEqual([
      ["definition", null],
      ["platform", null],
      ["connector:crm", null],
      ["connector:mail", "not_connected"],
    ]);
    // 18 offerable definition tools + crm__a, crm__b = 20: not more than the threshold.
    let platform = result.catalogs[1]?.tools ?? [];
    expect(platform.find((t) => t.name === "platform_tool_search")).toMatchObject({
      offered: false,
      reason: "condition_not_met",
    });
    expect(result.catalogs.flatMap((c) => c.tools).some((t) => t.deferred)).toBe(false);
    const crm = result.catalogs[2]?.tools ?? [];
    expect(crm.find((t) => t.name === "crm__wipe")).toMatchObject({
      type: "mcp",
      class: "destructive",
      destructiveHint: true,
      offered: false,
      reason: "denied",
    });

    const more = await groundwork.agentManagement.apply(principal, {
      name: "many",
      model: "gpt-4o-mini",
      tools: Array.from({ length: 21 }, (_, i) => fn(`fn_${i}`)),
      hitlPolicy: { tools: { fn_0: "deny" } },
    });
    const second = await service.catalogs(principal, more.agent.id);
    platform = second.catalogs[1]?.tools ?? [];
    expect(platform.find((t) => t.name === "platform_tool_search")).toMatchObject({
      offered: true,
      reason: null,
    });
    const definition = second.catalogs[0]?.tools ?? [];
    // fn_0 denied; fn_1..fn_20 are the first 20 offerable; the connector tools come after them.
    expect(definition.filter((t) => t.deferred)).toEqual([]);
    expect(second.catalogs[2]?.tools.map((t) => [t.name, t.offered, t.deferred])).toEqual([
      ["crm__a", true, true],
      ["crm__wipe", true, true],
      ["crm__b", true, true],
    ]);
  });
});
