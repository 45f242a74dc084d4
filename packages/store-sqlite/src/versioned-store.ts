/**
 * The common frame of the stores of versioned resources (schemas, prompts, skills, agents):
 * the statement cache, the resource's `LabelTable` and `VersionTable`, and the label
 * methods, which differ between resources only in how a label row becomes a record.
 * Each store adds its own resource rows and version columns.
 */
import type { Clock, IdGenerator, PageRequest } from "@groundwork/core";
import type { Database } from "better-sqlite3";
import { type LabelRow, LabelTable } from "./label-table.js";
import { SqliteStore } from "./sqlite-store.js";
import { LATEST_LABEL, VersionTable } from "./version-table.js";

export interface VersionedShape {
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

export abstract class VersionedStore<Row extends { id: string }, Version, Label> extends SqliteStore {
  protected readonly labels: LabelTable;
  protected readonly versions: VersionTable<Row, Version>;

  constructor(
    db: Database,
    clock: Clock,
    ids: IdGenerator,
    shape: VersionedShape,
    toVersion: (row: Row) => Version,
  ) {
    super(db, clock, ids);
    this.labels = new LabelTable(this.sql, clock, {
      table: shape.labels,
      owner: shape.owner,
      version: shape.labelVersion,
      ...(shape.latest ? { listedFirst: LATEST_LABEL } : {}),
    });
    this.versions = new VersionTable(
      this.sql,
      { table: shape.versions, owner: shape.owner, parent: shape.parent },
      toVersion,
      shape.latest ? this.labels : undefined,
    );
  }

  protected abstract toLabel(row: LabelRow): Label;

  // ---- versions ----

  /** A version by id alone (active or not). */
  versionById(versionId: string): Version | null {
    return this.versions.byId(versionId);
  }

  getVersionByNumber(ownerId: string, versionNumber: number): Version | null {
    return this.versions.byNumber(ownerId, versionNumber);
  }

  /** Newest first. */
  listVersions(ownerId: string, page: PageRequest): { items: Version[]; total: number } {
    return this.versions.page(ownerId, page);
  }

  /** The version `latest` points at (agents: the newest active one), or null while none is active. */
  latestVersion(ownerId: string): Version | null {
    const id = this.versions.latestId(ownerId);
    return id === null ? null : this.versionById(id);
  }

  /** Soft delete: the version stays readable but inactive; `latest` moves back to the newest active one. */
  deactivateVersion(ownerId: string, versionId: string): boolean {
    const now = this.clock.now();
    return this.db.transaction(() => this.versions.deactivate(ownerId, versionId, now))();
  }

  // ---- labels ----

  /** `latest` first (where kept), then the others by name. */
  listLabels(ownerId: string): Label[] {
    return this.labels.list(ownerId).map((row) => this.toLabel(row));
  }

  getLabel(ownerId: string, name: string): Label | null {
    const row = this.labels.get(ownerId, name);
    return row === null ? null : this.toLabel(row);
  }

  /** Creates a label; false when one of that name exists. */
  createLabel(ownerId: string, name: string, versionId: string): boolean {
    return this.labels.create(ownerId, name, versionId);
  }

  updateLabel(ownerId: string, name: string, versionId: string): boolean {
    return this.labels.update(ownerId, name, versionId);
  }

  deleteLabel(ownerId: string, name: string): boolean {
    return this.labels.delete(ownerId, name);
  }
}
