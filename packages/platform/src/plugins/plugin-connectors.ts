/**
 * The plugin service's view of connectors (PLATFORM.md §5.3) through the connector
 * service: URLs are checked before the plugin's transaction (naming the `.mcp.json`
 * entry on a refusal), writes are awaited inside it, always with the plugin's id.
 */
import type { PluginConnectorEntry } from "@groundwork/agents";
import { GroundworkError, isGroundworkError } from "@groundwork/core";
import type { ConnectorRecord } from "@groundwork/store-sqlite";
import type { ConnectorService } from "../connectors/connector-service.js";
import type { PlatformStore } from "../store-port.js";
import type { PluginConnectorPort, PluginConnectorRef } from "./plugin-service.js";

const ref = (connector: ConnectorRecord | null): PluginConnectorRef | null =>
  connector === null
    ? null
    : { id: connector.id, serverLabel: connector.serverLabel, pluginId: connector.pluginId };

export function pluginConnectorsOf(
  service: ConnectorService,
  store: Pick<PlatformStore, "connectors">,
): PluginConnectorPort {
  return {
    available: true,
    async check(_organizationId: string, entries: readonly PluginConnectorEntry[]): Promise<void> {
      for (const entry of entries) {
        try {
          await service.checkConnectorUrl(entry.url);
        } catch (error) {
          if (!isGroundworkError(error)) throw error;
          throw new GroundworkError(`.mcp.json server "${entry.serverLabel}": ${error.message}`, {
            status: error.status,
            type: error.type,
            code: error.code === "invalid_request" ? "invalid_plugin" : error.code,
            param: `.mcp.json:mcpServers.${entry.serverLabel}.url`,
          });
        }
      }
    },
    byLabel: async (organizationId, serverLabel) =>
      ref(await store.connectors.getByLabel(organizationId, serverLabel)),
    byId: async (organizationId, id) => ref(await store.connectors.get(organizationId, id)),
    create: async (organizationId, pluginId, entry, agentIds) =>
      (
        await service.createCheckedForPlugin(organizationId, pluginId, {
          serverLabel: entry.serverLabel,
          url: new URL(entry.url),
          authKind: entry.authKind,
          description: entry.description,
          agentIds,
        })
      ).id,
    update: async (organizationId, pluginId, id, entry, agentIds) =>
      await service.updateCheckedForPlugin(organizationId, pluginId, id, {
        url: new URL(entry.url),
        authKind: entry.authKind,
        description: entry.description,
        agentIds,
      }),
    remove: async (organizationId, pluginId, id) =>
      await service.deleteForPlugin(organizationId, pluginId, id),
  };
}
