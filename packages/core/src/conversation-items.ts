/** The item types of a conversation (PLATFORM.md §2.2), shared by the platform and the tool server. */
export const CONVERSATION_ITEM_TYPES = [
  "message",
  "function_call",
  "function_call_output",
  "approval_request",
  "approval_response",
  "deliverable",
] as const;
export type ConversationItemType = (typeof CONVERSATION_ITEM_TYPES)[number];
