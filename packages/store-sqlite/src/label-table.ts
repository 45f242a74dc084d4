/**
 * Labels of a versioned resource (schemas, prompts, skills, agents): named pointers from the
 * resource to one of its versions, one table per resource kind.
 */
import type { Clock } from "@groundwork/core";
import type { Statement } from "better-sqlite3";

export interface LabelRow {
  owner_id: string;
  name: string;
  version_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface LabelTableShape {
  table: string;
  /** Column of the resource's id. */
  owner: string;
  /** Column of the version id. */
  version: string;
  /** A label listed before the others (schemas: `latest`). */
  listedFirst?: string;
}

export class LabelTable {
  private readonly columns: string;

  constructor(
    private readonly sql: (text: string) => Statement,
    private readonly clock: Clock,
    private readonly shape: LabelTableShape,
  ) {
    this.columns = `${shape.owner} AS owner_id, name, ${shape.version} AS version_id, created_at, updated_at`;
  }

  /** By name, after `listedFirst`. */
  list(ownerId: string): LabelRow[] {
    const { table, owner } = this.shape;
    return this.sql(
      `SELECT ${this.columns} FROM ${table} WHERE ${owner} = ? ORDER BY name = ? DESC, name`,
    ).all(ownerId, this.shape.listedFirst ?? null) as LabelRow[];
  }

  get(ownerId: string, name: string): LabelRow | null {
    const { table, owner } = this.shape;
    const row = this.sql(`SELECT ${this.columns} FROM ${table} WHERE ${owner} = ? AND name = ?`).get(
      ownerId,
      name,
    ) as LabelRow | undefined;
    return row ?? null;
  }

  /** False when a label of that name exists already. */
  create(ownerId: string, name: string, versionId: string | null, now: number = this.clock.now()): boolean {
    const { table, owner, version } = this.shape;
    return (
      this.sql(
        `INSERT INTO ${table} (${owner}, name, ${version}, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (${owner}, name) DO NOTHING`,
      ).run(ownerId, name, versionId, now, now).changes > 0
    );
  }

  /** Points the label at `versionId`, creating it when missing (the system label `latest`). */
  set(ownerId: string, name: string, versionId: string | null, now: number = this.clock.now()): void {
    const { table, owner, version } = this.shape;
    this.sql(
      `INSERT INTO ${table} (${owner}, name, ${version}, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (${owner}, name) DO UPDATE SET ${version} = excluded.${version}, updated_at = excluded.updated_at`,
    ).run(ownerId, name, versionId, now, now);
  }

  update(ownerId: string, name: string, versionId: string | null): boolean {
    const { table, owner, version } = this.shape;
    return (
      this.sql(`UPDATE ${table} SET ${version} = ?, updated_at = ? WHERE ${owner} = ? AND name = ?`).run(
        versionId,
        this.clock.now(),
        ownerId,
        name,
      ).changes > 0
    );
  }

  delete(ownerId: string, name: string): boolean {
    const { table, owner } = this.shape;
    return this.sql(`DELETE FROM ${table} WHERE ${owner} = ? AND name = ?`).run(ownerId, name).changes > 0;
  }
}
