/**
 * Plugins (PLATFORM.md §5.2): one row per installed plugin and organization, unique by
 * name, with its manifest, its source and the ids of the components it installed. The
 * package rules and the installation of the components live in the platform's plugin
 * service; this store reads and writes rows.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type PluginInput,
  type PluginRecord,
  type PluginRow,
  pluginJsonColumns,
  toPlugin,
} from "@groundwork/store-rows";
import { SqliteStore } from "./sqlite-store.js";

export type { PluginComponents, PluginInput, PluginRecord, PluginSourceType } from "@groundwork/store-rows";

export class PluginStore extends SqliteStore {
  /** A fresh plugin id (the components are written before the plugin row, with this id). */
  newId(): string {
    return this.ids("plg");
  }

  /** Inserts the plugin under `id`; throws on a taken name (the caller checks `byName` first). */
  create(organizationId: string, id: string, input: PluginInput): PluginRecord {
    const now = this.clock.now();
    const columns = pluginJsonColumns(input);
    this.sql(
      `INSERT INTO plugins (id, organization_id, name, version, description, manifest, source_type, source_url,
           skill_ids, connector_ids, agent_ids, warnings, installed_at, updated_at, last_synced_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
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
      now,
      input.synced ? now : null,
    );
    return this.get(organizationId, id) as PluginRecord;
  }

  /** Replaces everything but the name and `installedAt`; null when absent. */
  update(organizationId: string, id: string, input: PluginInput): PluginRecord | null {
    const now = this.clock.now();
    const columns = pluginJsonColumns(input);
    const changed = this.sql(
      `UPDATE plugins SET version = ?, description = ?, manifest = ?, source_type = ?, source_url = ?,
           skill_ids = ?, connector_ids = ?, agent_ids = ?, warnings = ?, updated_at = ?,
           last_synced_at = CASE WHEN ? THEN ? ELSE last_synced_at END
         WHERE organization_id = ? AND id = ?`,
    ).run(
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
      input.synced ? 1 : 0,
      now,
      organizationId,
      id,
    ).changes;
    return changed === 0 ? null : this.get(organizationId, id);
  }

  get(organizationId: string, id: string): PluginRecord | null {
    const row = this.sql("SELECT * FROM plugins WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as PluginRow | undefined;
    return row === undefined ? null : toPlugin(row);
  }

  byName(organizationId: string, name: string): PluginRecord | null {
    const row = this.sql("SELECT * FROM plugins WHERE organization_id = ? AND name = ?").get(
      organizationId,
      name,
    ) as PluginRow | undefined;
    return row === undefined ? null : toPlugin(row);
  }

  /** Newest installation first. */
  list(organizationId: string, page: PageRequest): { items: PluginRecord[]; total: number } {
    const total = (
      this.sql("SELECT count(*) AS n FROM plugins WHERE organization_id = ?").get(organizationId) as {
        n: number;
      }
    ).n;
    const rows = this.sql(
      "SELECT * FROM plugins WHERE organization_id = ? ORDER BY installed_at DESC, id DESC LIMIT ? OFFSET ?",
    ).all(organizationId, page.size, pageOffset(page)) as PluginRow[];
    return { items: rows.map(toPlugin), total };
  }

  /** Every plugin of the organization (ownership checks). */
  all(organizationId: string): PluginRecord[] {
    return (
      this.sql("SELECT * FROM plugins WHERE organization_id = ? ORDER BY installed_at, id").all(
        organizationId,
      ) as PluginRow[]
    ).map(toPlugin);
  }

  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM plugins WHERE organization_id = ? AND id = ?").run(organizationId, id).changes > 0
    );
  }
}
