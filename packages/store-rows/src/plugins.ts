/**
 * Plugin rows (PLATFORM.md §5.2): one row per installed plugin and organization, its manifest,
 * source and the ids of the components it installed as JSON text.
 */
import { int, intOrNull, json } from "./columns.js";

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

export interface PluginRow {
  id: string;
  organization_id: string;
  name: string;
  version: string;
  description: string | null;
  manifest: unknown;
  source_type: PluginSourceType;
  source_url: string | null;
  skill_ids: unknown;
  connector_ids: unknown;
  agent_ids: unknown;
  warnings: unknown;
  installed_at: number | string;
  updated_at: number | string;
  last_synced_at: number | string | null;
}

export function toPlugin(row: PluginRow): PluginRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    version: row.version,
    description: row.description,
    manifest: json<Record<string, unknown>>(row.manifest),
    source: { type: row.source_type, url: row.source_url },
    components: {
      skillIds: json<string[]>(row.skill_ids),
      connectorIds: json<string[]>(row.connector_ids),
      agentIds: json<string[]>(row.agent_ids),
    },
    warnings: json<string[]>(row.warnings),
    installedAt: int(row.installed_at),
    updatedAt: int(row.updated_at),
    lastSyncedAt: intOrNull(row.last_synced_at),
  };
}

/** The JSON columns of an install or update, as text (both stores keep the exact text). */
export function pluginJsonColumns(input: PluginInput): {
  manifest: string;
  skillIds: string;
  connectorIds: string;
  agentIds: string;
  warnings: string;
} {
  return {
    manifest: JSON.stringify(input.manifest),
    skillIds: JSON.stringify(input.components.skillIds),
    connectorIds: JSON.stringify(input.components.connectorIds),
    agentIds: JSON.stringify(input.components.agentIds),
    warnings: JSON.stringify(input.warnings),
  };
}
