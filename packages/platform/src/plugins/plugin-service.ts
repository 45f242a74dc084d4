/**
 * Plugins (PLATFORM.md §5.1–5.2): a zip (uploaded or fetched from a URL) that installs
 * skills in the plugin's namespace, connectors from its `.mcp.json` and agents from its
 * definition files. The package is checked whole first (the agents engine's rules);
 * the connector URLs are checked next (the only asynchronous checks); then every write
 * — components and the plugin row — happens in one transaction, so nothing is written
 * when anything fails. Updates and syncs apply the new package against the plugin's
 * recorded components (created / versioned / unchanged / removed); removing a skill an
 * agent outside the plugin binds is `409 plugin_in_use` (delete may `force` it). Roles
 * are the HTTP guards' business.
 */
import {
  type AgentDefinition,
  agentSkillBindings,
  type PluginConnectorEntry,
  type PluginPackage,
  pluginPackageFromZip,
} from "@groundwork/agents";
import {
  conflict,
  invalidRequest,
  type MaybePromise,
  notFound,
  type PageRequest,
  type Principal,
} from "@groundwork/core";
import type { PluginRecord, PluginSourceType } from "@groundwork/store-sqlite";
import { z } from "zod";
import type { AgentManagement } from "../agents/agent-management.js";
import type { SkillService } from "../skills/skill-service.js";
import type { PlatformStore } from "../store-port.js";
import { fetchPluginZip, type PluginFetchOptions } from "./plugin-source.js";

/** `POST /v1/plugins` / `PUT /v1/plugins/{id}` as JSON. */
export const pluginSourceBody = z.object({
  sourceUrl: z
    .string({ error: "sourceUrl is required (or send the zip as a multipart `file`)" })
    .min(1)
    .max(2048)
    .refine((value) => /^https?:\/\//i.test(value), "sourceUrl must be an http(s) URL"),
});
export type PluginSourceBody = z.output<typeof pluginSourceBody>;

export type PluginSourceInput = { zip: Uint8Array } | { sourceUrl: string };

export interface PluginChanges {
  skills: { created: string[]; versioned: string[]; unchanged: string[]; removed: string[] };
  connectors: { created: string[]; updated: string[]; removed: string[] };
  agents: { created: string[]; versioned: string[]; unchanged: string[]; removed: string[] };
}

export interface PluginResult {
  plugin: PluginRecord;
  changes: PluginChanges;
  warnings: string[];
}

/** A connector as plugins see it. */
export interface PluginConnectorRef {
  id: string;
  serverLabel: string;
  pluginId: string | null;
}

/**
 * How plugins reach connectors (PLATFORM.md §5.3). `check` runs before the transaction
 * (URL rules, private network); the other methods run inside it and are awaited (issue #24).
 */
export interface PluginConnectorPort {
  /** Whether this build has connectors; without them `.mcp.json` entries are skipped with a warning. */
  readonly available: boolean;
  check(organizationId: string, entries: readonly PluginConnectorEntry[]): Promise<void>;
  byLabel(organizationId: string, serverLabel: string): MaybePromise<PluginConnectorRef | null>;
  byId(organizationId: string, id: string): MaybePromise<PluginConnectorRef | null>;
  create(
    organizationId: string,
    pluginId: string,
    entry: PluginConnectorEntry,
    agentIds: string[],
  ): MaybePromise<string>;
  /** True when something changed. */
  update(
    organizationId: string,
    pluginId: string,
    id: string,
    entry: PluginConnectorEntry,
    agentIds: string[],
  ): MaybePromise<boolean>;
  remove(organizationId: string, pluginId: string, id: string): MaybePromise<void>;
}

/** The seam while no connector service is wired: no connectors. */
export const NO_PLUGIN_CONNECTORS: PluginConnectorPort = {
  available: false,
  check: async () => {},
  byLabel: () => null,
  byId: () => null,
  create: () => {
    throw new Error("connectors are not available");
  },
  update: () => false,
  remove: () => {},
};

export interface PluginServiceOptions extends PluginFetchOptions {
  connectors?: PluginConnectorPort;
}

const MANIFEST_NAME_PARAM = ".claude-plugin/plugin.json:name";

function emptyChanges(): PluginChanges {
  return {
    skills: { created: [], versioned: [], unchanged: [], removed: [] },
    connectors: { created: [], updated: [], removed: [] },
    agents: { created: [], versioned: [], unchanged: [], removed: [] },
  };
}

interface LoadedPackage {
  pkg: PluginPackage;
  source: { type: PluginSourceType; url: string | null };
}

export class PluginService {
  private readonly connectors: PluginConnectorPort;

  constructor(
    private readonly store: PlatformStore,
    private readonly skills: SkillService,
    private readonly agents: AgentManagement,
    private readonly options: PluginServiceOptions,
  ) {
    this.connectors = options.connectors ?? NO_PLUGIN_CONNECTORS;
  }

  async list(organizationId: string, page: PageRequest): Promise<{ items: PluginRecord[]; total: number }> {
    return await this.store.plugins.list(organizationId, page);
  }

  async get(organizationId: string, pluginId: string): Promise<PluginRecord> {
    const plugin = await this.store.plugins.get(organizationId, pluginId);
    if (plugin === null) throw notFound(`No plugin ${pluginId}`, { param: "pluginId" });
    return plugin;
  }

  /** Installs a plugin from a zip or a URL: `409` when a plugin of that name is installed. */
  async install(principal: Principal, input: PluginSourceInput): Promise<PluginResult> {
    const org = principal.organizationId;
    const loaded = await this.load(org, input);
    return this.store.plugins.atomically(async () => {
      const name = loaded.pkg.manifest.name;
      if ((await this.store.plugins.byName(org, name)) !== null) {
        throw conflict(`A plugin named "${name}" is installed; update it instead`, {
          param: MANIFEST_NAME_PARAM,
        });
      }
      return this.apply(principal, null, await this.store.plugins.newId(), loaded);
    });
  }

  /** Replaces a plugin's package; the manifest name must stay the plugin's. */
  async update(principal: Principal, pluginId: string, input: PluginSourceInput): Promise<PluginResult> {
    const org = principal.organizationId;
    await this.get(org, pluginId);
    const loaded = await this.load(org, input);
    return this.store.plugins.atomically(async () => await this.applyUpdate(principal, pluginId, loaded));
  }

  /** Re-fetches a URL plugin's source and applies it as an update. */
  async sync(principal: Principal, pluginId: string): Promise<PluginResult> {
    const org = principal.organizationId;
    const plugin = await this.get(org, pluginId);
    if (plugin.source.type !== "url" || plugin.source.url === null) {
      throw conflict(`Plugin ${plugin.name} was uploaded; upload a new zip with PUT instead`, {
        code: "source_not_syncable",
      });
    }
    const loaded = await this.load(org, { sourceUrl: plugin.source.url });
    return this.store.plugins.atomically(async () => await this.applyUpdate(principal, pluginId, loaded));
  }

  /**
   * Deletes a plugin with all its components. An agent outside the plugin binding one of
   * its skills makes this a `409 plugin_in_use` unless `force` (the bindings become unresolved).
   */
  async delete(principal: Principal, pluginId: string, options: { force?: boolean } = {}): Promise<void> {
    const org = principal.organizationId;
    await this.store.plugins.atomically(async () => {
      const plugin = await this.get(org, pluginId);
      if (options.force !== true)
        await this.refuseInUse(org, plugin, new Set(plugin.components.skillIds), new Set());
      for (const agentId of plugin.components.agentIds) {
        if ((await this.store.agents.get(org, agentId)) !== null)
          await this.store.agents.delete(org, agentId);
      }
      for (const skillId of plugin.components.skillIds) {
        if ((await this.store.skills.get(org, skillId)) !== null)
          await this.skills.delete(org, skillId, { managed: true });
      }
      for (const connectorId of plugin.components.connectorIds) {
        if ((await this.connectors.byId(org, connectorId)) !== null)
          await this.connectors.remove(org, plugin.id, connectorId);
      }
      await this.store.plugins.delete(org, plugin.id);
    });
  }

  // ---- internals ----

  private async load(organizationId: string, input: PluginSourceInput): Promise<LoadedPackage> {
    const bytes = "zip" in input ? input.zip : await fetchPluginZip(input.sourceUrl, this.options);
    const pkg = await pluginPackageFromZip(bytes);
    if (this.connectors.available) await this.connectors.check(organizationId, pkg.connectors);
    return {
      pkg,
      source: "zip" in input ? { type: "upload", url: null } : { type: "url", url: input.sourceUrl },
    };
  }

  private async applyUpdate(
    principal: Principal,
    pluginId: string,
    loaded: LoadedPackage,
  ): Promise<PluginResult> {
    const plugin = await this.get(principal.organizationId, pluginId);
    if (loaded.pkg.manifest.name !== plugin.name) {
      throw invalidRequest(
        `The package is plugin "${loaded.pkg.manifest.name}", not "${plugin.name}"; install it as another plugin`,
        { param: MANIFEST_NAME_PARAM, code: "plugin_name_mismatch" },
      );
    }
    return await this.apply(principal, plugin, plugin.id, loaded);
  }

  /** Writes the package's components against the previous installation (null on install). Runs in a transaction. */
  private async apply(
    principal: Principal,
    previous: PluginRecord | null,
    pluginId: string,
    { pkg, source }: LoadedPackage,
  ): Promise<PluginResult> {
    const org = principal.organizationId;
    const namespace = pkg.manifest.name;
    const changes = emptyChanges();
    const warnings = [...pkg.warnings];
    const before = previous?.components ?? { skillIds: [], connectorIds: [], agentIds: [] };
    const ownAgents = new Set(before.agentIds);
    const ownConnectors = new Set(before.connectorIds);

    // Names owned by something else are refused before anything is written.
    for (const { path, definition } of pkg.agents) {
      const existing = await this.store.agents.getByName(org, definition.name);
      if (existing !== null && !ownAgents.has(existing.id)) {
        throw conflict(`An agent named "${definition.name}" exists and was not installed by this plugin`, {
          param: `${path}:name`,
          code: "name_conflict",
        });
      }
    }
    const connectorEntries = this.connectors.available ? pkg.connectors : [];
    if (!this.connectors.available && pkg.connectors.length > 0) {
      for (const entry of pkg.connectors) {
        warnings.push(
          `.mcp.json: server "${entry.serverLabel}" skipped; connectors are not available in this build`,
        );
      }
    }
    for (const entry of connectorEntries) {
      const existing = await this.connectors.byLabel(org, entry.serverLabel);
      if (existing !== null && !(existing.pluginId === pluginId && ownConnectors.has(existing.id))) {
        throw conflict(
          `A connector labelled "${entry.serverLabel}" exists and was not installed by this plugin`,
          {
            param: `.mcp.json:mcpServers.${entry.serverLabel}`,
            code: "name_conflict",
          },
        );
      }
    }
    for (const { dir, package: skill } of pkg.skills) {
      const existing = await this.store.skills.byQualifiedName(org, `${namespace}:${skill.name}`);
      if (existing !== null && existing.pluginId !== pluginId) {
        throw conflict(
          `A skill named "${existing.qualifiedName}" exists and was not installed by this plugin`,
          {
            param: `skills/${dir}/SKILL.md:name`,
            code: "name_conflict",
          },
        );
      }
    }

    // Skills the update drops: refused while an agent outside the plugin binds them.
    const keptQualified = new Set(pkg.skills.map(({ package: skill }) => `${namespace}:${skill.name}`));
    const droppedSkills: string[] = [];
    for (const id of before.skillIds) {
      const skill = await this.store.skills.get(org, id);
      if (skill !== null && !keptQualified.has(skill.qualifiedName)) droppedSkills.push(id);
    }
    if (previous !== null && droppedSkills.length > 0) {
      const newAgentIds = new Set<string>();
      for (const { definition } of pkg.agents) {
        const id = (await this.store.agents.getByName(org, definition.name))?.id;
        if (id !== undefined) newAgentIds.add(id);
      }
      await this.refuseInUse(org, previous, new Set(droppedSkills), newAgentIds);
    }

    // Agents.
    const agentIds: string[] = [];
    for (const { definition } of pkg.agents) {
      const applied = await this.agents.apply(principal, definition as AgentDefinition);
      changes.agents[applied.result].push(applied.agent.name);
      agentIds.push(applied.agent.id);
    }
    const keptAgents = new Set(agentIds);
    for (const agentId of before.agentIds) {
      if (keptAgents.has(agentId)) continue;
      const agent = await this.store.agents.get(org, agentId);
      if (agent === null) continue;
      await this.store.agents.delete(org, agentId);
      changes.agents.removed.push(agent.name);
    }

    // Skills.
    const skillIds: string[] = [];
    for (const { package: skill } of pkg.skills) {
      const result = await this.skills.commitPackage(org, skill, {
        namespace,
        pluginId,
        source: "plugin",
        changeDescription: `Plugin ${namespace} ${pkg.manifest.version}`,
      });
      changes.skills[result.result].push(result.skill.qualifiedName);
      skillIds.push(result.skill.id);
    }
    for (const skillId of droppedSkills) {
      const skill = await this.store.skills.get(org, skillId);
      if (skill === null) continue;
      await this.skills.delete(org, skillId, { managed: true });
      changes.skills.removed.push(skill.qualifiedName);
    }

    // Connectors, matched by server label; attached to the plugin's agents (decision PL4).
    const connectorIds: string[] = [];
    for (const entry of connectorEntries) {
      const existing = await this.connectors.byLabel(org, entry.serverLabel);
      if (existing === null) {
        connectorIds.push(await this.connectors.create(org, pluginId, entry, agentIds));
        changes.connectors.created.push(entry.serverLabel);
      } else {
        if (await this.connectors.update(org, pluginId, existing.id, entry, agentIds)) {
          changes.connectors.updated.push(entry.serverLabel);
        }
        connectorIds.push(existing.id);
      }
    }
    const keptConnectors = new Set(connectorIds);
    for (const connectorId of before.connectorIds) {
      if (keptConnectors.has(connectorId)) continue;
      const connector = await this.connectors.byId(org, connectorId);
      if (connector === null) continue;
      await this.connectors.remove(org, pluginId, connectorId);
      changes.connectors.removed.push(connector.serverLabel);
    }

    const input = {
      name: namespace,
      version: pkg.manifest.version,
      description: pkg.manifest.description,
      manifest: pkg.manifest.raw,
      source,
      components: { skillIds, connectorIds, agentIds },
      warnings,
      synced: source.type === "url",
    };
    const plugin =
      previous === null
        ? await this.store.plugins.create(org, pluginId, input)
        : ((await this.store.plugins.update(org, pluginId, input)) as PluginRecord);
    return { plugin, changes, warnings };
  }

  /**
   * `409 plugin_in_use` when an agent outside the plugin (and outside `alsoOwn`) binds one of
   * `skillIds` in its latest active version; the message names the agents.
   */
  private async refuseInUse(
    organizationId: string,
    plugin: PluginRecord,
    skillIds: Set<string>,
    alsoOwn: Set<string>,
  ): Promise<void> {
    if (skillIds.size === 0) return;
    const qualified = new Set<string>();
    for (const id of skillIds) {
      const skill = await this.store.skills.get(organizationId, id);
      if (skill !== null) qualified.add(skill.qualifiedName);
    }
    const own = new Set([...plugin.components.agentIds, ...alsoOwn]);
    const users: string[] = [];
    const used = new Set<string>();
    for (let page = 0; ; page++) {
      const { items, total } = await this.store.agents.list(organizationId, { page, size: 100 });
      for (const agent of items) {
        if (own.has(agent.id)) continue;
        const version = await this.store.agents.latestVersion(agent.id);
        if (version === null) continue;
        const bindings = agentSkillBindings(version.definition as unknown as AgentDefinition);
        if (bindings.length === 0) continue;
        const resolutions = await this.skills.resolveBindings(organizationId, bindings);
        let binds = false;
        bindings.forEach((binding, index) => {
          const resolved = resolutions[index]?.resolved;
          const hit =
            (resolved != null && skillIds.has(resolved.skillId)) ||
            (binding.namespace !== null && qualified.has(binding.qualifiedName));
          if (hit) {
            binds = true;
            used.add(resolved?.qualifiedName ?? binding.qualifiedName);
          }
        });
        if (binds) users.push(`${agent.name} (${agent.id})`);
      }
      if ((page + 1) * 100 >= total) break;
    }
    if (users.length > 0) {
      throw conflict(
        `Plugin ${plugin.name}'s skill${used.size === 1 ? "" : "s"} ${[...used].sort().join(", ")} ${
          used.size === 1 ? "is" : "are"
        } bound by agent${users.length === 1 ? "" : "s"} ${users.join(", ")}`,
        { code: "plugin_in_use" },
      );
    }
  }
}
