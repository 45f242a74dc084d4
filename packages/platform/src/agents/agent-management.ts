/**
 * Agent management: applying definition files (create the agent or a new version, found
 * by exact name), versions, labels, the published catalog, policy explanations and
 * pending approvals. The HTTP routes and library users call the same methods; roles are
 * the caller's business (the server checks them before calling).
 */
import { isDeepStrictEqual } from "node:util";
import {
  type AgentDefinition,
  type ConversationMode,
  evaluatePolicy,
  type GateDecision,
  type HitlPolicy,
  type JudgeVerdict,
  MODES,
  PAUSE_TIMEOUT_MS,
  PAUSED_STATUSES,
  type PendingApproval,
  parseDefinition,
  type RunState,
} from "@groundwork/agents";
import {
  type Clock,
  conflict,
  invalidRequest,
  notFound,
  type PageRequest,
  type Principal,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import type { AgentLabelRecord, AgentRecord, AgentVersionRecord } from "@groundwork/store-sqlite";
import type { PlatformStore } from "../store-port.js";
import { definitionOf, resolveVersion, toolsOf } from "./resolve.js";

/** Definition fields a change may carry; any of them makes a new version. */
export const AGENT_DEFINITION_FIELDS = [
  "model",
  "models",
  "instructions",
  "tools",
  "hitlPolicy",
  "options",
  "skills",
] as const;

/** Label names start with a letter; `latest` is implied and never stored. */
export const AGENT_LABEL_PATTERN = /^[A-Za-z][A-Za-z0-9._-]*$/;
export const AGENT_LABEL_MAX_LENGTH = 100;
const IMPLIED_LABEL = "latest";

/** Record fields and definition fields of an update; definition fields are merged into the latest definition. */
export type AgentChanges = {
  published?: boolean | undefined;
  description?: string | null | undefined;
} & { [Field in (typeof AGENT_DEFINITION_FIELDS)[number]]?: unknown };

export interface AgentWithLatest {
  agent: AgentRecord;
  /** The newest active version; null when every version is deactivated. */
  latest: AgentVersionRecord | null;
}

export interface AppliedAgent {
  /** `created`: a new agent; `versioned`: a new version of the agent of that name; `unchanged`: the file equals the latest version. */
  result: "created" | "versioned" | "unchanged";
  agent: AgentRecord;
  version: AgentVersionRecord;
}

export interface LabelWithVersion {
  label: AgentLabelRecord;
  /** The version the label points at (null only if it vanished). */
  version: AgentVersionRecord | null;
}

export interface ToolPolicyExplanation {
  tool: string;
  type: string | null;
  runs: "server" | "client" | null;
  verdict: GateDecision["verdict"];
  action: GateDecision["action"];
  class: GateDecision["class"];
  classSource: GateDecision["classSource"];
  source: GateDecision["source"];
  matched: GateDecision["matched"];
  hiddenFromModel: GateDecision["hiddenFromModel"];
  reason: GateDecision["reason"];
  /** `conversation_mode.<mode>` when the mode changed the verdict `ask` would give. */
  modeChangedVerdict: string | null;
}

export interface PolicyExplanation {
  agentId: string;
  agentVersionId: string;
  mode: ConversationMode;
  policy: HitlPolicy | null;
  tools: ToolPolicyExplanation[];
}

export interface PolicyQuery {
  /** Only this tool (a name the version lacks is explained as FAIL). */
  tool?: string | undefined;
  /** The conversation mode to evaluate in (one of `MODES`); `ask` by default. */
  mode?: ConversationMode | string | undefined;
  /** The plugin installation whose view of the agent to explain. */
  installationId?: string | undefined;
}

export interface PendingApprovalListing extends Omit<PendingApproval, "judge"> {
  /** The judge's `needs_human` verdict that sent the call to a human; null when no judge ran. */
  judge: JudgeVerdict | null;
  responseId: string;
  conversationId: string;
  /** The agent reference exactly as the run used it. */
  agent: string;
  /** Epoch milliseconds. */
  pausedAt: number | null;
  /** The pause window is over; the next continuation records a timeout. */
  expired: boolean;
}

export interface AgentManagementOptions {
  clock?: Clock;
  /** How long a pause waits for answers; the spec's hour by default. */
  pauseTimeoutMs?: number;
}

/** Stored definitions keep only what the file said, minus `$schema`. */
function storable(definition: AgentDefinition): Record<string, unknown> {
  const { $schema: _schema, ...rest } = definition;
  return rest as Record<string, unknown>;
}

function isLabelName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length >= 1 && trimmed.length <= AGENT_LABEL_MAX_LENGTH && AGENT_LABEL_PATTERN.test(trimmed);
}

export class AgentManagement {
  private readonly clock: Clock;

  constructor(
    readonly store: PlatformStore,
    private readonly options: AgentManagementOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Applies a definition file: creates the agent, or commits a new version of the agent
   * of that exact name when the file differs from its latest version.
   */
  async apply(principal: Principal, file: unknown): Promise<AppliedAgent> {
    const definition = parseDefinition(file);
    const store = this.store.agents;
    const org = principal.organizationId;
    const existing = await store.getByName(org, definition.name);
    if (existing === null) {
      const created = await store.create(org, {
        name: definition.name,
        description: definition.description ?? null,
        definition: storable(definition),
      });
      if (created === null)
        throw conflict(`An agent named "${definition.name}" was created meanwhile; apply again`);
      return { result: "created", agent: created.agent, version: created.version };
    }
    const head = await store.latestVersion(existing.id);
    if (head !== null && isDeepStrictEqual(head.definition, storable(definition))) {
      return { result: "unchanged", agent: existing, version: head };
    }
    const version = await this.commit(existing.id, definition);
    return { result: "versioned", agent: (await store.get(org, existing.id)) as AgentRecord, version };
  }

  /** Creates an agent from a definition file; a taken name is a conflict. */
  async create(
    principal: Principal,
    file: unknown,
  ): Promise<{ agent: AgentRecord; version: AgentVersionRecord }> {
    const definition = parseDefinition(file);
    const created = await this.store.agents.create(principal.organizationId, {
      name: definition.name,
      description: definition.description ?? null,
      definition: storable(definition),
    });
    if (created === null) {
      throw conflict(`An agent named "${definition.name}" exists; apply the definition to add a version`, {
        param: "name",
      });
    }
    return created;
  }

  /** The organization's agents, newest first. */
  async list(principal: Principal, page: PageRequest): Promise<{ items: AgentWithLatest[]; total: number }> {
    const result = await this.store.agents.list(principal.organizationId, page);
    return {
      items: await Promise.all(result.items.map(async (agent) => await this.withLatest(agent))),
      total: result.total,
    };
  }

  /** Published agents only (what a chat front end may offer). */
  async catalog(principal: Principal, page: PageRequest): Promise<{ items: AgentRecord[]; total: number }> {
    return await this.store.agents.list(principal.organizationId, page, { publishedOnly: true });
  }

  async get(principal: Principal, agentId: string): Promise<AgentWithLatest> {
    return await this.withLatest(await this.find(principal, agentId));
  }

  /**
   * Changes `published` and/or the definition: definition fields and `description` are
   * merged into the latest definition and committed as a new version when that differs.
   */
  async update(principal: Principal, agentId: string, changes: AgentChanges): Promise<AgentWithLatest> {
    const agent = await this.find(principal, agentId);
    const store = this.store.agents;
    const changesDefinition = AGENT_DEFINITION_FIELDS.some((field) => changes[field] !== undefined);
    let version = await store.latestVersion(agent.id);
    if (changesDefinition || changes.description !== undefined) {
      if (version === null) throw conflict(`Agent ${agent.id} has no active version to update`);
      const merged: Record<string, unknown> = { ...version.definition };
      for (const field of AGENT_DEFINITION_FIELDS) {
        if (changes[field] !== undefined) merged[field] = changes[field];
      }
      // A new `models` list without `model` drops the old shorthand (it must equal models[0]).
      if (changes.models !== undefined && changes.model === undefined) delete merged.model;
      if (changes.model !== undefined && changes.models === undefined) delete merged.models;
      if (changes.description !== undefined) {
        if (changes.description === null) delete merged.description;
        else merged.description = changes.description;
      }
      const definition = parseDefinition(merged);
      if (!isDeepStrictEqual(version.definition, storable(definition))) {
        version = await this.commit(agent.id, definition);
      }
    }
    const updated = (await store.update(principal.organizationId, agent.id, {
      ...(changes.published === undefined ? {} : { published: changes.published }),
    })) as AgentRecord;
    return { agent: updated, latest: version };
  }

  /** Deletes the agent with its versions and labels; stored runs stay. */
  async delete(principal: Principal, agentId: string): Promise<void> {
    const agent = await this.find(principal, agentId);
    await this.store.agents.delete(principal.organizationId, agent.id);
  }

  // ---- versions ----

  async listVersions(
    principal: Principal,
    agentId: string,
    page: PageRequest,
  ): Promise<{ items: AgentVersionRecord[]; total: number }> {
    return await this.store.agents.listVersions((await this.find(principal, agentId)).id, page);
  }

  /** Commits a definition file as the agent's next version; its `name` may be omitted. */
  async createVersion(principal: Principal, agentId: string, file: unknown): Promise<AgentVersionRecord> {
    const agent = await this.find(principal, agentId);
    const named =
      typeof file === "object" && file !== null && !Array.isArray(file) && !("name" in file)
        ? { ...file, name: agent.name }
        : file;
    const definition = parseDefinition(named);
    if (definition.name !== agent.name) {
      throw invalidRequest(
        `name must be the agent's name "${agent.name}" (or omitted); apply a file with another name to create another agent`,
        { param: "name" },
      );
    }
    return await this.commit(agent.id, definition);
  }

  /** The newest active version. */
  async latestVersion(principal: Principal, agentId: string): Promise<AgentVersionRecord> {
    const agent = await this.find(principal, agentId);
    const version = await this.store.agents.latestVersion(agent.id);
    if (version === null) throw notFound(`Agent ${agent.id} has no active version`);
    return version;
  }

  /** A version by id or number (deactivated ones included). */
  async getVersion(principal: Principal, agentId: string, versionId: string): Promise<AgentVersionRecord> {
    return this.findVersion(await this.find(principal, agentId), versionId);
  }

  /** Re-activates a version as a copy at the head. */
  async activateVersion(
    principal: Principal,
    agentId: string,
    versionId: string,
  ): Promise<AgentVersionRecord> {
    const agent = await this.find(principal, agentId);
    const source = await this.findVersion(agent, versionId);
    return await this.store.agents.commitVersion(agent.id, source.definition, {
      copiedFromVersionId: source.id,
      description: (source.definition.description as string | undefined) ?? null,
    });
  }

  /** Deactivates a version: still readable, no longer latest, runnable or labelable. */
  async deactivateVersion(principal: Principal, agentId: string, versionId: string): Promise<void> {
    const agent = await this.find(principal, agentId);
    await this.store.agents.deactivateVersion(agent.id, (await this.findVersion(agent, versionId)).id);
  }

  /** What the approval gate would do with each tool of a version (or one tool) in a mode. */
  async explainPolicy(
    principal: Principal,
    agentId: string,
    versionId: string,
    query: PolicyQuery = {},
  ): Promise<PolicyExplanation> {
    const agent = await this.find(principal, agentId);
    const version = await this.findVersion(agent, versionId);
    if (query.installationId !== undefined) {
      // Only a plugin installation could change which tools and statements apply, and this
      // build installs no plugins: an explanation "as installed" would describe nothing real.
      throw notFound(`No plugin installation ${query.installationId}`, { param: "installationId" });
    }
    if (query.mode !== undefined && !(MODES as readonly string[]).includes(query.mode)) {
      throw invalidRequest(`mode must be one of ${MODES.join(", ")}`, { param: "mode" });
    }
    const mode = (query.mode ?? "ask") as ConversationMode;
    const policy = definitionOf(version).hitlPolicy;
    const tools = toolsOf(version);
    const names = query.tool === undefined ? tools.map((t) => t.name) : [query.tool];
    const explained = names.map((name): ToolPolicyExplanation => {
      const tool = tools.find((t) => t.name === name);
      const decision = evaluatePolicy({ toolName: name, tool: tool?.gate, policy, mode });
      const baseline =
        mode === "ask" ? decision : evaluatePolicy({ toolName: name, tool: tool?.gate, policy, mode: "ask" });
      return {
        tool: name,
        type: tool?.definition.type ?? null,
        runs: tool?.gate.runs ?? null,
        verdict: decision.verdict,
        action: decision.action,
        class: decision.class,
        classSource: decision.classSource,
        source: decision.source,
        matched: decision.matched,
        hiddenFromModel: decision.hiddenFromModel,
        reason: decision.reason,
        modeChangedVerdict: baseline.verdict !== decision.verdict ? `conversation_mode.${mode}` : null,
      };
    });
    return { agentId: agent.id, agentVersionId: version.id, mode, policy: policy ?? null, tools: explained };
  }

  // ---- labels ----

  async listLabels(principal: Principal, agentId: string): Promise<LabelWithVersion[]> {
    const agent = await this.find(principal, agentId);
    const store = this.store.agents;
    return await Promise.all(
      (await store.listLabels(agent.id)).map(async (label) => ({
        label,
        version: await store.versionById(label.agentVersionId),
      })),
    );
  }

  /** Creates a label; an existing name is a conflict (`setLabel` moves it). */
  async createLabel(
    principal: Principal,
    agentId: string,
    name: string,
    agentVersionId: string,
  ): Promise<LabelWithVersion> {
    const agent = await this.find(principal, agentId);
    if (name === IMPLIED_LABEL) {
      throw conflict(`"latest" is implied (the newest active version) and cannot be set`, { param: "name" });
    }
    const version = await this.labelTarget(agent, agentVersionId);
    const store = this.store.agents;
    if (!(await store.createLabel(agent.id, name, version.id))) {
      throw conflict(`Agent ${agent.id} already has a label "${name}"; move it instead of creating it`, {
        param: "name",
      });
    }
    return { label: (await store.getLabel(agent.id, name)) as AgentLabelRecord, version };
  }

  /** Points a label at a version, creating the label when it does not exist yet. */
  async setLabel(
    principal: Principal,
    agentId: string,
    name: string,
    agentVersionId: string,
  ): Promise<LabelWithVersion> {
    const agent = await this.find(principal, agentId);
    const store = this.store.agents;
    const version = await this.labelTarget(agent, agentVersionId);
    if ((await store.getLabel(agent.id, name)) === null) {
      if (!isLabelName(name) || name === IMPLIED_LABEL)
        throw invalidRequest(`"${name}" is not a valid label name`, { param: "name" });
      await store.createLabel(agent.id, name, version.id);
    } else {
      await store.updateLabel(agent.id, name, version.id);
    }
    return { label: (await store.getLabel(agent.id, name)) as AgentLabelRecord, version };
  }

  async deleteLabel(principal: Principal, agentId: string, name: string): Promise<void> {
    const agent = await this.find(principal, agentId);
    if (!(await this.store.agents.deleteLabel(agent.id, name)))
      throw notFound(`Agent ${agent.id} has no label "${name}"`);
  }

  // ---- approvals ----

  /** Pending approvals of the agent's paused responses. */
  async pendingApprovals(
    principal: Principal,
    agentId: string,
    page: PageRequest,
  ): Promise<{ items: PendingApprovalListing[]; total: number }> {
    const agent = await this.find(principal, agentId);
    const now = this.clock.now();
    const window = this.options.pauseTimeoutMs ?? PAUSE_TIMEOUT_MS;
    const runs = await this.store.agents.listRunsByStatus(
      principal.organizationId,
      agent.id,
      PAUSED_STATUSES,
    );
    const all = runs.flatMap((run) => {
      const state = run.state as RunState;
      const expired = state.pausedAt !== null && now - state.pausedAt > window;
      return state.pendingApprovals.map((approval) => ({
        ...approval,
        judge: approval.judge ?? null,
        responseId: state.id,
        conversationId: state.conversationId,
        agent: state.agentRef,
        pausedAt: state.pausedAt,
        expired,
      }));
    });
    const offset = pageOffset(page);
    return { items: all.slice(offset, offset + page.size), total: all.length };
  }

  private async find(principal: Principal, agentId: string): Promise<AgentRecord> {
    const agent = await this.store.agents.get(principal.organizationId, agentId);
    if (agent === null) throw notFound(`No agent ${agentId}`);
    return agent;
  }

  private async withLatest(agent: AgentRecord): Promise<AgentWithLatest> {
    return { agent, latest: await this.store.agents.latestVersion(agent.id) };
  }

  private async findVersion(agent: AgentRecord, versionId: string): Promise<AgentVersionRecord> {
    return await resolveVersion(this.store, agent, versionId, { param: "versionId", requireActive: false });
  }

  /** Labels point at active versions of the agent only. */
  private async labelTarget(agent: AgentRecord, versionId: string): Promise<AgentVersionRecord> {
    const version = await this.store.agents.getVersion(agent.id, versionId);
    if (version === null)
      throw notFound(`Agent ${agent.id} has no version ${versionId}`, { param: "agentVersionId" });
    if (!version.active) throw conflict(`Version ${versionId} is deactivated`, { param: "agentVersionId" });
    return version;
  }

  private async commit(agentId: string, definition: AgentDefinition): Promise<AgentVersionRecord> {
    return await this.store.agents.commitVersion(agentId, storable(definition), {
      description: definition.description ?? null,
    });
  }
}
