/**
 * Prompts (PLATFORM.md §7): text and chat prompts, their immutable numbered versions and
 * their labels. The system label `latest` always points at the newest active version (NULL
 * while there is none); committing and deactivating keep it there in the same transaction.
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
  type PromptContent,
  type PromptFilter,
  type PromptLabelRecord,
  type PromptMessage,
  type PromptRecord,
  type PromptRow,
  type PromptType,
  type PromptVersionInput,
  type PromptVersionRecord,
  toPrompt,
  toPromptLabel,
  toPromptVersion as toVersion,
  type PromptVersionRow as VersionRow,
} from "@groundwork/store-rows";
import type { Database } from "better-sqlite3";
import type { LabelRow } from "./label-table.js";
import { LATEST_LABEL, likePattern } from "./schemas.js";
import { VersionedStore } from "./versioned-store.js";

export type {
  PromptContent,
  PromptFilter,
  PromptLabelRecord,
  PromptMessage,
  PromptRecord,
  PromptType,
  PromptVersionInput,
  PromptVersionRecord,
};

const PROMPT_COLUMNS = `p.*, l.prompt_version_id AS latest_version_id, v.version_number AS latest_version_number
  FROM prompts p
  LEFT JOIN prompt_labels l ON l.prompt_id = p.id AND l.name = '${LATEST_LABEL}'
  LEFT JOIN prompt_versions v ON v.id = l.prompt_version_id`;

export class PromptStore extends VersionedStore<VersionRow, PromptVersionRecord, PromptLabelRecord> {
  constructor(db: Database, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      db,
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
      toVersion,
    );
  }

  /** Runs `work` in one transaction (a prompt with its first version and labels). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  // ---- prompts ----

  /** Null when the organization has a prompt of that name already. */
  create(
    organizationId: string,
    input: { name: string; type: PromptType; description?: string | null; tags?: string[] },
  ): PromptRecord | null {
    const id = this.ids("prm");
    const now = this.clock.now();
    const created = this.transaction(() => {
      const inserted = this.sql(
        `INSERT INTO prompts (id, organization_id, name, type, description, tags, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, name) DO NOTHING`,
      ).run(
        id,
        organizationId,
        input.name,
        input.type,
        input.description ?? null,
        JSON.stringify(input.tags ?? []),
        now,
        now,
      ).changes;
      if (inserted > 0) this.labels.create(id, LATEST_LABEL, null, now);
      return inserted > 0;
    });
    return created ? this.get(organizationId, id) : null;
  }

  get(organizationId: string, id: string): PromptRecord | null {
    const row = this.sql(`SELECT ${PROMPT_COLUMNS} WHERE p.organization_id = ? AND p.id = ?`).get(
      organizationId,
      id,
    ) as PromptRow | undefined;
    return row === undefined ? null : toPrompt(row);
  }

  getByName(organizationId: string, name: string): PromptRecord | null {
    const row = this.sql(`SELECT ${PROMPT_COLUMNS} WHERE p.organization_id = ? AND p.name = ?`).get(
      organizationId,
      name,
    ) as PromptRow | undefined;
    return row === undefined ? null : toPrompt(row);
  }

  /** Newest first. */
  list(
    organizationId: string,
    filter: PromptFilter,
    page: PageRequest,
  ): { items: PromptRecord[]; total: number } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.name !== undefined && filter.name !== "") {
      clauses.push("lower(p.name) LIKE ? ESCAPE '\\'");
      params.push(likePattern(filter.name));
    }
    if (filter.tag !== undefined) {
      clauses.push("EXISTS (SELECT 1 FROM json_each(p.tags) t WHERE t.value = ?)");
      params.push(filter.tag);
    }
    if (filter.type !== undefined) {
      clauses.push("p.type = ?");
      params.push(filter.type);
    }
    if (filter.label !== undefined) {
      clauses.push(
        "EXISTS (SELECT 1 FROM prompt_labels f WHERE f.prompt_id = p.id AND f.name = ? AND f.prompt_version_id IS NOT NULL)",
      );
      params.push(filter.label);
    }
    const where = clauses.map((clause) => ` AND ${clause}`).join("");
    const total = (
      this.sql(`SELECT count(*) AS n FROM prompts p WHERE p.organization_id = ?${where}`).get(
        organizationId,
        ...params,
      ) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT ${PROMPT_COLUMNS} WHERE p.organization_id = ?${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
    ).all(organizationId, ...params, page.size, pageOffset(page)) as PromptRow[];
    return { items: rows.map(toPrompt), total };
  }

  /** Null when the prompt is gone; "conflict" when the new name is taken. */
  update(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string | null; tags?: string[] },
  ): PromptRecord | null | "conflict" {
    const current = this.get(organizationId, id);
    if (current === null) return null;
    const name = changes.name ?? current.name;
    if (name !== current.name && this.getByName(organizationId, name) !== null) return "conflict";
    this.sql(
      "UPDATE prompts SET name = ?, description = ?, tags = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
    ).run(
      name,
      changes.description === undefined ? current.description : changes.description,
      JSON.stringify(changes.tags ?? current.tags),
      this.clock.now(),
      organizationId,
      id,
    );
    return this.get(organizationId, id);
  }

  /** Deletes the prompt with all its versions and labels. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM prompts WHERE organization_id = ? AND id = ?").run(organizationId, id).changes > 0
    );
  }

  // ---- versions ----

  /** Commits a new active version with the next number and moves `latest` to it. */
  commitVersion(promptId: string, input: PromptVersionInput): PromptVersionRecord {
    const id = this.ids("pmv");
    const now = this.clock.now();
    this.transaction(() => {
      this.versions.insert(
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
      this.sql("UPDATE prompts SET updated_at = ? WHERE id = ?").run(now, promptId);
    });
    return this.versionById(id) as PromptVersionRecord;
  }

  /** A version of the prompt by id (active or not). */
  getVersion(promptId: string, versionId: string): PromptVersionRecord | null {
    return this.versions.get(promptId, versionId);
  }

  // ---- labels ----

  /** Names of the labels pointing at a version, `latest` first then by name. */
  labelsOf(versionId: string): string[] {
    return (
      this.sql("SELECT name FROM prompt_labels WHERE prompt_version_id = ? ORDER BY name = ? DESC, name").all(
        versionId,
        LATEST_LABEL,
      ) as Array<{ name: string }>
    ).map((row) => row.name);
  }

  protected toLabel(row: LabelRow): PromptLabelRecord {
    return toPromptLabel(row, row.version_id === null ? null : this.versions.numberOf(row.version_id));
  }
}
