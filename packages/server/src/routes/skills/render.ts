/** Skill resources as the API shows them (PLATFORM.md §4.2): timestamps as ISO strings. */
import type { SkillImportResult } from "@groundwork/platform";
import type { SkillLabelRecord, SkillRecord, SkillVersionRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function renderSkill(skill: SkillRecord) {
  return {
    id: skill.id,
    name: skill.name,
    namespace: skill.namespace,
    qualifiedName: skill.qualifiedName,
    description: skill.description,
    pluginId: skill.pluginId,
    latestVersionId: skill.latestVersionId,
    latestVersionNumber: skill.latestVersionNumber,
    createdAt: iso(skill.createdAt),
    updatedAt: iso(skill.updatedAt),
  };
}

/** A version; listings leave `skillMd` out. */
export function renderSkillVersion(version: SkillVersionRecord, options: { skillMd?: boolean } = {}) {
  return {
    id: version.id,
    skillId: version.skillId,
    versionNumber: version.versionNumber,
    name: version.name,
    description: version.description,
    frontmatter: version.frontmatter,
    ...(options.skillMd === false ? {} : { skillMd: version.skillMd }),
    files: version.files,
    totalSize: version.totalSize,
    source: version.source,
    changeDescription: version.changeDescription,
    active: version.active,
    copiedFromVersionId: version.copiedFromVersionId,
    createdAt: iso(version.createdAt),
    deactivatedAt: isoOrNull(version.deactivatedAt),
  };
}

export function renderSkillLabel(label: SkillLabelRecord) {
  return {
    name: label.name,
    skillVersionId: label.skillVersionId,
    versionNumber: label.versionNumber,
    system: label.name === "latest",
    createdAt: iso(label.createdAt),
    updatedAt: iso(label.updatedAt),
  };
}

export function renderImportResult(result: SkillImportResult) {
  return {
    result: result.result,
    skill: renderSkill(result.skill),
    version: renderSkillVersion(result.version),
  };
}
