/**
 * Connectors (PLATFORM.md §5.3): remote MCP servers an organization registers, each
 * member's connection (a bearer token, sealed at rest) and allowances per agent, the
 * run-time pre-flight and tools (`<serverLabel>__<toolName>`), and the input requests a
 * connector's questions become. Roles are the HTTP guards' business; whose connection it
 * is comes from the principal's key. Plugins create, update and delete their connectors
 * through the `…ForPlugin` methods; hand edits of those answer `409 managed_by_plugin`.
 */
import type {
  PendingConnection,
  ResolvedTool,
  RunState,
  ToolCallInput,
  ToolDefinition,
  ToolResult,
} from "@groundwork/agents";
import {
  type Clock,
  conflict,
  invalidRequest,
  newId,
  notFound,
  notImplemented,
  type PageRequest,
  type Principal,
  systemClock,
} from "@groundwork/core";
import type {
  AllowanceRecord,
  CachedTool,
  ConnectorAuthKind,
  ConnectorChanges,
  ConnectorRecord,
  InputRequestRecord,
} from "@groundwork/store-sqlite";
import { z } from "zod";
import {
  DEFAULT_PRIVATE_NETWORK_SETTING,
  guardedFetch,
  privateAddressOf,
} from "../network/guarded-network.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import {
  CALL_TIMEOUT_MS,
  ConnectorAuthError,
  type ElicitationAnswer,
  HeldCall,
  listTools,
  type McpEndpoint,
} from "./connector-mcp.js";
import { contentProblem } from "./requested-schema.js";

export const SERVER_LABEL_PATTERN = /^[a-z0-9_-]{1,32}$/;
const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const AUTH_KINDS = ["none", "bearer", "oauth"] as const;

export const createConnectorBody = z.object({
  serverLabel: z.string().regex(SERVER_LABEL_PATTERN, "serverLabel must match ^[a-z0-9_-]{1,32}$"),
  url: z.string().min(1).max(2048),
  authKind: z.enum(AUTH_KINDS).optional(),
  description: z.string().max(1024).nullable().optional(),
  agentIds: z.array(z.string().min(1)).max(1000).nullable().optional(),
  enabled: z.boolean().optional(),
});
export type CreateConnectorInput = z.output<typeof createConnectorBody>;

export const updateConnectorBody = z.object({
  url: z.string().min(1).max(2048).optional(),
  authKind: z.enum(AUTH_KINDS).optional(),
  description: z.string().max(1024).nullable().optional(),
  agentIds: z.array(z.string().min(1)).max(1000).nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateConnectorInput = z.output<typeof updateConnectorBody>;

export const connectionBody = z.object({ token: z.string().min(1).max(8192) });
export const allowanceBody = z.object({ destinations: z.array(z.string()).max(100).optional() });
export const inputAnswerBody = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), z.unknown()).optional(),
});
export type InputAnswer = z.output<typeof inputAnswerBody>;

export interface ConnectionView {
  connectorId: string;
  serverLabel: string;
  host: string;
  status: "connected" | "not_connected" | "expired";
  connectedAt: number | null;
  allowances: AllowanceRecord[];
}

export interface ConnectorCatalog {
  connectorId: string;
  serverLabel: string;
  /** `ok` with the last successful `tools/list` for this member, or `not_connected`. */
  status: "ok" | "not_connected";
  tools: Array<CachedTool & { prefixedName: string }>;
}

export interface ConnectorServiceOptions {
  allowPrivateNetwork?: boolean;
  allowPrivateNetworkSetting?: string;
  /** Replaces the guarded transport (tests). */
  fetch?: typeof fetch;
  clock?: Clock;
  pauseTimeoutMs: number;
  callTimeoutMs?: number;
  /** Connecting and `tools/list` together (§5.3: 10 s). */
  listTimeoutMs?: number;
  /**
   * How long an open question stays with the process that asked once that process stops renewing
   * it (it renews every third of it while started; default 30 s, the job lease). After it, any
   * process's sweep answers the question `cancel` (decision PG191).
   */
  questionLeaseMs?: number;
  /** This process's id on the questions it asks; by default one per process (tests give two). */
  processId?: string;
}

/** The id of this process on the questions it holds: a later start in the same process cancels them. */
const PROCESS_ID = newId("prc");
const DEFAULT_QUESTION_LEASE_MS = 30_000;

/** The name a connector tool is offered under, or null when it cannot be one (too long, odd characters). */
export function prefixedToolName(serverLabel: string, toolName: string): string | null {
  const name = `${serverLabel}__${toolName}`;
  return TOOL_NAME_PATTERN.test(name) ? name : null;
}

export class ConnectorService {
  private readonly clock: Clock;
  /** Connector calls in progress in this process, by organization and call id. */
  private readonly held = new Map<string, HeldCall>();
  /** Questions waiting for an answer in this process, by input request id. */
  private readonly waiters = new Map<string, (answer: ElicitationAnswer) => void>();
  private readonly processId: string;
  private readonly leaseMs: number;
  /** Renews this process's questions and sweeps orphaned ones while started. */
  private sweeper: ReturnType<typeof setInterval> | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: PlatformStore,
    private readonly options: ConnectorServiceOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.processId = options.processId ?? PROCESS_ID;
    this.leaseMs = options.questionLeaseMs ?? DEFAULT_QUESTION_LEASE_MS;
  }

  // ---- registration (Admin) ----

  async list(
    organizationId: string,
    page: PageRequest,
  ): Promise<{ items: ConnectorRecord[]; total: number }> {
    return await this.store.connectors.list(organizationId, page.page * page.size, page.size);
  }

  async get(organizationId: string, connectorId: string): Promise<ConnectorRecord> {
    const connector = await this.store.connectors.get(organizationId, connectorId);
    if (connector === null) throw notFound(`No connector ${connectorId}`, { param: "connectorId" });
    return connector;
  }

  async create(organizationId: string, raw: unknown): Promise<ConnectorRecord> {
    return this.createConnector(organizationId, validate(createConnectorBody, raw), null);
  }

  /** A plugin's connector: only the plugin changes or removes it afterwards. */
  async createForPlugin(
    organizationId: string,
    pluginId: string,
    input: CreateConnectorInput,
  ): Promise<ConnectorRecord> {
    return this.createConnector(organizationId, validate(createConnectorBody, input), pluginId);
  }

  async update(organizationId: string, connectorId: string, raw: unknown): Promise<ConnectorRecord> {
    const body = validate(updateConnectorBody, raw);
    const connector = await this.get(organizationId, connectorId);
    if (connector.pluginId !== null) throw managedByPlugin(connector);
    return this.applyUpdate(connector, body);
  }

  async updateForPlugin(
    organizationId: string,
    pluginId: string,
    connectorId: string,
    input: UpdateConnectorInput,
  ): Promise<ConnectorRecord> {
    const connector = await this.get(organizationId, connectorId);
    if (connector.pluginId !== pluginId) throw managedByPlugin(connector);
    return this.applyUpdate(connector, validate(updateConnectorBody, input));
  }

  async delete(organizationId: string, connectorId: string): Promise<void> {
    const connector = await this.get(organizationId, connectorId);
    if (connector.pluginId !== null) throw managedByPlugin(connector);
    await this.store.connectors.delete(organizationId, connectorId);
  }

  async deleteForPlugin(organizationId: string, pluginId: string, connectorId: string): Promise<void> {
    const connector = await this.get(organizationId, connectorId);
    if (connector.pluginId !== pluginId) throw managedByPlugin(connector);
    await this.store.connectors.delete(organizationId, connectorId);
  }

  /**
   * Checks a connector URL as `create` does (http(s), no credentials, the private-network
   * rule). Plugins check every `.mcp.json` URL with it before their transaction and then
   * write with the synchronous `…Checked` methods inside it.
   */
  async checkConnectorUrl(raw: string): Promise<URL> {
    return this.checkUrl(raw);
  }

  /** A plugin's connector from a URL `checkConnectorUrl` accepted (synchronous: runs in the plugin's transaction). */
  async createCheckedForPlugin(
    organizationId: string,
    pluginId: string,
    input: {
      serverLabel: string;
      url: URL;
      authKind: ConnectorAuthKind;
      description: string | null;
      agentIds: string[];
    },
  ): Promise<ConnectorRecord> {
    if ((await this.store.connectors.getByLabel(organizationId, input.serverLabel)) !== null) {
      throw conflict(`A connector labelled "${input.serverLabel}" exists`, {
        param: "serverLabel",
        code: "name_conflict",
      });
    }
    return await this.store.connectors.create(organizationId, {
      serverLabel: input.serverLabel,
      url: input.url.href,
      host: input.url.host,
      authKind: input.authKind,
      description: input.description,
      agentIds: [...new Set(input.agentIds)],
      enabled: true,
      pluginId,
    });
  }

  /**
   * Updates a plugin's connector in place from a checked URL; true when something changed.
   * Members' connections stay while the host stays; a new host drops them (a token is never
   * sent to a host its member did not connect to), a new `authKind` too.
   */
  async updateCheckedForPlugin(
    organizationId: string,
    pluginId: string,
    connectorId: string,
    input: { url: URL; authKind: ConnectorAuthKind; description: string | null; agentIds: string[] },
  ): Promise<boolean> {
    const connector = await this.get(organizationId, connectorId);
    if (connector.pluginId !== pluginId) throw managedByPlugin(connector);
    const agentIds = [...new Set(input.agentIds)];
    const changes: ConnectorChanges = {};
    if (connector.url !== input.url.href) {
      changes.url = input.url.href;
      changes.host = input.url.host;
    }
    if (connector.authKind !== input.authKind) changes.authKind = input.authKind;
    if (connector.description !== input.description) changes.description = input.description;
    if (JSON.stringify(connector.agentIds) !== JSON.stringify(agentIds)) changes.agentIds = agentIds;
    if (Object.keys(changes).length === 0) return false;
    await this.store.connectors.update(organizationId, connectorId, changes);
    if (changes.host !== undefined && changes.host !== connector.host) {
      await this.store.connectors.disconnectAll(connectorId);
    }
    return true;
  }

  private async createConnector(
    organizationId: string,
    body: CreateConnectorInput,
    pluginId: string | null,
  ): Promise<ConnectorRecord> {
    const url = await this.checkUrl(body.url);
    const agentIds = body.agentIds === undefined ? [] : body.agentIds;
    await this.checkAgents(organizationId, agentIds);
    if ((await this.store.connectors.getByLabel(organizationId, body.serverLabel)) !== null) {
      throw conflict(`A connector labelled "${body.serverLabel}" exists`, { param: "serverLabel" });
    }
    try {
      return this.store.connectors.create(organizationId, {
        serverLabel: body.serverLabel,
        url: url.href,
        host: url.host,
        authKind: body.authKind ?? "none",
        description: body.description ?? null,
        agentIds: agentIds === null ? null : [...new Set(agentIds)],
        enabled: body.enabled ?? true,
        pluginId,
      });
    } catch (error) {
      if (String(error).includes("UNIQUE")) {
        throw conflict(`A connector labelled "${body.serverLabel}" exists`, { param: "serverLabel" });
      }
      throw error;
    }
  }

  private async applyUpdate(
    connector: ConnectorRecord,
    body: UpdateConnectorInput,
  ): Promise<ConnectorRecord> {
    const changes: ConnectorChanges = {};
    if (body.url !== undefined) {
      const url = await this.checkUrl(body.url);
      changes.url = url.href;
      changes.host = url.host;
    }
    if (body.authKind !== undefined) changes.authKind = body.authKind;
    if (body.description !== undefined) changes.description = body.description;
    if (body.agentIds !== undefined) {
      await this.checkAgents(connector.organizationId, body.agentIds);
      changes.agentIds = body.agentIds === null ? null : [...new Set(body.agentIds)];
    }
    if (body.enabled !== undefined) changes.enabled = body.enabled;
    const updated = await this.store.connectors.update(connector.organizationId, connector.id, changes);
    if (updated === null) throw notFound(`No connector ${connector.id}`, { param: "connectorId" });
    return updated;
  }

  private async checkUrl(raw: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidRequest("url must be an absolute http(s) URL", { param: "url" });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw invalidRequest(`url must use http or https, not ${url.protocol}`, { param: "url" });
    }
    if (url.username !== "" || url.password !== "") {
      throw invalidRequest("url must not carry credentials; members connect with a token", { param: "url" });
    }
    if (this.options.allowPrivateNetwork === true) return url;
    let refused: string | undefined;
    try {
      refused = await privateAddressOf(url.hostname);
    } catch {
      // A name that does not resolve now is accepted; every connection checks again.
      refused = undefined;
    }
    if (refused !== undefined) {
      throw invalidRequest(
        `${url.hostname} resolves to ${refused}, a loopback, private or link-local address; connectors there are refused unless ${this.options.allowPrivateNetworkSetting ?? DEFAULT_PRIVATE_NETWORK_SETTING}`,
        { param: "url", code: "private_network" },
      );
    }
    return url;
  }

  private async checkAgents(organizationId: string, agentIds: string[] | null): Promise<void> {
    for (const [index, agentId] of (agentIds ?? []).entries()) {
      if ((await this.store.agents.get(organizationId, agentId)) === null) {
        throw notFound(`No agent ${agentId}`, { param: `agentIds[${index}]` });
      }
    }
  }

  // ---- the member's connection and allowances (own) ----

  async connection(principal: Principal, connectorId: string): Promise<ConnectionView> {
    return await this.viewOf(principal, await this.get(principal.organizationId, connectorId));
  }

  async connect(principal: Principal, connectorId: string, raw: unknown): Promise<ConnectionView> {
    const body = validate(connectionBody, raw);
    const connector = await this.get(principal.organizationId, connectorId);
    checkAuthKind(connector);
    await this.store.connectors.connect(connector.id, principal.apiKeyId, body.token);
    return this.viewOf(principal, connector);
  }

  async disconnect(principal: Principal, connectorId: string): Promise<void> {
    const connector = await this.get(principal.organizationId, connectorId);
    await this.store.connectors.disconnect(connector.id, principal.apiKeyId);
  }

  async allow(
    principal: Principal,
    connectorId: string,
    agentId: string,
    raw: unknown,
  ): Promise<ConnectionView> {
    const body = validate(allowanceBody, raw ?? {});
    const connector = await this.get(principal.organizationId, connectorId);
    await this.attachedAgent(connector, agentId);
    const destinations = body.destinations === undefined ? [connector.host] : [...new Set(body.destinations)];
    for (const [index, destination] of destinations.entries()) {
      if (destination !== connector.host) {
        throw invalidRequest(
          `destinations may name only the connector's host ${connector.host}, not "${destination}"`,
          { param: `destinations[${index}]` },
        );
      }
    }
    await this.store.connectors.allow(connector.id, principal.apiKeyId, agentId, destinations);
    return this.viewOf(principal, connector);
  }

  async disallow(principal: Principal, connectorId: string, agentId: string): Promise<void> {
    const connector = await this.get(principal.organizationId, connectorId);
    if (!(await this.store.connectors.disallow(connector.id, principal.apiKeyId, agentId))) {
      throw notFound(`No allowance of ${connector.serverLabel} for agent ${agentId}`, { param: "agentId" });
    }
  }

  private async attachedAgent(connector: ConnectorRecord, agentId: string): Promise<void> {
    const attached =
      (await this.store.agents.get(connector.organizationId, agentId)) !== null &&
      (connector.agentIds === null || connector.agentIds.includes(agentId));
    if (!attached) {
      throw notFound(`Agent ${agentId} is not attached to connector ${connector.serverLabel}`, {
        param: "agentId",
      });
    }
  }

  private async viewOf(principal: Principal, connector: ConnectorRecord): Promise<ConnectionView> {
    const row = await this.store.connectors.connection(connector.id, principal.apiKeyId);
    return {
      connectorId: connector.id,
      serverLabel: connector.serverLabel,
      host: connector.host,
      status: connector.authKind === "none" ? "connected" : (row?.status ?? "not_connected"),
      connectedAt: connector.authKind === "none" ? null : (row?.connectedAt ?? null),
      allowances: await this.store.connectors.allowances(connector.id, principal.apiKeyId),
    };
  }

  // ---- runs ----

  /** The enabled connectors an agent may use, oldest first. */
  async attached(organizationId: string, agentId: string): Promise<ConnectorRecord[]> {
    return (await this.store.connectors.all(organizationId)).filter(
      (c) => c.enabled && (c.agentIds === null || c.agentIds.includes(agentId)),
    );
  }

  /** What the caller must do before the agent's run may use each attached connector (§5.3 point 1). */
  async pendingFor(
    principal: Principal,
    connector: ConnectorRecord,
    agentId: string,
  ): Promise<PendingConnection | null> {
    const base = { serverLabel: connector.serverLabel, host: connector.host };
    if (connector.authKind !== "none") {
      const row = await this.store.connectors.connection(connector.id, principal.apiKeyId);
      if (row === null) return { ...base, reason: "connect" };
      if (row.status === "expired") return { ...base, reason: "reconnect" };
    }
    const allowance = (await this.store.connectors.allowances(connector.id, principal.apiKeyId)).find(
      (a) => a.agentId === agentId,
    );
    if (allowance === undefined) return { ...base, reason: "allow" };
    if (!allowance.destinations.includes(connector.host)) {
      return { ...base, reason: "allow", destinations: [connector.host] };
    }
    return null;
  }

  /**
   * The run's pre-flight and tools: connections to ask for, else the tools of every usable
   * connector (`tools/list`). With `skipMissing` (the pause window closed) connectors still
   * missing are left out instead of pausing again.
   */
  async prepareRun(
    principal: Principal,
    agentId: string,
    options: { skipMissing?: boolean } = {},
  ): Promise<{ pending: PendingConnection[]; tools: ResolvedTool[] }> {
    const connectors = await this.attached(principal.organizationId, agentId);
    const pending: PendingConnection[] = [];
    const usable: ConnectorRecord[] = [];
    for (const connector of connectors) {
      const entry = await this.pendingFor(principal, connector, agentId);
      if (entry === null) usable.push(connector);
      else if (options.skipMissing !== true) pending.push(entry);
    }
    if (pending.length > 0) return { pending, tools: [] };
    // Listed side by side; tools keep the connectors' order.
    const listings = await Promise.all(
      usable.map(async (connector) => {
        try {
          const endpoint = await this.endpoint(principal, connector);
          return { connector, listed: await listTools(endpoint, this.options.listTimeoutMs) };
        } catch (error) {
          return { connector, error };
        }
      }),
    );
    const tools: ResolvedTool[] = [];
    for (const listing of listings) {
      const { connector } = listing;
      if (!("listed" in listing)) {
        if (listing.error instanceof ConnectorAuthError) {
          await this.store.connectors.markExpired(connector.id, principal.apiKeyId);
          if (options.skipMissing !== true) {
            pending.push({ serverLabel: connector.serverLabel, host: connector.host, reason: "reconnect" });
          }
        }
        // An unreachable connector offers no tools this time.
        continue;
      }
      await this.store.connectors.saveToolList(connector.id, principal.apiKeyId, listing.listed);
      for (const tool of listing.listed) {
        const resolved = resolvedTool(connector, tool);
        if (resolved !== null) tools.push(resolved);
      }
    }
    return { pending, tools: pending.length > 0 ? [] : tools };
  }

  /**
   * Each attached connector's tools from the caller's last successful `tools/list`, or
   * `not_connected` when the caller has no usable connection (the tool catalogs, §4.5).
   */
  async catalogs(principal: Principal, agentId: string): Promise<ConnectorCatalog[]> {
    return await Promise.all(
      (await this.attached(principal.organizationId, agentId)).map(async (connector) => {
        const pending = await this.pendingFor(principal, connector, agentId);
        const cached = await this.store.connectors.toolList(connector.id, principal.apiKeyId);
        if (cached === null || (pending !== null && pending.reason !== "allow")) {
          return {
            connectorId: connector.id,
            serverLabel: connector.serverLabel,
            status: "not_connected",
            tools: [],
          };
        }
        const tools = cached.tools.flatMap((tool) => {
          const prefixedName = prefixedToolName(connector.serverLabel, tool.name);
          return prefixedName === null ? [] : [{ ...tool, prefixedName }];
        });
        return { connectorId: connector.id, serverLabel: connector.serverLabel, status: "ok", tools };
      }),
    );
  }

  /** Runs (or resumes) a connector tool call of a run (§5.3 points 2, 3 and 5). */
  async execute(principal: Principal, call: ToolCallInput): Promise<ToolResult> {
    const target = call.tool.connector;
    if (target === undefined) return { output: `"${call.tool.name}" is not a connector tool`, failed: true };
    const key = `${principal.organizationId}:${call.callId}`;
    let held = this.held.get(key);
    if (call.held === true) {
      if (held === undefined) {
        return {
          output:
            "The connector call was lost while it waited for an answer (the server restarted); its outcome is unknown.",
          failed: true,
        };
      }
    } else {
      const connector = await this.store.connectors.get(principal.organizationId, target.connectorId);
      if (connector === null || !connector.enabled) {
        return { output: `The connector ${target.serverLabel} is no longer available`, failed: true };
      }
      let args: Record<string, unknown>;
      try {
        const parsed = call.arguments.trim() === "" ? {} : (JSON.parse(call.arguments) as unknown);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error();
        args = parsed as Record<string, unknown>;
      } catch {
        return { output: "The tool failed: the arguments must be a JSON object", failed: true };
      }
      held = HeldCall.start(await this.endpoint(principal, connector), target.toolName, args, {
        callTimeoutMs: this.options.callTimeoutMs ?? CALL_TIMEOUT_MS,
        questionWindowMs: this.options.pauseTimeoutMs,
      });
      this.held.set(key, held);
    }
    const outcome = await held.next();
    if (outcome.kind === "question") {
      const input = await this.store.connectors.createInput(
        {
          organizationId: principal.organizationId,
          memberId: principal.apiKeyId,
          responseId: call.state.id,
          connectorId: target.connectorId,
          serverLabel: target.serverLabel,
          tool: call.tool.name,
          callId: call.callId,
          mode: outcome.question.mode,
          message: outcome.question.message,
          requestedSchema: outcome.question.requestedSchema,
          url: outcome.question.url,
          expiresAt: this.clock.now() + this.options.pauseTimeoutMs,
        },
        { id: this.processId, expiresAt: this.clock.now() + this.leaseMs },
      );
      this.waiters.set(input.id, outcome.answer);
      return {
        output: "",
        pause: {
          input: {
            inputRequestId: input.id,
            serverLabel: target.serverLabel,
            tool: call.tool.name,
            mode: input.mode,
            callId: call.callId,
            arguments: call.arguments,
          },
        },
      };
    }
    this.held.delete(key);
    if (outcome.kind === "expired") {
      await this.store.connectors.markExpired(target.connectorId, principal.apiKeyId);
      const connector = await this.store.connectors.get(principal.organizationId, target.connectorId);
      return {
        output: `The sign-in to ${target.serverLabel} expired during this call; it was interrupted and its outcome is unknown. The user must reconnect.`,
        interrupted: true,
        pause: {
          connections: [
            { serverLabel: target.serverLabel, host: connector?.host ?? "", reason: "reconnect" },
          ],
        },
      };
    }
    return outcome.failed ? { output: outcome.output, failed: true } : { output: outcome.output };
  }

  private async endpoint(principal: Principal, connector: ConnectorRecord): Promise<McpEndpoint> {
    return {
      url: connector.url,
      token:
        connector.authKind === "none"
          ? null
          : await this.store.connectors.tokenOf(connector.id, principal.apiKeyId),
      fetch: this.options.fetch ?? guardedFetch(this.options.allowPrivateNetwork === true),
    };
  }

  // ---- input requests ----

  /** An input request, for the key whose run asked only. */
  async input(principal: Principal, inputRequestId: string): Promise<InputRequestRecord> {
    const input = await this.store.connectors.getInput(principal.organizationId, inputRequestId);
    if (input === null || input.memberId !== principal.apiKeyId) {
      throw notFound(`No connector input request ${inputRequestId}`, { param: "inputRequestId" });
    }
    return input;
  }

  async answer(principal: Principal, inputRequestId: string, raw: unknown): Promise<InputRequestRecord> {
    const body = validate(inputAnswerBody, raw);
    const input = await this.input(principal, inputRequestId);
    if (input.status !== "open") {
      throw conflict(`Input request ${input.id} is ${input.status}`, { code: "input_closed" });
    }
    if (this.clock.now() > input.expiresAt) {
      throw conflict(`The pause of input request ${input.id} expired; it can no longer be answered`, {
        code: "pause_expired",
      });
    }
    let content: Record<string, unknown> | null = null;
    if (body.action === "accept") {
      if (input.requestedSchema !== null) {
        if (body.content === undefined) {
          throw invalidRequest("content is required to accept a form question", { param: "content" });
        }
        const problem = contentProblem(input.requestedSchema, body.content);
        if (problem !== null) {
          throw invalidRequest(`content does not match requestedSchema: ${problem.message}`, {
            param: problem.param,
          });
        }
      }
      content = body.content ?? null;
    }
    if (!(await this.store.connectors.closeInput(input.id, "answered", { action: body.action, content }))) {
      throw conflict(`Input request ${input.id} was answered meanwhile`, { code: "input_closed" });
    }
    this.deliver(input.id, { action: body.action, ...(content === null ? {} : { content }) });
    return this.input(principal, inputRequestId);
  }

  /** True while a question of the paused response is still open (a continuation is `409 inputs_pending`). */
  async hasOpenInputs(organizationId: string, state: RunState): Promise<boolean> {
    for (const pending of state.pendingInputs ?? []) {
      const input = await this.store.connectors.getInput(organizationId, pending.inputRequestId);
      if (input?.status === "open") return true;
    }
    return false;
  }

  /**
   * The response's open questions are answered `cancel`: status `expired` when the pause
   * window closed, `cancelled` when the turn was cancelled. Their held calls end as the
   * connector decides; a cancelled turn's calls are not waited for.
   */
  async closeInputs(
    organizationId: string,
    state: RunState,
    status: "expired" | "cancelled" = "expired",
  ): Promise<void> {
    for (const pending of state.pendingInputs ?? []) {
      const input = await this.store.connectors.getInput(organizationId, pending.inputRequestId);
      if (input?.status !== "open") continue;
      await this.store.connectors.closeInput(input.id, status, { action: "cancel", content: null });
      this.deliver(input.id, { action: "cancel" });
      if (status === "cancelled") this.held.delete(`${organizationId}:${pending.callId}`);
    }
  }

  /**
   * Starts holding questions: those left open by an earlier run of this process, by a process
   * whose lease lapsed, or asked before owners were recorded are answered `cancel` (status
   * `cancelled`: their calls are gone); then, every third of the lease, this service renews the
   * lease of the questions it holds and cancels those whose process stopped renewing (it died).
   * Questions of another live process stay open (decision PG191). Answers the number cancelled.
   */
  async start(): Promise<number> {
    const cancelled = await this.cancelOrphanedInputs(this.processId);
    if (this.sweeper === null) {
      this.sweeper = setInterval(
        () => {
          this.sweeping = this.sweep().catch(() => undefined);
        },
        Math.max(10, Math.floor(this.leaseMs / 3)),
      );
      // The sweep is no reason to keep a process alive.
      this.sweeper.unref?.();
    }
    return cancelled;
  }

  /**
   * Stops sweeping; the questions this service holds are answered `cancel` (status `cancelled`),
   * as a restart would: their calls end with this process.
   */
  async stop(): Promise<void> {
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.sweeping;
    for (const id of [...this.waiters.keys()]) {
      await this.store.connectors.closeInput(id, "cancelled", { action: "cancel", content: null });
      this.deliver(id, { action: "cancel" });
    }
  }

  /** One round: renew the held questions' lease, then cancel the orphaned ones (no earlier run's). */
  async sweep(): Promise<number> {
    await this.store.connectors.renewInputs([...this.waiters.keys()], this.clock.now() + this.leaseMs);
    return await this.cancelOrphanedInputs(null);
  }

  /** Orphaned open questions (see `orphanedInputs`) this service does not hold, answered `cancel`. */
  private async cancelOrphanedInputs(earlierRunOf: string | null): Promise<number> {
    let count = 0;
    for (const input of await this.store.connectors.orphanedInputs(this.clock.now(), earlierRunOf)) {
      if (this.waiters.has(input.id)) continue;
      if (await this.store.connectors.closeInput(input.id, "cancelled", { action: "cancel", content: null }))
        count++;
    }
    return count;
  }

  private deliver(inputRequestId: string, answer: ElicitationAnswer): void {
    const waiter = this.waiters.get(inputRequestId);
    this.waiters.delete(inputRequestId);
    waiter?.(answer);
  }
}

function checkAuthKind(connector: ConnectorRecord): void {
  const kind: ConnectorAuthKind = connector.authKind;
  if (kind === "none") {
    throw invalidRequest(`Connector ${connector.serverLabel} needs no sign-in (authKind none)`, {
      code: "connection_not_needed",
    });
  }
  if (kind === "oauth") {
    throw notImplemented(
      `Connector ${connector.serverLabel} signs in with OAuth; the OAuth sign-in flow is not part of this build`,
      { code: "oauth_not_supported" },
    );
  }
}

function managedByPlugin(connector: ConnectorRecord) {
  return conflict(
    `Connector ${connector.serverLabel} was installed by plugin ${connector.pluginId}; only the plugin changes it`,
    { code: "managed_by_plugin" },
  );
}

/** A connector tool as the run offers it: `<serverLabel>__<toolName>`, class from the annotations. */
function resolvedTool(connector: ConnectorRecord, tool: CachedTool): ResolvedTool | null {
  const name = prefixedToolName(connector.serverLabel, tool.name);
  if (name === null) return null;
  const annotations = { readOnlyHint: tool.readOnlyHint, destructiveHint: tool.destructiveHint };
  const definition: ToolDefinition = {
    type: "connector",
    name,
    ...(tool.description === null ? {} : { description: tool.description }),
    parameters: tool.inputSchema,
    annotations,
  };
  return {
    name,
    definition,
    gate: { name, runs: "server", runnable: true, annotations },
    chat: {
      type: "function",
      function: {
        name,
        ...(tool.description === null ? {} : { description: tool.description }),
        parameters: tool.inputSchema,
      },
    },
    connector: { connectorId: connector.id, serverLabel: connector.serverLabel, toolName: tool.name },
  };
}
