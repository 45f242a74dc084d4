/**
 * Skills (PLATFORM.md §4): records, inputs and rows of skills, their versions (with the files'
 * manifest), labels and version references, for both SQL stores. JSON columns are TEXT on both.
 */
import { bool, int, intOrNull, json } from "./columns.js";
import { LATEST_LABEL, type LabelRow } from "./versioned.js";

export type SkillVersionSource = "import" | "plugin" | "skills_apply";

export interface SkillRecord {
  id: string;
  organizationId: string;
  name: string;
  namespace: string | null;
  qualifiedName: string;
  description: string;
  pluginId: string | null;
  latestVersionId: string | null;
  latestVersionNumber: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface SkillFileEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface SkillVersionRecord {
  id: string;
  skillId: string;
  versionNumber: number;
  name: string;
  description: string;
  frontmatter: Record<string, unknown>;
  skillMd: string;
  files: SkillFileEntry[];
  totalSize: number;
  source: SkillVersionSource;
  changeDescription: string | null;
  active: boolean;
  copiedFromVersionId: string | null;
  createdAt: number;
  deactivatedAt: number | null;
}

export interface SkillLabelRecord {
  skillId: string;
  name: string;
  skillVersionId: string | null;
  versionNumber: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Just enough of a version to name it (resolution's hot path). */
export interface SkillVersionRef {
  id: string;
  versionNumber: number;
  description: string;
  active: boolean;
}

/** What a new version holds: the package's fields and file bytes. */
export interface SkillVersionInput {
  name: string;
  description: string;
  frontmatter: Record<string, unknown>;
  skillMd: string;
  files: ReadonlyArray<SkillFileEntry & { bytes: Uint8Array }>;
  totalSize: number;
  source: SkillVersionSource;
  changeDescription?: string | null;
  copiedFromVersionId?: string | null;
}

export interface SkillRow {
  id: string;
  organization_id: string;
  name: string;
  namespace: string | null;
  qualified_name: string;
  description: string;
  plugin_id: string | null;
  latest_version_id: string | null;
  latest_version_number: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export interface SkillVersionRow {
  id: string;
  skill_id: string;
  version_number: unknown;
  name: string;
  description: string;
  frontmatter: string;
  skill_md: string;
  files: string;
  total_size: unknown;
  source: SkillVersionSource;
  change_description: string | null;
  active: unknown;
  copied_from_version_id: string | null;
  created_at: unknown;
  deactivated_at: unknown;
}

export interface SkillVersionRefRow {
  id: string;
  version_number: unknown;
  description: string;
  active: unknown;
}

/** A stored file's row: the bytes are a Buffer (SQLite, node-postgres) or a Uint8Array (PGlite). */
export interface SkillFileRow {
  path: string;
  size: unknown;
  sha256: string;
  content: Uint8Array;
}

/** A skill with its `latest` label's version id and number (`s`, `l`, `lv`): `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM}`. */
export const SKILL_COLUMNS =
  "s.*, l.skill_version_id AS latest_version_id, lv.version_number AS latest_version_number";
export const SKILL_FROM = `skills s
  LEFT JOIN skill_labels l ON l.skill_id = s.id AND l.name = '${LATEST_LABEL}'
  LEFT JOIN skill_versions lv ON lv.id = l.skill_version_id`;

/** Every column of a version but the whole SKILL.md (version listings omit it). */
export const SKILL_VERSION_META =
  "id, skill_id, version_number, name, description, frontmatter, '' AS skill_md, files, total_size, source, change_description, active, copied_from_version_id, created_at, deactivated_at";

export function toSkill(row: SkillRow): SkillRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    namespace: row.namespace,
    qualifiedName: row.qualified_name,
    description: row.description,
    pluginId: row.plugin_id,
    latestVersionId: row.latest_version_id,
    latestVersionNumber: intOrNull(row.latest_version_number),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function toSkillVersion(row: SkillVersionRow): SkillVersionRecord {
  return {
    id: row.id,
    skillId: row.skill_id,
    versionNumber: int(row.version_number),
    name: row.name,
    description: row.description,
    frontmatter: json<Record<string, unknown>>(row.frontmatter),
    skillMd: row.skill_md,
    files: json<SkillFileEntry[]>(row.files),
    totalSize: int(row.total_size),
    source: row.source,
    changeDescription: row.change_description,
    active: bool(row.active),
    copiedFromVersionId: row.copied_from_version_id,
    createdAt: int(row.created_at),
    deactivatedAt: intOrNull(row.deactivated_at),
  };
}

export function toSkillVersionRef(row: SkillVersionRefRow): SkillVersionRef {
  return {
    id: row.id,
    versionNumber: int(row.version_number),
    description: row.description,
    active: bool(row.active),
  };
}

/** A label row as the record, given the number of the version it points at (null with it). */
export function toSkillLabel(row: LabelRow, versionNumber: number | null): SkillLabelRecord {
  return {
    skillId: row.owner_id,
    name: row.name,
    skillVersionId: row.version_id,
    versionNumber,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

/** A stored file with its bytes as a fresh Uint8Array. */
export function toSkillFile(row: SkillFileRow): SkillFileEntry & { bytes: Uint8Array } {
  return { path: row.path, size: int(row.size), sha256: row.sha256, bytes: new Uint8Array(row.content) };
}
