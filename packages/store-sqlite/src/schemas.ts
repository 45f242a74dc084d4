/**
 * Extraction schemas, their immutable numbered versions and their labels (spec document 2). The
 * system label `latest` always points at the newest active version (NULL while there is none);
 * committing, activating and deactivating keep it there in the same transaction.
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
  likePattern,
  type SchemaLabelRecord,
  type SchemaRecord,
  type SchemaRow,
  type SchemaVersionRecord,
  toSchema,
  toSchemaLabel,
  toSchemaVersion as toVersion,
  type SchemaVersionRow as VersionRow,
} from "@groundwork/store-rows";
import type { Database } from "better-sqlite3";
import type { LabelRow } from "./label-table.js";
import { LATEST_LABEL } from "./version-table.js";
import { VersionedStore } from "./versioned-store.js";

export type { SchemaLabelRecord, SchemaRecord, SchemaVersionRecord };
export { LATEST_LABEL, likePattern };

export class SchemaStore extends VersionedStore<VersionRow, SchemaVersionRecord, SchemaLabelRecord> {
  constructor(db: Database, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      db,
      clock,
      ids,
      {
        parent: "schemas",
        owner: "schema_id",
        versions: "schema_versions",
        labels: "schema_labels",
        labelVersion: "schema_version_id",
        latest: true,
      },
      toVersion,
    );
  }

  // ---- schemas ----

  create(organizationId: string, input: { name: string; description?: string | null }): SchemaRecord {
    const id = this.ids("sch");
    const now = this.clock.now();
    this.db.transaction(() => {
      this.sql(
        "INSERT INTO schemas (id, organization_id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(id, organizationId, input.name, input.description ?? null, now, now);
      this.labels.create(id, LATEST_LABEL, null, now);
    })();
    return this.get(organizationId, id) as SchemaRecord;
  }

  get(organizationId: string, id: string): SchemaRecord | null {
    const row = this.sql("SELECT * FROM schemas WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as SchemaRow | undefined;
    return row === undefined ? null : toSchema(row);
  }

  /** Newest first; `search` matches name or description, case-insensitively. */
  list(organizationId: string, page: PageRequest, search?: string): { items: SchemaRecord[]; total: number } {
    const filter =
      search === undefined || search === ""
        ? { sql: "", params: [] as string[] }
        : {
            sql: " AND (lower(name) LIKE ? ESCAPE '\\' OR lower(coalesce(description, '')) LIKE ? ESCAPE '\\')",
            params: [likePattern(search), likePattern(search)],
          };
    const total = (
      this.sql(`SELECT count(*) AS n FROM schemas WHERE organization_id = ?${filter.sql}`).get(
        organizationId,
        ...filter.params,
      ) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT * FROM schemas WHERE organization_id = ?${filter.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(organizationId, ...filter.params, page.size, pageOffset(page)) as SchemaRow[];
    return { items: rows.map(toSchema), total };
  }

  update(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string | null },
  ): SchemaRecord | null {
    const current = this.get(organizationId, id);
    if (current === null) return null;
    this.sql(
      "UPDATE schemas SET name = ?, description = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
    ).run(
      changes.name ?? current.name,
      changes.description === undefined ? current.description : changes.description,
      this.clock.now(),
      organizationId,
      id,
    );
    return this.get(organizationId, id);
  }

  /** Deletes the schema with all its versions and labels. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM schemas WHERE organization_id = ? AND id = ?").run(organizationId, id).changes > 0
    );
  }

  // ---- versions ----

  /** Commits a new active version with the next number and moves `latest` to it. */
  commitVersion(
    schemaId: string,
    input: {
      jsonSchema: Record<string, unknown>;
      changeDescription?: string | null;
      extractionConfig?: Record<string, unknown> | null;
      copiedFromVersionId?: string | null;
    },
  ): SchemaVersionRecord {
    const id = this.ids("scv");
    const now = this.clock.now();
    this.db.transaction(() => {
      this.versions.insert(
        schemaId,
        id,
        {
          json_schema: JSON.stringify(input.jsonSchema),
          change_description: input.changeDescription ?? null,
          extraction_config: input.extractionConfig == null ? null : JSON.stringify(input.extractionConfig),
          copied_from_version_id: input.copiedFromVersionId ?? null,
        },
        now,
      );
      this.sql("UPDATE schemas SET updated_at = ? WHERE id = ?").run(now, schemaId);
    })();
    return this.versionById(id) as SchemaVersionRecord;
  }

  /** A version of a schema of the organization (active or not). */
  getVersion(organizationId: string, schemaId: string, versionId: string): SchemaVersionRecord | null {
    return this.versions.getInOrganization(organizationId, schemaId, versionId);
  }

  /** A version by id alone, with its schema's organization (for the support CLI and stored extractions). */
  override versionById(
    versionId: string,
  ): (SchemaVersionRecord & { organizationId: string; schemaName: string }) | null {
    const row = this.sql(
      `SELECT v.*, s.organization_id AS organization_id, s.name AS schema_name
         FROM schema_versions v JOIN schemas s ON s.id = v.schema_id WHERE v.id = ?`,
    ).get(versionId) as (VersionRow & { organization_id: string; schema_name: string }) | undefined;
    return row === undefined
      ? null
      : { ...toVersion(row), organizationId: row.organization_id, schemaName: row.schema_name };
  }

  /** Sets the support-managed extraction config of a version (the one mutable part of a version). */
  setExtractionConfig(versionId: string, config: Record<string, unknown> | null): boolean {
    return (
      this.sql("UPDATE schema_versions SET extraction_config = ? WHERE id = ?").run(
        config === null ? null : JSON.stringify(config),
        versionId,
      ).changes > 0
    );
  }

  // ---- labels ----

  protected toLabel(row: LabelRow): SchemaLabelRecord {
    return toSchemaLabel(row);
  }
}
