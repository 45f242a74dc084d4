/**
 * The immutable numbered versions of a versioned resource (schemas, prompts, skills, agents),
 * one table per resource kind. Every such table has the same bookkeeping columns (`id`, the
 * owner's id, `version_number`, `active`, `created_at`, `deactivated_at`) and the same rules:
 * numbers count up from 1 per owner, deactivating is a soft delete, and — for resources with
 * a `latest` label — `latest` points at the newest active version (NULL while there is none).
 * Those rules live here once; each store keeps only its own columns and row mapping.
 *
 * Methods that write run in the caller's transaction: the stores add their own writes (the
 * owner's `updated_at`, a skill's files) to the same one.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import type { Statement } from "better-sqlite3";
import type { LabelTable } from "./label-table.js";

export const LATEST_LABEL = "latest";

export interface VersionTableShape {
  /** The versions table, e.g. `prompt_versions`. */
  table: string;
  /** Column of the owner's id, e.g. `prompt_id`. */
  owner: string;
  /** The owners' table (with `id` and `organization_id`), e.g. `prompts`. */
  parent: string;
}

/** A value better-sqlite3 binds as is. */
export type SqlValue = string | number | bigint | Buffer | null;

export class VersionTable<Row extends { id: string }, Version> {
  constructor(
    private readonly sql: (text: string) => Statement,
    private readonly shape: VersionTableShape,
    /** A row as the store's record (JSON columns parsed, flags as booleans). */
    private readonly toRecord: (row: Row) => Version,
    /** The resource's labels when it keeps a `latest` label that follows the newest active version. */
    private readonly latestLabels?: LabelTable,
  ) {}

  /**
   * Inserts an active version with the next number and moves `latest` to the newest active
   * version. `fields` are the resource's own columns (the keys are column names from the
   * store's code, never from input). Returns the new version's number.
   */
  insert(ownerId: string, id: string, fields: Record<string, SqlValue>, now: number): number {
    const { table, owner } = this.shape;
    const next = (
      this.sql(`SELECT coalesce(max(version_number), 0) + 1 AS n FROM ${table} WHERE ${owner} = ?`).get(
        ownerId,
      ) as { n: number }
    ).n;
    const columns = Object.keys(fields);
    this.sql(
      `INSERT INTO ${table} (id, ${owner}, version_number, ${columns.join(", ")}, active, created_at)
         VALUES (?, ?, ?, ${columns.map(() => "?").join(", ")}, 1, ?)`,
    ).run(id, ownerId, next, ...Object.values(fields), now);
    this.moveLatest(ownerId, now);
    return next;
  }

  /** Soft delete: the version stays readable but inactive; `latest` moves back to the newest active one. */
  deactivate(ownerId: string, versionId: string, now: number): boolean {
    const { table, owner } = this.shape;
    const changed =
      this.sql(
        `UPDATE ${table} SET active = 0, deactivated_at = ? WHERE ${owner} = ? AND id = ? AND active = 1`,
      ).run(now, ownerId, versionId).changes > 0;
    if (changed) this.moveLatest(ownerId, now);
    return changed;
  }

  /** The newest active version's `columns`, or undefined while none is active. */
  newestActive<R = Row>(ownerId: string, columns = "*"): R | undefined {
    const { table, owner } = this.shape;
    return this.sql(
      `SELECT ${columns} FROM ${table} WHERE ${owner} = ? AND active = 1 ORDER BY version_number DESC LIMIT 1`,
    ).get(ownerId) as R | undefined;
  }

  /** The id of the version `latest` points at, or without a label the newest active one; null while none is active. */
  latestId(ownerId: string): string | null {
    if (this.latestLabels === undefined) return this.newestActive<{ id: string }>(ownerId, "id")?.id ?? null;
    return this.latestLabels.get(ownerId, LATEST_LABEL)?.version_id ?? null;
  }

  byId(versionId: string): Version | null {
    return this.record(this.sql(`SELECT * FROM ${this.shape.table} WHERE id = ?`).get(versionId));
  }

  /** A version of the owner by id (active or not). */
  get(ownerId: string, versionId: string): Version | null {
    const { table, owner } = this.shape;
    return this.record(
      this.sql(`SELECT * FROM ${table} WHERE ${owner} = ? AND id = ?`).get(ownerId, versionId),
    );
  }

  /** A version of an owner of the organization by id (active or not). */
  getInOrganization(organizationId: string, ownerId: string, versionId: string): Version | null {
    const { table, owner, parent } = this.shape;
    return this.record(
      this.sql(
        `SELECT v.* FROM ${table} v JOIN ${parent} p ON p.id = v.${owner}
           WHERE p.organization_id = ? AND v.${owner} = ? AND v.id = ?`,
      ).get(organizationId, ownerId, versionId),
    );
  }

  byNumber(ownerId: string, versionNumber: number): Version | null {
    const { table, owner } = this.shape;
    return this.record(
      this.sql(`SELECT * FROM ${table} WHERE ${owner} = ? AND version_number = ?`).get(
        ownerId,
        versionNumber,
      ),
    );
  }

  /** The number of a version, or null when there is no such version. */
  numberOf(versionId: string): number | null {
    return (
      (
        this.sql(`SELECT version_number AS n FROM ${this.shape.table} WHERE id = ?`).get(versionId) as
          | { n: number }
          | undefined
      )?.n ?? null
    );
  }

  /** Newest first; `columns` lets a listing leave out a large column. */
  page(ownerId: string, page: PageRequest, columns = "*"): { items: Version[]; total: number } {
    const { table, owner } = this.shape;
    const total = (
      this.sql(`SELECT count(*) AS n FROM ${table} WHERE ${owner} = ?`).get(ownerId) as { n: number }
    ).n;
    const rows = this.sql(
      `SELECT ${columns} FROM ${table} WHERE ${owner} = ? ORDER BY version_number DESC LIMIT ? OFFSET ?`,
    ).all(ownerId, page.size, pageOffset(page)) as Row[];
    return { items: rows.map(this.toRecord), total };
  }

  private record(row: unknown): Version | null {
    return row === undefined ? null : this.toRecord(row as Row);
  }

  private moveLatest(ownerId: string, now: number): void {
    if (this.latestLabels === undefined) return;
    this.latestLabels.set(
      ownerId,
      LATEST_LABEL,
      this.newestActive<{ id: string }>(ownerId, "id")?.id ?? null,
      now,
    );
  }
}
