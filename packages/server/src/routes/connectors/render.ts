/** Connectors as the API shows them (PLATFORM.md §5.3): timestamps as ISO strings, tokens never. */
import type { ConnectionView } from "@groundwork/platform";
import type { ConnectorRecord, InputRequestRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function renderConnector(connector: ConnectorRecord) {
  return {
    id: connector.id,
    serverLabel: connector.serverLabel,
    url: connector.url,
    host: connector.host,
    authKind: connector.authKind,
    description: connector.description,
    agentIds: connector.agentIds,
    enabled: connector.enabled,
    pluginId: connector.pluginId,
    createdAt: iso(connector.createdAt),
    updatedAt: iso(connector.updatedAt),
  };
}

export function renderConnection(view: ConnectionView) {
  return {
    connectorId: view.connectorId,
    serverLabel: view.serverLabel,
    host: view.host,
    status: view.status,
    connectedAt: isoOrNull(view.connectedAt),
    allowances: view.allowances.map((a) => ({
      agentId: a.agentId,
      destinations: a.destinations,
      allowedAt: iso(a.allowedAt),
    })),
  };
}

export function renderInputRequest(input: InputRequestRecord) {
  return {
    id: input.id,
    responseId: input.responseId,
    serverLabel: input.serverLabel,
    tool: input.tool,
    mode: input.mode,
    message: input.message,
    requestedSchema: input.requestedSchema,
    url: input.url,
    status: input.status,
    createdAt: iso(input.createdAt),
    expiresAt: iso(input.expiresAt),
    answeredAt: isoOrNull(input.answeredAt),
  };
}
