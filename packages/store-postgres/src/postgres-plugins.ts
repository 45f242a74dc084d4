/**
 * Plugins on PostgreSQL (PLATFORM.md §5.2): store-sqlite's `PluginStore`, asynchronous, on the
 * same rows (@groundwork/store-rows). Newest installation first, ties by id, bytewise.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type PluginInput,
  type PluginRecord,
  type PluginRow,
  pluginJsonColumns,
  toPlugin,
} from "@groundwork/store-rows";
import { PostgresFamily } from "./postgres-family.js";

export class PostgresPluginStore extends PostgresFamily {
  /** A fresh plugin id (the components are written before the plugin row, with this id). */
  async newId(): Promise<string> {
    return this.ids("plg");
  }

  /** Inserts the plugin under `id`; throws on a taken name (the caller checks `byName` first). */
  async create(organizationId: string, id: string, input: PluginInput): Promise<PluginRecord> {
    const now = this.clock.now();
    const columns = pluginJsonColumns(input);
    const row = await this.row<PluginRow>(
      `INSERT INTO plugins (id, organization_id, name, version, description, manifest, source_type, source_url,
           skill_ids, connector_ids, agent_ids, warnings, installed_at, updated_at, last_synced_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14) RETURNING *`,
      [
        id,
        organizationId,
        input.name,
        input.version,
        input.description,
        columns.manifest,
        input.source.type,
        input.source.url,
        columns.skillIds,
        columns.connectorIds,
        columns.agentIds,
        columns.warnings,
        now,
        input.synced ? now : null,
      ],
    );
    return toPlugin(row as PluginRow);
  }

  /** Replaces everything but the name and `installedAt`; null when absent. */
  async update(organizationId: string, id: string, input: PluginInput): Promise<PluginRecord | null> {
    const now = this.clock.now();
    const columns = pluginJsonColumns(input);
    const row = await this.row<PluginRow>(
      `UPDATE plugins SET version = $1, description = $2, manifest = $3, source_type = $4, source_url = $5,
           skill_ids = $6, connector_ids = $7, agent_ids = $8, warnings = $9, updated_at = $10,
           last_synced_at = CASE WHEN $11::boolean THEN $10 ELSE last_synced_at END
         WHERE organization_id = $12 AND id = $13 RETURNING *`,
      [
        input.version,
        input.description,
        columns.manifest,
        input.source.type,
        input.source.url,
        columns.skillIds,
        columns.connectorIds,
        columns.agentIds,
        columns.warnings,
        now,
        input.synced,
        organizationId,
        id,
      ],
    );
    return row === undefined ? null : toPlugin(row);
  }

  async get(organizationId: string, id: string): Promise<PluginRecord | null> {
    const row = await this.row<PluginRow>("SELECT * FROM plugins WHERE organization_id = $1 AND id = $2", [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toPlugin(row);
  }

  async byName(organizationId: string, name: string): Promise<PluginRecord | null> {
    const row = await this.row<PluginRow>("SELECT * FROM plugins WHERE organization_id = $1 AND name = $2", [
      organizationId,
      name,
    ]);
    return row === undefined ? null : toPlugin(row);
  }

  /** Newest installation first. */
  async list(organizationId: string, page: PageRequest): Promise<{ items: PluginRecord[]; total: number }> {
    const counted = await this.row<{ n: string }>(
      "SELECT count(*) AS n FROM plugins WHERE organization_id = $1",
      [organizationId],
    );
    const rows = await this.rows<PluginRow>(
      "SELECT * FROM plugins WHERE organization_id = $1 ORDER BY installed_at DESC, id DESC LIMIT $2 OFFSET $3",
      [organizationId, page.size, pageOffset(page)],
    );
    return { items: rows.map(toPlugin), total: Number(counted?.n ?? 0) };
  }

  /** Every plugin of the organization (ownership checks), oldest first. */
  async all(organizationId: string): Promise<PluginRecord[]> {
    const rows = await this.rows<PluginRow>(
      "SELECT * FROM plugins WHERE organization_id = $1 ORDER BY installed_at, id",
      [organizationId],
    );
    return rows.map(toPlugin);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM plugins WHERE organization_id = $1 AND id = $2 RETURNING 1", [
        organizationId,
        id,
      ])) > 0
    );
  }
}
