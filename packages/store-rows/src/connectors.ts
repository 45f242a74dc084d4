/**
 * Connector rows (PLATFORM.md §5.3): remote MCP servers of an organization, members' connections
 * (tokens sealed with the connector and key ids as associated data), allowances, tool lists and
 * input requests. JSON columns are text on both stores; flags 0/1 or booleans; times epoch ms.
 */
import { bool, int, intOrNull, json } from "./columns.js";

export type ConnectorAuthKind = "none" | "bearer" | "oauth";

export interface ConnectorRecord {
  id: string;
  organizationId: string;
  serverLabel: string;
  url: string;
  host: string;
  authKind: ConnectorAuthKind;
  description: string | null;
  agentIds: string[] | null;
  enabled: boolean;
  pluginId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewConnector {
  serverLabel: string;
  url: string;
  host: string;
  authKind: ConnectorAuthKind;
  description: string | null;
  agentIds: string[] | null;
  enabled: boolean;
  pluginId: string | null;
}

export type ConnectorChanges = Partial<
  Pick<NewConnector, "url" | "host" | "authKind" | "description" | "agentIds" | "enabled">
>;

export interface ConnectionRow {
  status: "connected" | "expired";
  connectedAt: number;
}

export interface AllowanceRecord {
  agentId: string;
  destinations: string[];
  allowedAt: number;
}

export interface CachedTool {
  name: string;
  description: string | null;
  inputSchema: Record<string, unknown>;
  readOnlyHint: boolean;
  destructiveHint: boolean;
}

export type InputRequestStatus = "open" | "answered" | "expired" | "cancelled";
export type InputMode = "form" | "url" | "mixed" | "unknown";

export interface InputRequestRecord {
  id: string;
  organizationId: string;
  memberId: string;
  responseId: string;
  connectorId: string | null;
  serverLabel: string;
  tool: string;
  callId: string;
  mode: InputMode;
  message: string;
  requestedSchema: Record<string, unknown> | null;
  url: string | null;
  status: InputRequestStatus;
  action: "accept" | "decline" | "cancel" | null;
  content: Record<string, unknown> | null;
  createdAt: number;
  expiresAt: number;
  answeredAt: number | null;
}

export type NewInputRequest = Omit<
  InputRequestRecord,
  "id" | "status" | "action" | "content" | "createdAt" | "answeredAt"
>;

export interface ConnectorRow {
  id: string;
  organization_id: string;
  server_label: string;
  url: string;
  host: string;
  auth_kind: ConnectorAuthKind;
  description: string | null;
  agent_ids: string | null;
  enabled: unknown;
  plugin_id: string | null;
  created_at: number | string;
  updated_at: number | string;
}

/** The process that holds an open question's call, and until when its lease runs (decision PG191). */
export interface QuestionOwner {
  id: string;
  expiresAt: number;
}

export interface InputRow {
  id: string;
  organization_id: string;
  member_id: string;
  response_id: string;
  connector_id: string | null;
  server_label: string;
  tool: string;
  call_id: string;
  mode: InputMode;
  message: string;
  requested_schema: string | null;
  url: string | null;
  status: InputRequestStatus;
  action: "accept" | "decline" | "cancel" | null;
  content: string | null;
  created_at: number | string;
  expires_at: number | string;
  answered_at: number | string | null;
}

export function toConnector(row: ConnectorRow): ConnectorRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    serverLabel: row.server_label,
    url: row.url,
    host: row.host,
    authKind: row.auth_kind,
    description: row.description,
    agentIds: row.agent_ids === null ? null : json<string[]>(row.agent_ids),
    enabled: bool(row.enabled),
    pluginId: row.plugin_id,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function toInput(row: InputRow): InputRequestRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    memberId: row.member_id,
    responseId: row.response_id,
    connectorId: row.connector_id,
    serverLabel: row.server_label,
    tool: row.tool,
    callId: row.call_id,
    mode: row.mode,
    message: row.message,
    requestedSchema:
      row.requested_schema === null ? null : json<Record<string, unknown>>(row.requested_schema),
    url: row.url,
    status: row.status,
    action: row.action,
    content: row.content === null ? null : json<Record<string, unknown>>(row.content),
    createdAt: int(row.created_at),
    expiresAt: int(row.expires_at),
    answeredAt: intOrNull(row.answered_at),
  };
}

/** The associated data (same on both stores, so a sealed token moves between them) a member's token is sealed with: the connector and the key. */
export const boundTo = (connectorId: string, memberId: string) => `connector:${connectorId}:${memberId}`;

export interface ConnectionStateRow {
  status: ConnectionRow["status"];
  connected_at: number | string;
}

export const toConnection = (row: ConnectionStateRow): ConnectionRow => ({
  status: row.status,
  connectedAt: int(row.connected_at),
});

export interface AllowanceRow {
  agent_id: string;
  destinations: unknown;
  allowed_at: number | string;
}

export const toAllowance = (row: AllowanceRow): AllowanceRecord => ({
  agentId: row.agent_id,
  destinations: json<string[]>(row.destinations),
  allowedAt: int(row.allowed_at),
});

export interface ToolListRow {
  tools: unknown;
  listed_at: number | string;
}

export const toToolList = (row: ToolListRow): { tools: CachedTool[]; listedAt: number } => ({
  tools: json<CachedTool[]>(row.tools),
  listedAt: int(row.listed_at),
});
