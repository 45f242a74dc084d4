/**
 * `GET /v1/agents/{agentId}/tool-catalogs` (PLATFORM.md §4.5): every tool a run of a version
 * could see, grouped in catalogs in order — `definition` (the version's tools, a configured
 * `platform.skill` / `platform.bash` included), `platform` (the implicit platform tools of §6
 * no definition entry configures), then `connector:<serverLabel>` per attached connector
 * (from catalog providers). Each tool says whether it is offered and, when not, why; with
 * more offerable tools than `platform_tool_search`'s threshold, the tools past it are
 * `deferred`. The catalogs are built from the same tool list the runner offers, resolving
 * the skill bindings now, as a new response would.
 */
import {
  type AgentDefinition,
  evaluatePolicy,
  type ResolvedTool,
  runTools,
  SKILL_READ_TOOL_NAME,
  SKILL_TOOL_NAME,
  SKILLS_APPLY_TOOL_NAME,
  TOOL_SEARCH_NAME,
  TOOL_SEARCH_THRESHOLD,
  type ToolClass,
  toolSearchTool,
} from "@groundwork/agents";
import { type MaybePromise, notFound, type Principal } from "@groundwork/core";
import type { AgentRecord, AgentVersionRecord } from "@groundwork/store-sqlite";
import { LATEST_LABEL } from "@groundwork/store-sqlite";
import type { SkillRunTools } from "../skills/skill-run-tools.js";
import type { PlatformStore } from "../store-port.js";
import { definitionOf, resolveVersion } from "./resolve.js";

const TOOL_SEARCH_TOOL_NAME = TOOL_SEARCH_NAME;

/** Why a tool is not offered. */
export type CatalogToolReason = "denied" | "not_runnable" | "condition_not_met";

export interface CatalogTool {
  name: string;
  /** The definition's tool type (`function`, `file_search`, `platform.bash`, …); `client` for a named client tool; `mcp` for a connector tool. */
  type: string;
  description: string | null;
  class: ToolClass | null;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  offered: boolean;
  deferred: boolean;
  reason: CatalogToolReason | null;
}

export interface ToolCatalog {
  /** `definition`, `platform` or `connector:<serverLabel>`. */
  catalog: string;
  tools: CatalogTool[];
  /** Why a catalog is empty (`not_connected` for a connector without a usable connection); null otherwise. */
  reason: string | null;
}

export interface AgentToolCatalogs {
  agentId: string;
  agentVersionId: string;
  catalogs: ToolCatalog[];
}

/** Tools of further catalogs (connectors), as the runner would offer them to this caller. */
export interface ProvidedCatalog {
  catalog: string;
  tools: ResolvedTool[];
  reason: string | null;
}

export type ToolCatalogProvider = (
  principal: Principal,
  agent: AgentRecord,
  version: AgentVersionRecord,
) => ProvidedCatalog[] | Promise<ProvidedCatalog[]>;

export interface ToolCatalogOptions {
  skillTools: SkillRunTools;
  /** The implicit platform tools this build runs (beyond the skill tools). */
  implicitTools?: () => ResolvedTool[];
  /** Connector catalogs, in order. */
  providers?: ToolCatalogProvider[];
}

/** The implicit platform tools of §6, in catalog order, with their class and a short description. */
const IMPLICIT: ReadonlyArray<{ name: string; type: string; cls: ToolClass; description: string }> = [
  {
    name: SKILL_TOOL_NAME,
    type: "platform.skill",
    cls: "read",
    description: "Open one of the agent's skills",
  },
  {
    name: SKILL_READ_TOOL_NAME,
    type: "platform.skill_read",
    cls: "read",
    description: "Read one file of one of the agent's skills",
  },
  {
    name: SKILLS_APPLY_TOOL_NAME,
    type: "platform.skills_apply",
    cls: "write",
    description: "Propose changes to one of the agent's skills (a human approves each)",
  },
  {
    name: TOOL_SEARCH_TOOL_NAME,
    type: "platform.tool_search",
    cls: "read",
    description: "Find more tools by name and description",
  },
  {
    name: "platform_deliver",
    type: "platform.deliver",
    cls: "read",
    description: "Deliver texts and files to the user as part of the response",
  },
  {
    name: "platform_view_image",
    type: "platform.view_image",
    cls: "read",
    description: "Look at an image (a File, a URL or a bash path)",
  },
  { name: "web_search", type: "web_search", cls: "read", description: "Search the web" },
];

/** The skill tools' own condition (§6); the others are simply not run by this build when absent. */
const SKILL_TOOL_NAMES = new Set([SKILL_TOOL_NAME, SKILL_READ_TOOL_NAME, SKILLS_APPLY_TOOL_NAME]);

interface Row {
  catalog: number;
  tool: CatalogTool;
  /** Offerable and subject to the threshold (not `platform_tool_search` itself). */
  countable: boolean;
}

export class ToolCatalogService {
  constructor(
    private readonly store: PlatformStore,
    private readonly options: ToolCatalogOptions,
  ) {}

  async catalogs(
    principal: Principal,
    agentId: string,
    versionSelector?: string,
  ): Promise<AgentToolCatalogs> {
    const agent = await this.store.agents.get(principal.organizationId, agentId);
    if (agent === null) throw notFound(`No agent ${agentId}`, { param: "agentId" });
    let version: AgentVersionRecord | null;
    if (versionSelector === undefined || versionSelector === LATEST_LABEL) {
      version = await this.store.agents.latestVersion(agent.id);
      if (version === null) throw notFound(`Agent ${agent.id} has no active version`, { param: "version" });
    } else {
      version = await resolveVersion(this.store, agent, versionSelector, {
        param: "version",
        requireActive: false,
      });
    }
    const definition = definitionOf(version);
    const skills = await this.options.skillTools.resolveForRun(principal.organizationId, definition);
    const tools = [...runTools(definition, skills), ...(this.options.implicitTools?.() ?? [])];

    const catalogs: ToolCatalog[] = [
      { catalog: "definition", tools: [], reason: null },
      { catalog: "platform", tools: [], reason: null },
    ];
    const rows: Row[] = [];
    const add = (catalog: number, tool: CatalogTool, countable: boolean) => {
      rows.push({ catalog, tool, countable });
      catalogs[catalog]?.tools.push(tool);
    };

    for (const tool of tools.filter((t) => (t.catalog ?? "definition") === "definition")) {
      const row = this.describe(tool, definition);
      add(0, row, row.offered);
    }
    const configuresSkill = (definition.tools ?? []).some((t) => "type" in t && t.type === "platform.skill");
    for (const implicit of IMPLICIT) {
      if (implicit.name === SKILL_TOOL_NAME && configuresSkill) continue;
      const tool =
        tools.find((t) => t.name === implicit.name && t.catalog === "platform") ??
        (implicit.name === TOOL_SEARCH_TOOL_NAME ? toolSearchTool() : undefined);
      if (tool !== undefined) {
        const row = this.describe(tool, definition);
        add(1, row, row.offered && implicit.name !== TOOL_SEARCH_TOOL_NAME);
        continue;
      }
      add(
        1,
        {
          name: implicit.name,
          type: implicit.type,
          description: implicit.description,
          class: implicit.cls,
          readOnlyHint: implicit.cls === "read",
          destructiveHint: false,
          offered: false,
          deferred: false,
          reason: SKILL_TOOL_NAMES.has(implicit.name) ? "condition_not_met" : "not_runnable",
        },
        false,
      );
    }
    for (const provider of this.options.providers ?? []) {
      for (const provided of await provider(principal, agent, version)) {
        const index = catalogs.push({ catalog: provided.catalog, tools: [], reason: provided.reason }) - 1;
        for (const tool of provided.tools) {
          const row = this.describe(tool, definition);
          add(index, row, row.offered);
        }
      }
    }

    // platform_tool_search (§6): with more offerable tools than the threshold, the first ones in
    // catalog order are offered directly and the rest only through the search.
    const offerable = rows.filter((r) => r.countable);
    const search = rows.find((r) => r.catalog === 1 && r.tool.name === TOOL_SEARCH_TOOL_NAME)?.tool;
    if (search !== undefined) {
      if (offerable.length <= TOOL_SEARCH_THRESHOLD) {
        search.offered = false;
        search.reason = search.reason ?? "condition_not_met";
      } else if (search.offered) {
        for (const row of offerable.slice(TOOL_SEARCH_THRESHOLD)) row.tool.deferred = true;
      }
    }
    return { agentId: agent.id, agentVersionId: version.id, catalogs };
  }

  private describe(tool: ResolvedTool, definition: AgentDefinition): CatalogTool {
    const decision = evaluatePolicy({
      toolName: tool.name,
      tool: tool.gate,
      policy: definition.hitlPolicy,
    });
    let reason: CatalogToolReason | null = null;
    if (decision.source === "not_runnable" || tool.chat === null) {
      // A configured `platform.skill` without a resolved skill, or an implicit tool this build
      // runs but does not offer now (`web_search` without a provider), is a condition.
      reason =
        tool.definition.type === "platform.skill" || tool.catalog === "platform"
          ? "condition_not_met"
          : "not_runnable";
    } else if (decision.hiddenFromModel) reason = "denied";
    const annotations = tool.gate.annotations;
    const described =
      tool.chat?.function.description ?? (tool.definition as { description?: string }).description;
    return {
      name: tool.name,
      type: tool.definition.type ?? "client",
      description: described ?? null,
      class: decision.class,
      readOnlyHint: annotations?.readOnlyHint ?? decision.class === "read",
      destructiveHint: annotations?.destructiveHint ?? decision.class === "destructive",
      offered: reason === null,
      deferred: false,
      reason,
    };
  }
}

/** The connector catalogs (§4.5): each attached connector's tools from the caller's last `tools/list`. */
export function connectorCatalogProvider(connectors: {
  catalogs(
    principal: Principal,
    agentId: string,
  ): MaybePromise<
    Array<{
      serverLabel: string;
      status: "ok" | "not_connected";
      tools: Array<{
        prefixedName: string;
        description: string | null;
        inputSchema: Record<string, unknown>;
        readOnlyHint: boolean;
        destructiveHint: boolean;
      }>;
    }>
  >;
}): ToolCatalogProvider {
  return async (principal, agent) =>
    (await connectors.catalogs(principal, agent.id)).map((catalog) => ({
      catalog: `connector:${catalog.serverLabel}`,
      reason: catalog.status === "ok" ? null : catalog.status,
      tools: catalog.tools.map((tool): ResolvedTool => {
        const annotations = { readOnlyHint: tool.readOnlyHint, destructiveHint: tool.destructiveHint };
        const name = tool.prefixedName;
        return {
          name,
          definition: {
            type: "connector",
            name,
            ...(tool.description === null ? {} : { description: tool.description }),
          },
          gate: { name, runs: "server", runnable: true, annotations },
          chat: {
            type: "function",
            function: {
              name,
              ...(tool.description === null ? {} : { description: tool.description }),
              parameters: tool.inputSchema,
            },
          },
          catalog: `connector:${catalog.serverLabel}`,
        };
      }),
    }));
}
