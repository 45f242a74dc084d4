/**
 * The machinery of versioned resources (schemas, prompts, skills, agents) on PostgreSQL, the
 * counterpart of store-sqlite's label-table.ts, version-table.ts and versioned-store.ts, once
 * for every such family: labels (named pointers to versions), immutable numbered versions
 * (numbers count up from 1 per owner; deactivating is a soft delete; `latest` follows the
 * newest active version), and the label and version methods the stores share. Writes run on
 * the caller's connection (its unit or transaction) as SQLite's run in the caller's transaction.
 */
import type { Clock, IdGenerator, PageRequest } from "@groundwork/core";
import { pageOffset } from "@groundwork/core";
import { int, intOrNull, LATEST_LABEL, type LabelRow } from "@groundwork/store-rows";
import { PostgresFamily } from "./postgres-family.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

export interface PostgresVersionedShape {
  /** The resources' table, e.g. `prompts`. */
  parent: string;
  /** Column of the resource's id in the versions and labels tables, e.g. `prompt_id`. */
  owner: string;
  /** The versions table, e.g. `prompt_versions`. */
  versions: string;
  /** The labels table, e.g. `prompt_labels`. */
  labels: string;
  /** Column of the version id in the labels table, e.g. `prompt_version_id`. */
  labelVersion: string;
  /** Whether the resource keeps the system label `latest` on its newest active version (agents do not). */
  latest: boolean;
}

/** A label row with the number of the version it points at (null with it). */
export type NumberedLabelRow = LabelRow & { version_number: number | null };

/** A value node-postgres binds as is. */
export type PostgresValue = string | number | boolean | Buffer | null;

/** Labels of one resource kind; every call runs on the connection `db()` answers. */
export class PostgresLabelTable {
  private readonly columns: string;

  constructor(
    private readonly db: () => SqlQueryable,
    private readonly clock: Clock,
    private readonly shape: PostgresVersionedShape,
  ) {
    const { owner, labelVersion, versions } = shape;
    this.columns = `l.${owner} AS owner_id, l.name, l.${labelVersion} AS version_id, l.created_at, l.updated_at,
      (SELECT v.version_number FROM ${versions} v WHERE v.id = l.${labelVersion}) AS version_number`;
  }

  private async read(where: string, params: unknown[], order = ""): Promise<NumberedLabelRow[]> {
    const { rows } = await this.db().query<Record<string, unknown>>(
      `SELECT ${this.columns} FROM ${this.shape.labels} l WHERE ${where}${order}`,
      params,
    );
    return rows.map((row) => ({
      owner_id: row.owner_id as string,
      name: row.name as string,
      version_id: row.version_id as string | null,
      created_at: int(row.created_at),
      updated_at: int(row.updated_at),
      version_number: intOrNull(row.version_number),
    }));
  }

  /** By name (bytewise), after `latest` where the resource keeps it. */
  list(ownerId: string): Promise<NumberedLabelRow[]> {
    const first = this.shape.latest ? LATEST_LABEL : null;
    return this.read(
      `l.${this.shape.owner} = $1`,
      [ownerId, first],
      " ORDER BY (l.name = $2) IS TRUE DESC, l.name",
    );
  }

  async get(ownerId: string, name: string): Promise<NumberedLabelRow | null> {
    return (await this.read(`l.${this.shape.owner} = $1 AND l.name = $2`, [ownerId, name]))[0] ?? null;
  }

  /** False when a label of that name exists already. */
  async create(
    ownerId: string,
    name: string,
    versionId: string | null,
    now = this.clock.now(),
  ): Promise<boolean> {
    const { labels, owner, labelVersion } = this.shape;
    const { rows } = await this.db().query(
      `INSERT INTO ${labels} (${owner}, name, ${labelVersion}, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (${owner}, name) DO NOTHING RETURNING name`,
      [ownerId, name, versionId, now],
    );
    return rows.length > 0;
  }

  /** Points the label at `versionId`, creating it when missing (the system label `latest`). */
  async set(ownerId: string, name: string, versionId: string | null, now = this.clock.now()): Promise<void> {
    const { labels, owner, labelVersion } = this.shape;
    await this.db().query(
      `INSERT INTO ${labels} (${owner}, name, ${labelVersion}, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (${owner}, name) DO UPDATE SET ${labelVersion} = excluded.${labelVersion}, updated_at = excluded.updated_at`,
      [ownerId, name, versionId, now],
    );
  }

  async update(ownerId: string, name: string, versionId: string | null): Promise<boolean> {
    const { labels, owner, labelVersion } = this.shape;
    const { rows } = await this.db().query(
      `UPDATE ${labels} SET ${labelVersion} = $1, updated_at = $2 WHERE ${owner} = $3 AND name = $4 RETURNING name`,
      [versionId, this.clock.now(), ownerId, name],
    );
    return rows.length > 0;
  }

  async delete(ownerId: string, name: string): Promise<boolean> {
    const { labels, owner } = this.shape;
    const { rows } = await this.db().query(
      `DELETE FROM ${labels} WHERE ${owner} = $1 AND name = $2 RETURNING name`,
      [ownerId, name],
    );
    return rows.length > 0;
  }
}

/** The numbered versions of one resource kind; every call runs on the connection `db()` answers. */
export class PostgresVersionTable<Row extends { id: string }, Version> {
  constructor(
    private readonly db: () => SqlQueryable,
    private readonly shape: PostgresVersionedShape,
    private readonly toRecord: (row: Row) => Version,
    private readonly latestLabels?: PostgresLabelTable,
  ) {}

  private async first(text: string, params: unknown[]): Promise<Version | null> {
    const row = (await this.db().query<Row>(text, params)).rows[0];
    return row === undefined ? null : this.toRecord(row);
  }

  /**
   * Inserts an active version with the next number and moves `latest` to it. Run it in a
   * transaction: the owner's row is locked first, so two commits never take one number.
   * `fields` are the resource's own columns (names from the store's code, never from input).
   */
  async insert(
    ownerId: string,
    id: string,
    fields: Record<string, PostgresValue>,
    now: number,
  ): Promise<number> {
    const { versions, owner, parent } = this.shape;
    await this.db().query(`SELECT 1 FROM ${parent} WHERE id = $1 FOR UPDATE`, [ownerId]);
    const next = await this.db().query<{ n: unknown }>(
      `SELECT coalesce(max(version_number), 0) + 1 AS n FROM ${versions} WHERE ${owner} = $1`,
      [ownerId],
    );
    const number = int(next.rows[0]?.n);
    const columns = Object.keys(fields);
    await this.db().query(
      `INSERT INTO ${versions} (id, ${owner}, version_number, ${columns.join(", ")}, active, created_at)
         VALUES ($1, $2, $3, ${columns.map((_, index) => `$${index + 5}`).join(", ")}, TRUE, $4)`,
      [id, ownerId, number, now, ...Object.values(fields)],
    );
    await this.moveLatest(ownerId, now);
    return number;
  }

  /** Soft delete: the version stays readable but inactive; `latest` moves back to the newest active one. */
  async deactivate(ownerId: string, versionId: string, now: number): Promise<boolean> {
    const { versions, owner } = this.shape;
    const { rows } = await this.db().query(
      `UPDATE ${versions} SET active = FALSE, deactivated_at = $1 WHERE ${owner} = $2 AND id = $3 AND active
         RETURNING id`,
      [now, ownerId, versionId],
    );
    if (rows.length > 0) await this.moveLatest(ownerId, now);
    return rows.length > 0;
  }

  /** The id of the newest active version, or null while none is active. */
  async newestActiveId(ownerId: string): Promise<string | null> {
    const { versions, owner } = this.shape;
    const { rows } = await this.db().query<{ id: string }>(
      `SELECT id FROM ${versions} WHERE ${owner} = $1 AND active ORDER BY version_number DESC LIMIT 1`,
      [ownerId],
    );
    return rows[0]?.id ?? null;
  }

  /** The id of the version `latest` points at, or without a label the newest active one. */
  async latestId(ownerId: string): Promise<string | null> {
    if (this.latestLabels === undefined) return this.newestActiveId(ownerId);
    return (await this.latestLabels.get(ownerId, LATEST_LABEL))?.version_id ?? null;
  }

  byId(versionId: string): Promise<Version | null> {
    return this.first(`SELECT * FROM ${this.shape.versions} WHERE id = $1`, [versionId]);
  }

  /** A version of the owner by id (active or not). */
  get(ownerId: string, versionId: string): Promise<Version | null> {
    const { versions, owner } = this.shape;
    return this.first(`SELECT * FROM ${versions} WHERE ${owner} = $1 AND id = $2`, [ownerId, versionId]);
  }

  /** A version of an owner of the organization by id (active or not). */
  getInOrganization(organizationId: string, ownerId: string, versionId: string): Promise<Version | null> {
    const { versions, owner, parent } = this.shape;
    return this.first(
      `SELECT v.* FROM ${versions} v JOIN ${parent} p ON p.id = v.${owner}
         WHERE p.organization_id = $1 AND v.${owner} = $2 AND v.id = $3`,
      [organizationId, ownerId, versionId],
    );
  }

  byNumber(ownerId: string, versionNumber: number): Promise<Version | null> {
    const { versions, owner } = this.shape;
    return this.first(`SELECT * FROM ${versions} WHERE ${owner} = $1 AND version_number = $2`, [
      ownerId,
      versionNumber,
    ]);
  }

  /** Newest first; `columns` lets a listing leave out a large column. */
  async page(
    ownerId: string,
    page: PageRequest,
    columns = "*",
  ): Promise<{ items: Version[]; total: number }> {
    const { versions, owner } = this.shape;
    const counted = await this.db().query<{ n: unknown }>(
      `SELECT count(*) AS n FROM ${versions} WHERE ${owner} = $1`,
      [ownerId],
    );
    const { rows } = await this.db().query<Row>(
      `SELECT ${columns} FROM ${versions} WHERE ${owner} = $1 ORDER BY version_number DESC LIMIT $2 OFFSET $3`,
      [ownerId, page.size, pageOffset(page)],
    );
    return { items: rows.map(this.toRecord), total: int(counted.rows[0]?.n) };
  }

  private async moveLatest(ownerId: string, now: number): Promise<void> {
    if (this.latestLabels === undefined) return;
    await this.latestLabels.set(ownerId, LATEST_LABEL, await this.newestActiveId(ownerId), now);
  }
}

/** The frame of a versioned resource's PostgreSQL store: its labels, its versions and their shared methods. */
export abstract class PostgresVersionedStore<
  Row extends { id: string },
  Version,
  Label,
> extends PostgresFamily {
  protected readonly labels: PostgresLabelTable;
  protected readonly versions: PostgresVersionTable<Row, Version>;

  constructor(
    client: SqlClient,
    clock: Clock,
    ids: IdGenerator,
    shape: PostgresVersionedShape,
    toVersion: (row: Row) => Version,
  ) {
    super(client, clock, ids);
    const db = () => this.db;
    this.labels = new PostgresLabelTable(db, clock, shape);
    this.versions = new PostgresVersionTable(db, shape, toVersion, shape.latest ? this.labels : undefined);
  }

  protected abstract toLabel(row: NumberedLabelRow): Label;

  /** A version by id alone (active or not). */
  versionById(versionId: string): Promise<Version | null> {
    return this.versions.byId(versionId);
  }

  getVersionByNumber(ownerId: string, versionNumber: number): Promise<Version | null> {
    return this.versions.byNumber(ownerId, versionNumber);
  }

  /** Newest first. */
  listVersions(ownerId: string, page: PageRequest): Promise<{ items: Version[]; total: number }> {
    return this.versions.page(ownerId, page);
  }

  /** The version `latest` points at (agents: the newest active one), or null while none is active. */
  async latestVersion(ownerId: string): Promise<Version | null> {
    const id = await this.versions.latestId(ownerId);
    return id === null ? null : this.versionById(id);
  }

  /** Soft delete: the version stays readable but inactive; `latest` moves back to the newest active one. */
  deactivateVersion(ownerId: string, versionId: string): Promise<boolean> {
    const now = this.clock.now();
    return this.transactionally(() => this.versions.deactivate(ownerId, versionId, now));
  }

  /** `latest` first (where kept), then the others by name. */
  async listLabels(ownerId: string): Promise<Label[]> {
    return (await this.labels.list(ownerId)).map((row) => this.toLabel(row));
  }

  async getLabel(ownerId: string, name: string): Promise<Label | null> {
    const row = await this.labels.get(ownerId, name);
    return row === null ? null : this.toLabel(row);
  }

  /** Creates a label; false when one of that name exists. */
  createLabel(ownerId: string, name: string, versionId: string): Promise<boolean> {
    return this.labels.create(ownerId, name, versionId);
  }

  updateLabel(ownerId: string, name: string, versionId: string): Promise<boolean> {
    return this.labels.update(ownerId, name, versionId);
  }

  deleteLabel(ownerId: string, name: string): Promise<boolean> {
    return this.labels.delete(ownerId, name);
  }
}
