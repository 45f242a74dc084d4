/**
 * Agent rows (spec document 3): agents, their immutable numbered versions (the definition as
 * JSON text), labels, conversations (mode, remembered tools, title, metadata, owner) and the
 * persisted state of each agent response.
 */
import { bool, int, intOrNull, json } from "./columns.js";

/** A label row as the versioned stores select it (`<owner> AS owner_id`, `<version> AS version_id`). */
export interface AgentLabelRow {
  owner_id: string;
  name: string;
  version_id: string | null;
  created_at: number | string;
  updated_at: number | string;
}

export interface AgentRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  published: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface AgentVersionRecord {
  id: string;
  agentId: string;
  versionNumber: number;
  definition: Record<string, unknown>;
  active: boolean;
  copiedFromVersionId: string | null;
  createdAt: number;
  deactivatedAt: number | null;
}

export interface AgentLabelRecord {
  agentId: string;
  name: string;
  agentVersionId: string;
  createdAt: number;
  updatedAt: number;
}

export type AgentMode = "plan" | "ask" | "auto";

export interface AgentConversationRecord {
  id: string;
  organizationId: string;
  /** Null until the first turn binds a conversation created without an agent. */
  agentId: string | null;
  mode: AgentMode;
  remembered: string[];
  lastResponseId: string | null;
  title: string | null;
  metadata: Record<string, string>;
  /** The owner (the API key that created it); "" for library calls and older rows. */
  createdByKeyId: string;
  createdAt: number;
  updatedAt: number;
}

export interface AgentRunRecord {
  id: string;
  organizationId: string;
  agentId: string;
  conversationId: string;
  previousResponseId: string | null;
  continuedBy: string | null;
  status: string;
  state: unknown;
  pausedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface AgentRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  published: unknown;
  created_at: number | string;
  updated_at: number | string;
}

export interface AgentVersionRow {
  id: string;
  agent_id: string;
  version_number: number | string;
  definition: unknown;
  active: unknown;
  copied_from_version_id: string | null;
  created_at: number | string;
  deactivated_at: number | string | null;
}

export interface ConversationRow {
  id: string;
  organization_id: string;
  agent_id: string | null;
  mode: AgentMode;
  remembered: unknown;
  last_response_id: string | null;
  title: string | null;
  metadata: unknown;
  created_by_key_id: string;
  created_at: number | string;
  updated_at: number | string;
}

export interface RunRow {
  id: string;
  organization_id: string;
  agent_id: string;
  conversation_id: string;
  previous_response_id: string | null;
  continued_by: string | null;
  status: string;
  state: unknown;
  paused_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

export const toAgent = (row: AgentRow): AgentRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  description: row.description,
  published: bool(row.published),
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

export const toAgentVersion = (row: AgentVersionRow): AgentVersionRecord => ({
  id: row.id,
  agentId: row.agent_id,
  versionNumber: int(row.version_number),
  definition: json<Record<string, unknown>>(row.definition),
  active: bool(row.active),
  copiedFromVersionId: row.copied_from_version_id,
  createdAt: int(row.created_at),
  deactivatedAt: intOrNull(row.deactivated_at),
});

export const toAgentLabel = (row: AgentLabelRow): AgentLabelRecord => ({
  agentId: row.owner_id,
  name: row.name,
  agentVersionId: row.version_id ?? "",
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

export const toConversation = (row: ConversationRow): AgentConversationRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  agentId: row.agent_id,
  mode: row.mode,
  remembered: json<string[]>(row.remembered),
  lastResponseId: row.last_response_id,
  title: row.title,
  metadata: json<Record<string, string>>(row.metadata),
  createdByKeyId: row.created_by_key_id,
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

export const toRun = (row: RunRow): AgentRunRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  agentId: row.agent_id,
  conversationId: row.conversation_id,
  previousResponseId: row.previous_response_id,
  continuedBy: row.continued_by,
  status: row.status,
  state: json<unknown>(row.state),
  pausedAt: intOrNull(row.paused_at),
  createdAt: int(row.created_at),
  updatedAt: int(row.updated_at),
});

/** A response's row as the runner stores it. */
export interface RunInput {
  id: string;
  organizationId: string;
  agentId: string;
  conversationId: string;
  previousResponseId: string | null;
  status: string;
  state: unknown;
  pausedAt: number | null;
}
