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
import {
  LATEST_LABEL,
  likePattern,
  SKILL_COLUMNS,
  SKILL_FROM,
  SKILL_VERSION_META,
  type SkillFileEntry,
  type SkillFileRow,
  type SkillLabelRecord,
  type SkillRecord,
  type SkillRow,
  type SkillVersionInput,
  type SkillVersionRecord,
  type SkillVersionRef,
  type SkillVersionRefRow,
  type SkillVersionSource,
  toSkillVersionRef as toRef,
  toSkill,
  toSkillFile,
  toSkillLabel,
  toSkillVersion as toVersion,
  type SkillVersionRow as VersionRow,
} from "@groundwork/store-rows";
import type { Database } from "better-sqlite3";
import type { LabelRow } from "./label-table.js";
import { VersionedStore } from "./versioned-store.js";

export type {
  SkillFileEntry,
  SkillLabelRecord,
  SkillRecord,
  SkillVersionInput,
  SkillVersionRecord,
  SkillVersionRef,
  SkillVersionSource,
};

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
    return this.versions.page(skillId, page, SKILL_VERSION_META);
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
    ).get(versionId, path) as SkillFileRow | undefined;
    return row === undefined ? null : toSkillFile(row);
  }

  /** Every file of a version with its bytes, by path. */
  files(versionId: string): Array<SkillFileEntry & { bytes: Uint8Array }> {
    return (
      this.sql(
        "SELECT path, size, sha256, content FROM skill_files WHERE skill_version_id = ? ORDER BY path",
      ).all(versionId) as SkillFileRow[]
    ).map(toSkillFile);
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
    ).get(skillId, label) as SkillVersionRefRow | undefined;
    return row === undefined ? null : toRef(row);
  }

  versionRefByNumber(skillId: string, versionNumber: number): SkillVersionRef | null {
    const row = this.sql(
      "SELECT id, version_number, description, active FROM skill_versions WHERE skill_id = ? AND version_number = ?",
    ).get(skillId, versionNumber) as SkillVersionRefRow | undefined;
    return row === undefined ? null : toRef(row);
  }

  protected toLabel(row: LabelRow): SkillLabelRecord {
    return toSkillLabel(row, row.version_id === null ? null : this.versions.numberOf(row.version_id));
  }
}
