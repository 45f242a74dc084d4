/**
 * Prompts on PostgreSQL: the counterpart of store-sqlite's `PromptStore` (same methods, same
 * answers; rows mapped by @groundwork/store-rows). The system label `latest` points at the
 * newest active version; committing and deactivating move it in the same transaction.
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
  LATEST_LABEL,
  likePattern,
  type PromptFilter,
  type PromptLabelRecord,
  type PromptRecord,
  type PromptRow,
  type PromptType,
  type PromptVersionInput,
  type PromptVersionRecord,
  type PromptVersionRow,
  toPrompt,
  toPromptLabel,
  toPromptVersion,
} from "@groundwork/store-rows";
import { parameters } from "./postgres-family.js";
import { type NumberedLabelRow, PostgresVersionedStore } from "./postgres-versioned-store.js";
import type { SqlClient } from "./sql-client.js";

const PROMPT_COLUMNS = `p.*, l.prompt_version_id AS latest_version_id, v.version_number AS latest_version_number
  FROM prompts p
  LEFT JOIN prompt_labels l ON l.prompt_id = p.id AND l.name = '${LATEST_LABEL}'
  LEFT JOIN prompt_versions v ON v.id = l.prompt_version_id`;

export class PostgresPromptStore extends PostgresVersionedStore<
  PromptVersionRow,
  PromptVersionRecord,
  PromptLabelRecord
> {
  constructor(client: SqlClient, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      client,
      clock,
      ids,
      {
        parent: "prompts",
        owner: "prompt_id",
        versions: "prompt_versions",
        labels: "prompt_labels",
        labelVersion: "prompt_version_id",
        latest: true,
      },
      toPromptVersion,
    );
  }

  /** Runs `work` in one unit of work (a prompt with its first version and labels). */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.atomically(work);
  }

  // ---- prompts ----

  /** Null when the organization has a prompt of that name already. */
  async create(
    organizationId: string,
    input: { name: string; type: PromptType; description?: string | null; tags?: string[] },
  ): Promise<PromptRecord | null> {
    const id = this.ids("prm");
    const now = this.clock.now();
    const created = await this.transactionally(async (tx) => {
      const { rows } = await tx.query(
        `INSERT INTO prompts (id, organization_id, name, type, description, tags, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`,
        [
          id,
          organizationId,
          input.name,
          input.type,
          input.description ?? null,
          JSON.stringify(input.tags ?? []),
          now,
        ],
      );
      if (rows.length > 0) await this.labels.create(id, LATEST_LABEL, null, now);
      return rows.length > 0;
    });
    return created ? this.get(organizationId, id) : null;
  }

  async get(organizationId: string, id: string): Promise<PromptRecord | null> {
    const row = await this.row<PromptRow>(
      `SELECT ${PROMPT_COLUMNS} WHERE p.organization_id = $1 AND p.id = $2`,
      [organizationId, id],
    );
    return row === undefined ? null : toPrompt(row);
  }

  async getByName(organizationId: string, name: string): Promise<PromptRecord | null> {
    const row = await this.row<PromptRow>(
      `SELECT ${PROMPT_COLUMNS} WHERE p.organization_id = $1 AND p.name = $2`,
      [organizationId, name],
    );
    return row === undefined ? null : toPrompt(row);
  }

  /** Newest first. */
  async list(
    organizationId: string,
    filter: PromptFilter,
    page: PageRequest,
  ): Promise<{ items: PromptRecord[]; total: number }> {
    const { values, p } = parameters([organizationId]);
    const clauses: string[] = [];
    if (filter.name !== undefined && filter.name !== "") {
      clauses.push(`${ASCII_LOWER("p.name")} LIKE ${p(likePattern(filter.name))} ESCAPE '\\'`);
    }
    if (filter.tag !== undefined) clauses.push(`jsonb_exists(p.tags::jsonb, ${p(filter.tag)})`);
    if (filter.type !== undefined) clauses.push(`p.type = ${p(filter.type)}`);
    if (filter.label !== undefined) {
      clauses.push(
        `EXISTS (SELECT 1 FROM prompt_labels f WHERE f.prompt_id = p.id AND f.name = ${p(filter.label)} AND f.prompt_version_id IS NOT NULL)`,
      );
    }
    const where = clauses.map((clause) => ` AND ${clause}`).join("");
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM prompts p WHERE p.organization_id = $1${where}`,
      values,
    );
    const rows = await this.rows<PromptRow>(
      `SELECT ${PROMPT_COLUMNS} WHERE p.organization_id = $1${where} ORDER BY p.created_at DESC, p.id DESC
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toPrompt), total: Number(counted?.n ?? 0) };
  }

  /** Null when the prompt is gone; "conflict" when the new name is taken. */
  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string | null; tags?: string[] },
  ): Promise<PromptRecord | null | "conflict"> {
    const current = await this.get(organizationId, id);
    if (current === null) return null;
    const name = changes.name ?? current.name;
    if (name !== current.name && (await this.getByName(organizationId, name)) !== null) return "conflict";
    await this.db.query(
      "UPDATE prompts SET name = $1, description = $2, tags = $3, updated_at = $4 WHERE organization_id = $5 AND id = $6",
      [
        name,
        changes.description === undefined ? current.description : changes.description,
        JSON.stringify(changes.tags ?? current.tags),
        this.clock.now(),
        organizationId,
        id,
      ],
    );
    return this.get(organizationId, id);
  }

  /** Deletes the prompt with all its versions and labels. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const { rows } = await this.db.query(
      "DELETE FROM prompts WHERE organization_id = $1 AND id = $2 RETURNING id",
      [organizationId, id],
    );
    return rows.length > 0;
  }

  // ---- versions ----

  /** Commits a new active version with the next number and moves `latest` to it. */
  async commitVersion(promptId: string, input: PromptVersionInput): Promise<PromptVersionRecord> {
    const id = this.ids("pmv");
    const now = this.clock.now();
    await this.transactionally(async (tx) => {
      await this.versions.insert(
        promptId,
        id,
        {
          prompt: JSON.stringify(input.prompt),
          config: JSON.stringify(input.config),
          variables: JSON.stringify(input.variables),
          change_description: input.changeDescription ?? null,
          copied_from_version_id: input.copiedFromVersionId ?? null,
        },
        now,
      );
      await tx.query("UPDATE prompts SET updated_at = $1 WHERE id = $2", [now, promptId]);
    });
    return (await this.versionById(id)) as PromptVersionRecord;
  }

  /** A version of the prompt by id (active or not). */
  getVersion(promptId: string, versionId: string): Promise<PromptVersionRecord | null> {
    return this.versions.get(promptId, versionId);
  }

  // ---- labels ----

  /** Names of the labels pointing at a version, `latest` first then by name. */
  async labelsOf(versionId: string): Promise<string[]> {
    const rows = await this.rows<{ name: string }>(
      "SELECT name FROM prompt_labels WHERE prompt_version_id = $1 ORDER BY (name = $2) DESC, name",
      [versionId, LATEST_LABEL],
    );
    return rows.map((row) => row.name);
  }

  protected toLabel(row: NumberedLabelRow): PromptLabelRecord {
    return toPromptLabel(row, row.version_number);
  }
}
