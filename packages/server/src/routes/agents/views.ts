/** API shapes of agents, versions and labels (timestamps as ISO 8601 UTC, decision F12). */
import { type AgentDefinition, modelsOf } from "@groundwork/agents";
import type { PendingApprovalListing } from "@groundwork/platform";
import type { AgentLabelRecord, AgentRecord, AgentVersionRecord } from "@groundwork/store-sqlite";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function agentView(agent: AgentRecord, latest: AgentVersionRecord | null) {
  const definition = (latest?.definition ?? null) as AgentDefinition | null;
  const models = definition === null ? [] : modelsOf(definition);
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    published: agent.published,
    models,
    model: models[0] ?? null,
    latestVersionId: latest?.id ?? null,
    latestVersionNumber: latest?.versionNumber ?? null,
    createdAt: iso(agent.createdAt),
    updatedAt: iso(agent.updatedAt),
  };
}

export function catalogView(agent: AgentRecord) {
  return { id: agent.id, name: agent.name, description: agent.description };
}

export function versionView(version: AgentVersionRecord) {
  const definition = version.definition as unknown as AgentDefinition;
  const models = modelsOf(definition);
  return {
    id: version.id,
    agentId: version.agentId,
    versionNumber: version.versionNumber,
    active: version.active,
    copiedFromVersionId: version.copiedFromVersionId,
    models,
    model: models[0] ?? null,
    definition: version.definition,
    createdAt: iso(version.createdAt),
    deactivatedAt: iso(version.deactivatedAt),
  };
}

export function labelView(label: AgentLabelRecord, version: AgentVersionRecord | null) {
  return {
    name: label.name,
    agentVersionId: label.agentVersionId,
    versionNumber: version?.versionNumber ?? null,
    createdAt: iso(label.createdAt),
    updatedAt: iso(label.updatedAt),
  };
}

export function approvalView(approval: PendingApprovalListing) {
  return { ...approval, pausedAt: iso(approval.pausedAt) };
}
