/**
 * Extraction schemas on PostgreSQL: the counterpart of store-sqlite's `SchemaStore` (same
 * methods, same answers; rows mapped by @groundwork/store-rows). The system label `latest`
 * points at the newest active version; committing and deactivating move it in the same
 * transaction (the versioned machinery of postgres-versioned-store.ts).
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
  type SchemaLabelRecord,
  type SchemaRecord,
  type SchemaRow,
  type SchemaVersionRecord,
  type SchemaVersionRow,
  toSchema,
  toSchemaLabel,
  toSchemaVersion,
} from "@groundwork/store-rows";
import { parameters } from "./postgres-family.js";
import { type NumberedLabelRow, PostgresVersionedStore } from "./postgres-versioned-store.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresSchemaStore extends PostgresVersionedStore<
  SchemaVersionRow,
  SchemaVersionRecord,
  SchemaLabelRecord
> {
  constructor(client: SqlClient, clock: Clock = systemClock, ids: IdGenerator = defaultIdGenerator) {
    super(
      client,
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
      toSchemaVersion,
    );
  }

  // ---- schemas ----

  async create(
    organizationId: string,
    input: { name: string; description?: string | null },
  ): Promise<SchemaRecord> {
    const id = this.ids("sch");
    const now = this.clock.now();
    await this.transactionally(async (tx) => {
      await tx.query(
        `INSERT INTO schemas (id, organization_id, name, description, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $5)`,
        [id, organizationId, input.name, input.description ?? null, now],
      );
      await this.labels.create(id, LATEST_LABEL, null, now);
    });
    return (await this.get(organizationId, id)) as SchemaRecord;
  }

  async get(organizationId: string, id: string): Promise<SchemaRecord | null> {
    const row = await this.row<SchemaRow>("SELECT * FROM schemas WHERE organization_id = $1 AND id = $2", [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toSchema(row);
  }

  /** Newest first; `search` matches name or description, ASCII case-insensitively (as SQLite's `lower`). */
  async list(
    organizationId: string,
    page: PageRequest,
    search?: string,
  ): Promise<{ items: SchemaRecord[]; total: number }> {
    const { values, p } = parameters([organizationId]);
    let where = "organization_id = $1";
    if (search !== undefined && search !== "") {
      const pattern = p(likePattern(search));
      where += ` AND (${ASCII_LOWER("name")} LIKE ${pattern} ESCAPE '\\'
        OR ${ASCII_LOWER("coalesce(description, '')")} LIKE ${pattern} ESCAPE '\\')`;
    }
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM schemas WHERE ${where}`,
      values,
    );
    const rows = await this.rows<SchemaRow>(
      `SELECT * FROM schemas WHERE ${where} ORDER BY created_at DESC, id DESC
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toSchema), total: Number(counted?.n ?? 0) };
  }

  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string | null },
  ): Promise<SchemaRecord | null> {
    const current = await this.get(organizationId, id);
    if (current === null) return null;
    const row = await this.row<SchemaRow>(
      `UPDATE schemas SET name = $1, description = $2, updated_at = $3 WHERE organization_id = $4 AND id = $5
         RETURNING *`,
      [
        changes.name ?? current.name,
        changes.description === undefined ? current.description : changes.description,
        this.clock.now(),
        organizationId,
        id,
      ],
    );
    return row === undefined ? null : toSchema(row);
  }

  /** Deletes the schema with all its versions and labels. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM schemas WHERE organization_id = $1 AND id = $2 RETURNING 1", [
        organizationId,
        id,
      ])) > 0
    );
  }

  // ---- versions ----

  /** Commits a new active version with the next number and moves `latest` to it. */
  async commitVersion(
    schemaId: string,
    input: {
      jsonSchema: Record<string, unknown>;
      changeDescription?: string | null;
      extractionConfig?: Record<string, unknown> | null;
      copiedFromVersionId?: string | null;
    },
  ): Promise<SchemaVersionRecord> {
    const id = this.ids("scv");
    const now = this.clock.now();
    await this.transactionally(async (tx) => {
      await this.versions.insert(
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
      await tx.query("UPDATE schemas SET updated_at = $1 WHERE id = $2", [now, schemaId]);
    });
    return (await this.versionById(id)) as SchemaVersionRecord;
  }

  /** A version of a schema of the organization (active or not). */
  getVersion(
    organizationId: string,
    schemaId: string,
    versionId: string,
  ): Promise<SchemaVersionRecord | null> {
    return this.versions.getInOrganization(organizationId, schemaId, versionId);
  }

  /** A version by id alone, with its schema's organization (for the support CLI and stored extractions). */
  override async versionById(
    versionId: string,
  ): Promise<(SchemaVersionRecord & { organizationId: string; schemaName: string }) | null> {
    const row = await this.row<SchemaVersionRow & { organization_id: string; schema_name: string }>(
      `SELECT v.*, s.organization_id AS organization_id, s.name AS schema_name
         FROM schema_versions v JOIN schemas s ON s.id = v.schema_id WHERE v.id = $1`,
      [versionId],
    );
    return row === undefined
      ? null
      : { ...toSchemaVersion(row), organizationId: row.organization_id, schemaName: row.schema_name };
  }

  /** Sets the support-managed extraction config of a version (the one mutable part of a version). */
  async setExtractionConfig(versionId: string, config: Record<string, unknown> | null): Promise<boolean> {
    return (
      (await this.changes("UPDATE schema_versions SET extraction_config = $1 WHERE id = $2 RETURNING 1", [
        config === null ? null : JSON.stringify(config),
        versionId,
      ])) > 0
    );
  }

  // ---- labels ----

  protected toLabel(row: NumberedLabelRow): SchemaLabelRecord {
    return toSchemaLabel(row);
  }
}
