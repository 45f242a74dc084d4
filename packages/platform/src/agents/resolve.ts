/** Finding agents and versions by id, number, label or name, with the spec's errors. */
import { type AgentDefinition, resolveTools } from "@groundwork/agents";
import { conflict, notFound } from "@groundwork/core";
import type { AgentRecord, AgentVersionRecord } from "@groundwork/store-sqlite";
import type { PlatformStore } from "../store-port.js";

/**
 * A version of the agent: digits are a version number, `agv_…` a version id, anything
 * else a label; without a selector the newest active version. Deactivated versions can be
 * read but not run or labelled (409).
 */
export async function resolveVersion(
  store: PlatformStore,
  agent: AgentRecord,
  selector: string | undefined,
  options: { param?: string; requireActive?: boolean } = {},
): Promise<AgentVersionRecord> {
  const param = options.param ?? "model";
  if (selector === undefined) {
    const latest = await store.agents.latestVersion(agent.id);
    if (latest === null) throw conflict(`Agent "${agent.name}" has no active version`, { param });
    return latest;
  }
  let version: AgentVersionRecord | null;
  if (/^\d+$/.test(selector)) {
    version = await store.agents.getVersionByNumber(agent.id, Number(selector));
  } else if (selector.startsWith("agv_")) {
    version = await store.agents.getVersion(agent.id, selector);
  } else {
    const label = await store.agents.getLabel(agent.id, selector);
    if (label === null) {
      throw notFound(`Agent "${agent.name}" has no version or label "${selector}"`, { param });
    }
    version = await store.agents.versionById(label.agentVersionId);
  }
  if (version === null) throw notFound(`Agent "${agent.name}" has no version "${selector}"`, { param });
  if (options.requireActive !== false && !version.active) {
    throw conflict(`Version ${version.versionNumber} of agent "${agent.name}" is deactivated`, { param });
  }
  return version;
}

export function definitionOf(version: AgentVersionRecord): AgentDefinition {
  return version.definition as unknown as AgentDefinition;
}

export function toolsOf(version: AgentVersionRecord) {
  return resolveTools(definitionOf(version).tools);
}
