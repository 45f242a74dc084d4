/**
 * Skills (PLATFORM.md §4): a skill per qualified name and organization, its
 * immutable numbered versions with their files, and its labels. The system label
 * `latest` always points at the newest active version (NULL while there is none)
 * and the skill's description follows it; committing, activating and deactivating
 * keep both there in the same transaction. The package rules live in the agents
 * engine and the platform's skill service; this store reads and writes rows.
 */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type PageRequest,
  pageOffset,
  systemClock,
} from "@groundwork/core";
import type { Database } from "better-sqlite3";
import type { LabelRow } from "./label-table.js";
import { LATEST_LABEL, likePattern } from "./schemas.js";
import { VersionedStore } from "./versioned-store.js";

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

interface SkillRow {
  id: string;
  organization_id: string;
  name: string;
  namespace: string | null;
  qualified_name: string;
  description: string;
  plugin_id: string | null;
  latest_version_id: string | null;
  latest_version_number: number | null;
  created_at: number;
  updated_at: number;
}

interface VersionRow {
  id: string;
  skill_id: string;
  version_number: number;
  name: string;
  description: string;
  frontmatter: string;
  skill_md: string;
  files: string;
  total_size: number;
  source: SkillVersionSource;
  change_description: string | null;
  active: number;
  copied_from_version_id: string | null;
  created_at: number;
  deactivated_at: number | null;
}

interface RefRow {
  id: string;
  version_number: number;
  description: string;
  active: number;
}

function toRef(row: RefRow): SkillVersionRef {
  return {
    id: row.id,
    versionNumber: row.version_number,
    description: row.description,
    active: row.active === 1,
  };
}

const SKILL_COLUMNS = `s.*, l.skill_version_id AS latest_version_id, lv.version_number AS latest_version_number`;
const SKILL_FROM = `skills s
  LEFT JOIN skill_labels l ON l.skill_id = s.id AND l.name = '${LATEST_LABEL}'
  LEFT JOIN skill_versions lv ON lv.id = l.skill_version_id`;
/** Every column but the whole SKILL.md (version listings omit it). */
const VERSION_META =
  "id, skill_id, version_number, name, description, frontmatter, '' AS skill_md, files, total_size, source, change_description, active, copied_from_version_id, created_at, deactivated_at";

function toSkill(row: SkillRow): SkillRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    namespace: row.namespace,
    qualifiedName: row.qualified_name,
    description: row.description,
    pluginId: row.plugin_id,
    latestVersionId: row.latest_version_id,
    latestVersionNumber: row.latest_version_number,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toVersion(row: VersionRow): SkillVersionRecord {
  return {
    id: row.id,
    skillId: row.skill_id,
    versionNumber: row.version_number,
    name: row.name,
    description: row.description,
    frontmatter: JSON.parse(row.frontmatter) as Record<string, unknown>,
    skillMd: row.skill_md,
    files: JSON.parse(row.files) as SkillFileEntry[],
    totalSize: row.total_size,
    source: row.source,
    changeDescription: row.change_description,
    active: row.active === 1,
    copiedFromVersionId: row.copied_from_version_id,
    createdAt: row.created_at,
    deactivatedAt: row.deactivated_at,
  };
}

export class SkillStore extends VersionedStore<VersionRow, SkillVersionRecord, SkillLabelRecord> {
  constructor(db: Database, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      db,
      clock,
      ids,
      {
        parent: "skills",
        owner: "skill_id",
        versions: "skill_versions",
        labels: "skill_labels",
        labelVersion: "skill_version_id",
        latest: true,
      },
      toVersion,
    );
  }

  // ---- skills ----

  /** Creates a skill without versions (`latest` points at nothing until the first commit). */
  create(
    organizationId: string,
    input: { name: string; namespace: string | null; description: string; pluginId?: string | null },
  ): SkillRecord {
    const id = this.ids("skl");
    const now = this.clock.now();
    const qualifiedName = input.namespace === null ? input.name : `${input.namespace}:${input.name}`;
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO skills (id, organization_id, name, namespace, qualified_name, description, plugin_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        organizationId,
        input.name,
        input.namespace,
        qualifiedName,
        input.description,
        input.pluginId ?? null,
        now,
        now,
      );
      this.labels.create(id, LATEST_LABEL, null, now);
    })();
    return this.get(organizationId, id) as SkillRecord;
  }

  get(organizationId: string, id: string): SkillRecord | null {
    const row = this.sql(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE s.organization_id = ? AND s.id = ?`,
    ).get(organizationId, id) as SkillRow | undefined;
    return row === undefined ? null : toSkill(row);
  }

  byQualifiedName(organizationId: string, qualifiedName: string): SkillRecord | null {
    const row = this.sql(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE s.organization_id = ? AND s.qualified_name = ?`,
    ).get(organizationId, qualifiedName) as SkillRow | undefined;
    return row === undefined ? null : toSkill(row);
  }

  /** Every skill of that (unqualified) name, the null-namespace one first, then by qualified name. */
  byName(organizationId: string, name: string): SkillRecord[] {
    return (
      this.sql(
        `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE s.organization_id = ? AND s.name = ?
           ORDER BY s.namespace IS NOT NULL, s.qualified_name`,
      ).all(organizationId, name) as SkillRow[]
    ).map(toSkill);
  }

  /**
   * By qualified name; `namespace` null = only the null namespace, undefined = all;
   * `search` matches name or description case-insensitively.
   */
  list(
    organizationId: string,
    page: PageRequest,
    filter: { namespace?: string | null; search?: string } = {},
  ): { items: SkillRecord[]; total: number } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.namespace === null) clauses.push("s.namespace IS NULL");
    else if (filter.namespace !== undefined) {
      clauses.push("s.namespace = ?");
      params.push(filter.namespace);
    }
    if (filter.search !== undefined && filter.search !== "") {
      clauses.push("(lower(s.name) LIKE ? ESCAPE '\\' OR lower(s.description) LIKE ? ESCAPE '\\')");
      params.push(likePattern(filter.search), likePattern(filter.search));
    }
    const where = ["s.organization_id = ?", ...clauses].join(" AND ");
    const total = (
      this.sql(`SELECT count(*) AS n FROM skills s WHERE ${where}`).get(organizationId, ...params) as {
        n: number;
      }
    ).n;
    const rows = this.sql(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE ${where} ORDER BY s.qualified_name LIMIT ? OFFSET ?`,
    ).all(organizationId, ...params, page.size, pageOffset(page)) as SkillRow[];
    return { items: rows.map(toSkill), total };
  }

  /** Deletes the skill with all its versions, files and labels. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM skills WHERE organization_id = ? AND id = ?").run(organizationId, id).changes > 0
    );
  }

  /** Bytes of all skill files of the organization (what skills add to its stored bytes). */
  storedBytes(organizationId: string): number {
    return (
      this.sql(
        `SELECT coalesce(sum(v.total_size), 0) AS n FROM skill_versions v JOIN skills s ON s.id = v.skill_id
           WHERE s.organization_id = ?`,
      ).get(organizationId) as { n: number }
    ).n;
  }

  // ---- versions ----

  /** Commits a new active version with the next number and moves `latest` (and the description) to it. */
  commitVersion(skillId: string, input: SkillVersionInput): SkillVersionRecord {
    const id = this.ids("skv");
    const now = this.clock.now();
    this.db.transaction(() => {
      const manifest = input.files.map(({ path, size, sha256 }) => ({ path, size, sha256 }));
      this.versions.insert(
        skillId,
        id,
        {
          name: input.name,
          description: input.description,
          frontmatter: JSON.stringify(input.frontmatter),
          skill_md: input.skillMd,
          files: JSON.stringify(manifest),
          total_size: input.totalSize,
          source: input.source,
          change_description: input.changeDescription ?? null,
          copied_from_version_id: input.copiedFromVersionId ?? null,
        },
        now,
      );
      const insertFile = this.sql(
        "INSERT INTO skill_files (skill_version_id, path, size, sha256, content) VALUES (?, ?, ?, ?, ?)",
      );
      for (const file of input.files) insertFile.run(id, file.path, file.size, file.sha256, file.bytes);
      this.followLatest(skillId, now);
    })();
    return this.versionById(id) as SkillVersionRecord;
  }

  /** A version of a skill of the organization (active or not). */
  getVersion(organizationId: string, skillId: string, versionId: string): SkillVersionRecord | null {
    return this.versions.getInOrganization(organizationId, skillId, versionId);
  }

  /** Newest first, without `skillMd` (an empty string). */
  override listVersions(skillId: string, page: PageRequest): { items: SkillVersionRecord[]; total: number } {
    return this.versions.page(skillId, page, VERSION_META);
  }

  /** Soft delete: the version stays readable but inactive; `latest` moves back to the newest active one. */
  override deactivateVersion(skillId: string, versionId: string): boolean {
    const now = this.clock.now();
    return this.db.transaction(() => {
      const changed = this.versions.deactivate(skillId, versionId, now);
      if (changed) this.followLatest(skillId, now);
      return changed;
    })();
  }

  /** One file's bytes of a version; null when the version has no such path. */
  fileContent(versionId: string, path: string): (SkillFileEntry & { bytes: Uint8Array }) | null {
    const row = this.sql(
      "SELECT path, size, sha256, content FROM skill_files WHERE skill_version_id = ? AND path = ?",
    ).get(versionId, path) as { path: string; size: number; sha256: string; content: Buffer } | undefined;
    return row === undefined
      ? null
      : { path: row.path, size: row.size, sha256: row.sha256, bytes: new Uint8Array(row.content) };
  }

  /** Every file of a version with its bytes, by path. */
  files(versionId: string): Array<SkillFileEntry & { bytes: Uint8Array }> {
    return (
      this.sql(
        "SELECT path, size, sha256, content FROM skill_files WHERE skill_version_id = ? ORDER BY path",
      ).all(versionId) as Array<{ path: string; size: number; sha256: string; content: Buffer }>
    ).map((row) => ({
      path: row.path,
      size: row.size,
      sha256: row.sha256,
      bytes: new Uint8Array(row.content),
    }));
  }

  /** The skill's description follows `latest` (the version table has just moved it). */
  private followLatest(skillId: string, now: number): void {
    const newest = this.versions.newestActive<{ description: string }>(skillId, "description");
    if (newest === undefined) this.sql("UPDATE skills SET updated_at = ? WHERE id = ?").run(now, skillId);
    else
      this.sql("UPDATE skills SET description = ?, updated_at = ? WHERE id = ?").run(
        newest.description,
        now,
        skillId,
      );
  }

  // ---- labels ----

  /** The version a label points at, by skill and label name, in one query (resolution's hot path). */
  labelledVersionRef(skillId: string, label: string): SkillVersionRef | null {
    const row = this.sql(
      `SELECT v.id, v.version_number, v.description, v.active FROM skill_labels l
         JOIN skill_versions v ON v.id = l.skill_version_id WHERE l.skill_id = ? AND l.name = ?`,
    ).get(skillId, label) as RefRow | undefined;
    return row === undefined ? null : toRef(row);
  }

  versionRefByNumber(skillId: string, versionNumber: number): SkillVersionRef | null {
    const row = this.sql(
      "SELECT id, version_number, description, active FROM skill_versions WHERE skill_id = ? AND version_number = ?",
    ).get(skillId, versionNumber) as RefRow | undefined;
    return row === undefined ? null : toRef(row);
  }

  protected toLabel(row: LabelRow): SkillLabelRecord {
    return {
      skillId: row.owner_id,
      name: row.name,
      skillVersionId: row.version_id,
      versionNumber: row.version_id === null ? null : this.versions.numberOf(row.version_id),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}
