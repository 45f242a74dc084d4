/** Conversations and items as the API shows them (PLATFORM.md §2.1, §2.2): timestamps as ISO strings. */
import type { ConversationSummary } from "@groundwork/platform";
import type { ConversationItemRecord, ConversationView } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderConversation(conversation: ConversationView) {
  return {
    id: conversation.id,
    object: "conversation",
    agentId: conversation.agentId,
    agentName: conversation.agentName,
    title: conversation.title,
    metadata: conversation.metadata,
    mode: conversation.mode,
    status: conversation.status,
    lastResponseId: conversation.lastResponseId,
    turnCount: conversation.turnCount,
    createdByKeyId: conversation.createdByKeyId,
    createdAt: iso(conversation.createdAt),
    updatedAt: iso(conversation.updatedAt),
    lastActivityAt: iso(conversation.lastActivityAt),
  };
}

export function renderItem(item: ConversationItemRecord) {
  return {
    id: item.id,
    type: item.type,
    responseId: item.responseId,
    position: item.position,
    createdAt: iso(item.createdAt),
    ...item.data,
  };
}

export function renderSummary(summary: ConversationSummary) {
  return { ...summary, lastActivityAt: iso(summary.lastActivityAt) };
}
