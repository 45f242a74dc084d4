/** Prompts, versions and labels as the API shows them (PLATFORM.md §7): timestamps as ISO strings. */
import type { PromptVersionView } from "@groundwork/platform";
import { LATEST_LABEL, type PromptLabelRecord, type PromptRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderPrompt(prompt: PromptRecord) {
  return {
    id: prompt.id,
    name: prompt.name,
    type: prompt.type,
    description: prompt.description,
    tags: prompt.tags,
    latestVersionId: prompt.latestVersionId,
    latestVersionNumber: prompt.latestVersionNumber,
    createdAt: iso(prompt.createdAt),
    updatedAt: iso(prompt.updatedAt),
  };
}

export function renderPromptVersion(version: PromptVersionView) {
  return {
    id: version.id,
    promptId: version.promptId,
    versionNumber: version.versionNumber,
    type: version.type,
    prompt: version.prompt,
    config: version.config,
    variables: version.variables,
    changeDescription: version.changeDescription,
    labels: version.labels,
    active: version.active,
    copiedFromVersionId: version.copiedFromVersionId,
    createdAt: iso(version.createdAt),
    deactivatedAt: version.deactivatedAt === null ? null : iso(version.deactivatedAt),
  };
}

export function renderPromptLabel(label: PromptLabelRecord) {
  return {
    name: label.name,
    promptVersionId: label.promptVersionId,
    versionNumber: label.versionNumber,
    system: label.name === LATEST_LABEL,
    createdAt: iso(label.createdAt),
    updatedAt: iso(label.updatedAt),
  };
}
