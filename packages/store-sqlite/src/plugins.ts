/**
 * Plugins (PLATFORM.md §5.2): one row per installed plugin and organization, unique by
 * name, with its manifest, its source and the ids of the components it installed. The
 * package rules and the installation of the components live in the platform's plugin
 * service; this store reads and writes rows.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import { SqliteStore } from "./sqlite-store.js";

export type PluginSourceType = "upload" | "url";

export interface PluginComponents {
  skillIds: string[];
  connectorIds: string[];
  agentIds: string[];
}

export interface PluginRecord {
  id: string;
  organizationId: string;
  name: string;
  version: string;
  description: string | null;
  manifest: Record<string, unknown>;
  source: { type: PluginSourceType; url: string | null };
  components: PluginComponents;
  warnings: string[];
  installedAt: number;
  updatedAt: number;
  lastSyncedAt: number | null;
}

/** What an install or an update writes. */
export interface PluginInput {
  name: string;
  version: string;
  description: string | null;
  manifest: Record<string, unknown>;
  source: { type: PluginSourceType; url: string | null };
  components: PluginComponents;
  warnings: string[];
  /** Set `last_synced_at` to now (a URL install, a sync). */
  synced: boolean;
}

interface PluginRow {
  id: string;
  organization_id: string;
  name: string;
  version: string;
  description: string | null;
  manifest: string;
  source_type: PluginSourceType;
  source_url: string | null;
  skill_ids: string;
  connector_ids: string;
  agent_ids: string;
  warnings: string;
  installed_at: number;
  updated_at: number;
  last_synced_at: number | null;
}

function toPlugin(row: PluginRow): PluginRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    version: row.version,
    description: row.description,
    manifest: JSON.parse(row.manifest) as Record<string, unknown>,
    source: { type: row.source_type, url: row.source_url },
    components: {
      skillIds: JSON.parse(row.skill_ids) as string[],
      connectorIds: JSON.parse(row.connector_ids) as string[],
      agentIds: JSON.parse(row.agent_ids) as string[],
    },
    warnings: JSON.parse(row.warnings) as string[],
    installedAt: row.installed_at,
    updatedAt: row.updated_at,
    lastSyncedAt: row.last_synced_at,
  };
}

export class PluginStore extends SqliteStore {
  /** A fresh plugin id (the components are written before the plugin row, with this id). */
  newId(): string {
    return this.ids("plg");
  }

  /** Inserts the plugin under `id`; throws on a taken name (the caller checks `byName` first). */
  create(organizationId: string, id: string, input: PluginInput): PluginRecord {
    const now = this.clock.now();
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
      JSON.stringify(input.manifest),
      input.source.type,
      input.source.url,
      JSON.stringify(input.components.skillIds),
      JSON.stringify(input.components.connectorIds),
      JSON.stringify(input.components.agentIds),
      JSON.stringify(input.warnings),
      now,
      now,
      input.synced ? now : null,
    );
    return this.get(organizationId, id) as PluginRecord;
  }

  /** Replaces everything but the name and `installedAt`; null when absent. */
  update(organizationId: string, id: string, input: PluginInput): PluginRecord | null {
    const now = this.clock.now();
    const changed = this.sql(
      `UPDATE plugins SET version = ?, description = ?, manifest = ?, source_type = ?, source_url = ?,
           skill_ids = ?, connector_ids = ?, agent_ids = ?, warnings = ?, updated_at = ?,
           last_synced_at = CASE WHEN ? THEN ? ELSE last_synced_at END
         WHERE organization_id = ? AND id = ?`,
    ).run(
      input.version,
      input.description,
      JSON.stringify(input.manifest),
      input.source.type,
      input.source.url,
      JSON.stringify(input.components.skillIds),
      JSON.stringify(input.components.connectorIds),
      JSON.stringify(input.components.agentIds),
      JSON.stringify(input.warnings),
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
      this.sql("SELECT * FROM plugins WHERE organization_id = ? ORDER BY installed_at").all(
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
