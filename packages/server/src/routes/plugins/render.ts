/** Plugin resources as the API shows them (PLATFORM.md §5.2): timestamps as ISO strings. */
import type { PluginResult } from "@groundwork/platform";
import type { PluginRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderPlugin(plugin: PluginRecord) {
  return {
    id: plugin.id,
    name: plugin.name,
    version: plugin.version,
    description: plugin.description,
    manifest: plugin.manifest,
    source: { type: plugin.source.type, url: plugin.source.url },
    components: {
      skillIds: plugin.components.skillIds,
      connectorIds: plugin.components.connectorIds,
      agentIds: plugin.components.agentIds,
    },
    warnings: plugin.warnings,
    installedAt: iso(plugin.installedAt),
    updatedAt: iso(plugin.updatedAt),
    lastSyncedAt: plugin.lastSyncedAt === null ? null : iso(plugin.lastSyncedAt),
  };
}

export function renderPluginResult(result: PluginResult) {
  return { plugin: renderPlugin(result.plugin), changes: result.changes, warnings: result.warnings };
}
