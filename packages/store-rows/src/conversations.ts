/**
 * Conversation rows as a resource (PLATFORM.md §2): the listing with the fields derived from
 * their responses (status, turn count, last activity) and the items each response appended.
 */
import { type AgentConversationRecord, type ConversationRow, toConversation } from "./agents.js";
import { int, json } from "./columns.js";

export type ConversationStatus = "idle" | "in_progress" | "paused";

export interface ConversationView extends AgentConversationRecord {
  agentName: string | null;
  status: ConversationStatus;
  turnCount: number;
  lastActivityAt: number;
}

export interface ConversationItemRecord {
  id: string;
  conversationId: string;
  responseId: string | null;
  position: number;
  type: string;
  /** The type's own fields (role and content, callId and output, …). */
  data: Record<string, unknown>;
  createdAt: number;
}

export interface ConversationViewRow extends ConversationRow {
  agent_name: string | null;
  status: ConversationStatus;
  turn_count: number | string;
  last_activity_at: number | string;
}

export interface ConversationItemRow {
  id: string;
  conversation_id: string;
  response_id: string | null;
  position: number | string;
  type: string;
  data: unknown;
  created_at: number | string;
}

export const toConversationView = (row: ConversationViewRow): ConversationView => ({
  ...toConversation(row),
  agentName: row.agent_name,
  status: row.status,
  turnCount: int(row.turn_count),
  lastActivityAt: int(row.last_activity_at),
});

export const toConversationItem = (row: ConversationItemRow): ConversationItemRecord => ({
  id: row.id,
  conversationId: row.conversation_id,
  responseId: row.response_id,
  position: int(row.position),
  type: row.type,
  data: json<Record<string, unknown>>(row.data),
  createdAt: int(row.created_at),
});

export interface ConversationFilter {
  agentId?: string | undefined;
  mode?: string | undefined;
  status?: ConversationStatus | undefined;
}
