/**
 * Conversations (PLATFORM.md §2.5): create, list, read, summary, update, delete, cancel the
 * active turn and list the items of a conversation.
 */
import { CONVERSATION_ITEM_TYPES } from "@groundwork/core";
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const conversationId = z.string().min(1).describe("the conversation id (conv_…)");
const mode = z.enum(["plan", "ask", "auto"]).describe("the agent mode for this and later turns");
const title = z.string().min(1).max(256).nullable().describe("a title of 1-256 chars, or null");
const metadata = z
  .record(z.string(), z.string())
  .describe("string-to-string pairs (at most 16; keys 1-64 chars, values up to 512); replaces the whole map");

export const conversationTools = [
  defineTool({
    name: "create_conversation",
    group: "Conversations",
    title: "Create a conversation",
    description:
      "Creates a conversation, optionally bound to an agent and seeded with up to 20 messages; agent turns (svc_create_response with conversation) are appended to it.",
    readOnly: false,
    input: {
      agentId: z
        .string()
        .optional()
        .describe("the agent (agt_…) it belongs to; otherwise its first turn binds it"),
      title: title.optional(),
      metadata: metadata.optional(),
      mode: mode.optional(),
      items: z
        .array(
          z.object({
            type: z.literal("message"),
            role: z.enum(["user", "assistant", "system"]),
            content: z.string(),
          }),
        )
        .optional()
        .describe("seed messages {type:'message', role, content}"),
    },
    run: (client, args) => client.conversations.create(defined(args)),
  }),
  defineTool({
    name: "list_conversations",
    group: "Conversations",
    title: "List conversations",
    description:
      "Lists the organization's conversations, most recently active first, filtered by agent, mode or status.",
    readOnly: true,
    input: {
      agentId: z.string().optional().describe("only this agent's conversations"),
      mode: mode.optional(),
      status: z
        .enum(["idle", "in_progress", "paused"])
        .optional()
        .describe("only conversations in this status"),
      ...page,
    },
    run: (client, args) => client.conversations.list(defined(args)),
  }),
  defineTool({
    name: "get_conversation_summary",
    group: "Conversations",
    title: "Summarize a conversation",
    description:
      "Status, turn and item counts, pending approvals and tool calls, and token usage of one conversation.",
    readOnly: true,
    input: { conversationId },
    run: (client, args) => client.conversations.summary(args.conversationId),
  }),
  defineTool({
    name: "get_conversation",
    group: "Conversations",
    title: "Get a conversation",
    description: "Reads one conversation: agent, title, metadata, mode, status and last response.",
    readOnly: true,
    input: { conversationId },
    run: (client, args) => client.conversations.get(args.conversationId),
  }),
  defineTool({
    name: "update_conversation",
    group: "Conversations",
    title: "Update a conversation",
    description: "Changes the title, metadata or mode of a conversation you created (Admins: any).",
    readOnly: false,
    input: { conversationId, title: title.optional(), metadata: metadata.optional(), mode: mode.optional() },
    run: (client, { conversationId: id, ...body }) => client.conversations.update(id, defined(body)),
  }),
  defineTool({
    name: "delete_conversation",
    group: "Conversations",
    title: "Delete a conversation",
    description:
      "Deletes a conversation you created (Admins: any) with its items and stored responses; a running turn is cancelled first.",
    readOnly: false,
    destructive: true,
    input: { conversationId },
    run: async (client, args) => {
      await client.conversations.delete(args.conversationId);
      return { ok: true };
    },
  }),
  defineTool({
    name: "cancel_conversation_turn",
    group: "Conversations",
    title: "Cancel the active turn",
    description:
      "Cancels the running or paused turn of a conversation: a running one stops at its next step, a paused one can no longer be continued.",
    readOnly: false,
    destructive: true,
    input: { conversationId, reason: z.string().max(512).optional().describe("why (up to 512 chars)") },
    run: (client, { conversationId: id, ...body }) => client.conversations.cancel(id, defined(body)),
  }),
  defineTool({
    name: "list_conversation_items",
    group: "Conversations",
    title: "List conversation items",
    description:
      "Lists the items of a conversation (messages, function calls and outputs, approval requests and responses), newest first unless order is asc.",
    readOnly: true,
    input: {
      conversationId,
      order: z.enum(["asc", "desc"]).optional().describe("asc = oldest first; default desc"),
      type: z.enum(CONVERSATION_ITEM_TYPES).optional().describe("only items of this type"),
      ...page,
    },
    run: (client, { conversationId: id, ...query }) => client.conversations.items(id, defined(query)),
  }),
];
