/**
 * Skills on PostgreSQL: the counterpart of store-sqlite's `SkillStore` (same methods, same
 * answers; rows mapped by @groundwork/store-rows). The system label `latest` points at the
 * newest active version and the skill's description follows it; committing and deactivating
 * move both in the same transaction (the versioned machinery of postgres-versioned-store.ts,
 * which locks the skill's row before numbering a version). File bytes are BYTEA.
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
  ASCII_LOWER,
  bytes,
  int,
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
  type SkillVersionRow,
  toSkill,
  toSkillFile,
  toSkillLabel,
  toSkillVersion,
  toSkillVersionRef,
} from "@groundwork/store-rows";
import { parameters } from "./postgres-family.js";
import { type NumberedLabelRow, PostgresVersionedStore } from "./postgres-versioned-store.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

/** Files per INSERT statement (5 parameters each, far below PostgreSQL's 65,535). */
const FILES_PER_STATEMENT = 500;

export class PostgresSkillStore extends PostgresVersionedStore<
  SkillVersionRow,
  SkillVersionRecord,
  SkillLabelRecord
> {
  constructor(client: SqlClient, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      client,
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
      toSkillVersion,
    );
  }

  // ---- skills ----

  /** Creates a skill without versions (`latest` points at nothing until the first commit). */
  async create(
    organizationId: string,
    input: { name: string; namespace: string | null; description: string; pluginId?: string | null },
  ): Promise<SkillRecord> {
    const id = this.ids("skl");
    const now = this.clock.now();
    const qualifiedName = input.namespace === null ? input.name : `${input.namespace}:${input.name}`;
    await this.transactionally(async (tx) => {
      await tx.query(
        `INSERT INTO skills (id, organization_id, name, namespace, qualified_name, description, plugin_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [
          id,
          organizationId,
          input.name,
          input.namespace,
          qualifiedName,
          input.description,
          input.pluginId ?? null,
          now,
        ],
      );
      await this.labels.create(id, LATEST_LABEL, null, now);
    });
    return (await this.get(organizationId, id)) as SkillRecord;
  }

  async get(organizationId: string, id: string): Promise<SkillRecord | null> {
    const row = await this.row<SkillRow>(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE s.organization_id = $1 AND s.id = $2`,
      [organizationId, id],
    );
    return row === undefined ? null : toSkill(row);
  }

  async byQualifiedName(organizationId: string, qualifiedName: string): Promise<SkillRecord | null> {
    const row = await this.row<SkillRow>(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE s.organization_id = $1 AND s.qualified_name = $2`,
      [organizationId, qualifiedName],
    );
    return row === undefined ? null : toSkill(row);
  }

  /** Every skill of that (unqualified) name, the null-namespace one first, then by qualified name. */
  async byName(organizationId: string, name: string): Promise<SkillRecord[]> {
    const rows = await this.rows<SkillRow>(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE s.organization_id = $1 AND s.name = $2
         ORDER BY s.namespace IS NOT NULL, s.qualified_name`,
      [organizationId, name],
    );
    return rows.map(toSkill);
  }

  /**
   * By qualified name; `namespace` null = only the null namespace, undefined = all;
   * `search` matches name or description, ASCII case-insensitively (as SQLite's `lower`).
   */
  async list(
    organizationId: string,
    page: PageRequest,
    filter: { namespace?: string | null; search?: string } = {},
  ): Promise<{ items: SkillRecord[]; total: number }> {
    const { values, p } = parameters([organizationId]);
    const clauses = ["s.organization_id = $1"];
    if (filter.namespace === null) clauses.push("s.namespace IS NULL");
    else if (filter.namespace !== undefined) clauses.push(`s.namespace = ${p(filter.namespace)}`);
    if (filter.search !== undefined && filter.search !== "") {
      const pattern = p(likePattern(filter.search));
      clauses.push(
        `(${ASCII_LOWER("s.name")} LIKE ${pattern} ESCAPE '\\' OR ${ASCII_LOWER("s.description")} LIKE ${pattern} ESCAPE '\\')`,
      );
    }
    const where = clauses.join(" AND ");
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM skills s WHERE ${where}`,
      values,
    );
    const rows = await this.rows<SkillRow>(
      `SELECT ${SKILL_COLUMNS} FROM ${SKILL_FROM} WHERE ${where} ORDER BY s.qualified_name
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toSkill), total: int(counted?.n ?? 0) };
  }

  /** Deletes the skill with all its versions, files and labels. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM skills WHERE organization_id = $1 AND id = $2 RETURNING 1", [
        organizationId,
        id,
      ])) > 0
    );
  }

  /** Bytes of all skill files of the organization (what skills add to its stored bytes). */
  async storedBytes(organizationId: string): Promise<number> {
    const row = await this.row<{ n: unknown }>(
      `SELECT coalesce(sum(v.total_size), 0) AS n FROM skill_versions v JOIN skills s ON s.id = v.skill_id
         WHERE s.organization_id = $1`,
      [organizationId],
    );
    return int(row?.n ?? 0);
  }

  // ---- versions ----

  /** Commits a new active version with the next number and moves `latest` (and the description) to it. */
  async commitVersion(skillId: string, input: SkillVersionInput): Promise<SkillVersionRecord> {
    const id = this.ids("skv");
    const now = this.clock.now();
    await this.transactionally(async (tx) => {
      const manifest = input.files.map(({ path, size, sha256 }) => ({ path, size, sha256 }));
      await this.versions.insert(
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
      await insertFiles(tx, id, input.files);
      await this.followLatest(tx, skillId, now);
    });
    return (await this.versionById(id)) as SkillVersionRecord;
  }

  /** A version of a skill of the organization (active or not). */
  getVersion(organizationId: string, skillId: string, versionId: string): Promise<SkillVersionRecord | null> {
    return this.versions.getInOrganization(organizationId, skillId, versionId);
  }

  /** Newest first, without `skillMd` (an empty string). */
  override listVersions(
    skillId: string,
    page: PageRequest,
  ): Promise<{ items: SkillVersionRecord[]; total: number }> {
    return this.versions.page(skillId, page, SKILL_VERSION_META);
  }

  /** Soft delete: the version stays readable but inactive; `latest` moves back to the newest active one. */
  override deactivateVersion(skillId: string, versionId: string): Promise<boolean> {
    const now = this.clock.now();
    return this.transactionally(async (tx) => {
      const changed = await this.versions.deactivate(skillId, versionId, now);
      if (changed) await this.followLatest(tx, skillId, now);
      return changed;
    });
  }

  /** One file's bytes of a version; null when the version has no such path. */
  async fileContent(
    versionId: string,
    path: string,
  ): Promise<(SkillFileEntry & { bytes: Uint8Array }) | null> {
    const row = await this.row<SkillFileRow>(
      "SELECT path, size, sha256, content FROM skill_files WHERE skill_version_id = $1 AND path = $2",
      [versionId, path],
    );
    return row === undefined ? null : toSkillFile(row);
  }

  /** Every file of a version with its bytes, by path (bytewise). */
  async files(versionId: string): Promise<Array<SkillFileEntry & { bytes: Uint8Array }>> {
    const rows = await this.rows<SkillFileRow>(
      "SELECT path, size, sha256, content FROM skill_files WHERE skill_version_id = $1 ORDER BY path",
      [versionId],
    );
    return rows.map(toSkillFile);
  }

  /** The skill's description follows `latest` (the version table has just moved it). */
  private async followLatest(tx: SqlQueryable, skillId: string, now: number): Promise<void> {
    // The newest active version's description, or the skill's own while none is active.
    await tx.query(
      `UPDATE skills SET updated_at = $1, description = coalesce(
         (SELECT v.description FROM skill_versions v WHERE v.skill_id = $2 AND v.active
            ORDER BY v.version_number DESC LIMIT 1),
         description)
       WHERE id = $2`,
      [now, skillId],
    );
  }

  // ---- labels ----

  /** The version a label points at, by skill and label name, in one query (resolution's hot path). */
  async labelledVersionRef(skillId: string, label: string): Promise<SkillVersionRef | null> {
    const row = await this.row<SkillVersionRefRow>(
      `SELECT v.id, v.version_number, v.description, v.active FROM skill_labels l
         JOIN skill_versions v ON v.id = l.skill_version_id WHERE l.skill_id = $1 AND l.name = $2`,
      [skillId, label],
    );
    return row === undefined ? null : toSkillVersionRef(row);
  }

  async versionRefByNumber(skillId: string, versionNumber: number): Promise<SkillVersionRef | null> {
    const row = await this.row<SkillVersionRefRow>(
      "SELECT id, version_number, description, active FROM skill_versions WHERE skill_id = $1 AND version_number = $2",
      [skillId, versionNumber],
    );
    return row === undefined ? null : toSkillVersionRef(row);
  }

  protected toLabel(row: NumberedLabelRow): SkillLabelRecord {
    return toSkillLabel(row, row.version_number);
  }
}

/** A version's files, a few hundred rows per statement. */
async function insertFiles(
  tx: SqlQueryable,
  versionId: string,
  files: SkillVersionInput["files"],
): Promise<void> {
  for (let start = 0; start < files.length; start += FILES_PER_STATEMENT) {
    const { values, p } = parameters([versionId]);
    const rows = files
      .slice(start, start + FILES_PER_STATEMENT)
      .map((file) => `($1, ${p(file.path)}, ${p(file.size)}, ${p(file.sha256)}, ${p(bytes(file.bytes))})`);
    await tx.query(
      `INSERT INTO skill_files (skill_version_id, path, size, sha256, content) VALUES ${rows.join(", ")}`,
      values,
    );
  }
}
