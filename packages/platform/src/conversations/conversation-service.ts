/**
 * Conversations as a resource (PLATFORM.md §2): create (with or without an agent, optional
 * seed messages), list with filters, read, summary, update (title, metadata, mode), delete
 * (a running turn is cancelled first; its stored runs go with it), items, and cancel of the
 * in-flight or paused turn. Update, delete and cancel are the owner's unless the caller is
 * an Admin; every other operation is open to every role of the organization.
 */
import { MODES, type RunState } from "@groundwork/agents";
import {
  CONVERSATION_ITEM_TYPES,
  forbidden,
  notFound,
  type PageRequest,
  type Principal,
  roleAllows,
} from "@groundwork/core";
import type { TokenPrice } from "@groundwork/gateway";
import type { ConversationItemRecord, ConversationStatus, ConversationView } from "@groundwork/store-sqlite";
import { z } from "zod";
import type { AgentRunner } from "../agents/agent-runner.js";
import { builtinCostEur } from "../gateway/builtin-cost.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";

const metadata = z
  .record(z.string().min(1).max(64), z.string().max(512))
  .refine((value) => Object.keys(value).length <= 16, { message: "metadata holds at most 16 pairs" });
const title = z.string().min(1).max(256).nullable();

export const conversationCreateBody = z.object({
  agentId: z.string().min(1).optional(),
  title: title.optional(),
  metadata: metadata.optional(),
  mode: z.enum(MODES).optional(),
  items: z
    .array(
      z.object({
        type: z.literal("message"),
        role: z.enum(["user", "assistant", "system"]),
        content: z.string(),
      }),
    )
    .max(20)
    .optional(),
});
export type ConversationCreateInput = z.input<typeof conversationCreateBody>;

export const conversationUpdateBody = z
  .object({ title: title.optional(), metadata: metadata.optional(), mode: z.enum(MODES).optional() })
  .refine((v) => v.title !== undefined || v.metadata !== undefined || v.mode !== undefined, {
    message: "give at least one of title, metadata, mode",
  });
export type ConversationUpdateInput = z.input<typeof conversationUpdateBody>;

export const conversationListQuery = z.object({
  agentId: z.string().min(1).optional(),
  mode: z.enum(MODES).optional(),
  status: z.enum(["idle", "in_progress", "paused"]).optional(),
});

export const conversationItemsQuery = z.object({
  order: z.enum(["asc", "desc"]).default("desc"),
  type: z.enum(CONVERSATION_ITEM_TYPES).optional(),
});

export const conversationCancelBody = z.object({ reason: z.string().max(512).optional() });

export interface ConversationSummary {
  conversationId: string;
  agentId: string | null;
  agentName: string | null;
  mode: string;
  status: ConversationStatus;
  turnCount: number;
  itemCount: number;
  lastResponseId: string | null;
  lastActivityAt: number;
  pendingApprovalCount: number;
  pendingToolCallCount: number;
  toolCallCount: number;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number; costEur: number };
}

export interface CancelledTurn {
  conversationId: string;
  responseId: string;
  status: "cancelled";
  previousStatus: string;
}

export class ConversationService {
  constructor(
    private readonly store: PlatformStore,
    private readonly runner: AgentRunner,
    /** Built-in model prices, to price the runs' model calls as the gateway's usage records do. */
    private readonly chatPrices: Readonly<Record<string, TokenPrice>> = {},
  ) {}

  async create(principal: Principal, raw: unknown): Promise<ConversationView> {
    const input = validate(conversationCreateBody, raw);
    const org = principal.organizationId;
    if (input.agentId !== undefined && (await this.store.agents.get(org, input.agentId)) === null) {
      throw notFound(`No agent ${input.agentId}`, { param: "agentId" });
    }
    const created = await this.store.agents.createConversation(
      org,
      input.agentId ?? null,
      input.mode ?? "ask",
      {
        title: input.title ?? null,
        metadata: input.metadata ?? {},
        createdByKeyId: principal.apiKeyId,
      },
    );
    await this.store.conversations.appendItems(
      created.id,
      null,
      (input.items ?? []).map((item) => ({
        type: "message",
        data: {
          role: item.role,
          content: [{ type: item.role === "assistant" ? "output_text" : "input_text", text: item.content }],
        },
      })),
    );
    return this.get(principal, created.id);
  }

  async list(
    principal: Principal,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: ConversationView[]; total: number }> {
    const filter = validate(conversationListQuery, query);
    return await this.store.conversations.list(principal.organizationId, filter, page);
  }

  async get(principal: Principal, conversationId: string): Promise<ConversationView> {
    const conversation = await this.store.conversations.get(principal.organizationId, conversationId);
    if (conversation === null)
      throw notFound(`No conversation ${conversationId}`, { param: "conversationId" });
    return conversation;
  }

  async update(principal: Principal, conversationId: string, raw: unknown): Promise<ConversationView> {
    const input = validate(conversationUpdateBody, raw);
    await this.owned(principal, conversationId, "update");
    await this.store.agents.updateConversation(conversationId, {
      ...(input.title === undefined ? {} : { title: input.title }),
      ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      ...(input.mode === undefined ? {} : { mode: input.mode }),
    });
    return this.get(principal, conversationId);
  }

  async delete(principal: Principal, conversationId: string): Promise<void> {
    await this.owned(principal, conversationId, "delete");
    if (this.runner.isTurnActive(conversationId)) {
      await this.runner.cancelTurn(principal, conversationId).catch(() => undefined);
    }
    await this.store.conversations.delete(principal.organizationId, conversationId);
  }

  async cancel(principal: Principal, conversationId: string, raw: unknown = {}): Promise<CancelledTurn> {
    const input = validate(conversationCancelBody, raw);
    await this.owned(principal, conversationId, "cancel");
    const { responseId, previousStatus } = await this.runner.cancelTurn(
      principal,
      conversationId,
      input.reason ?? null,
    );
    return { conversationId, responseId, status: "cancelled", previousStatus };
  }

  async summary(principal: Principal, conversationId: string): Promise<ConversationSummary> {
    const conversation = await this.get(principal, conversationId);
    const states = (await this.store.conversations.runStates(
      principal.organizationId,
      conversationId,
    )) as RunState[];
    const last = states.find((s) => s.id === conversation.lastResponseId);
    let inputTokens = 0;
    let outputTokens = 0;
    let toolCallCount = 0;
    let costEur = 0;
    for (const state of states) {
      inputTokens += state.usage.inputTokens;
      outputTokens += state.usage.outputTokens;
      toolCallCount += state.toolCalls.length;
      // Run states keep no cached-token count, so a run is priced at the uncached input rate;
      // the judge calls' share of the usage at the judge's model.
      let judgeInput = 0;
      let judgeOutput = 0;
      for (const judged of state.judgeUsage ?? []) {
        judgeInput += judged.inputTokens;
        judgeOutput += judged.outputTokens;
        costEur += builtinCostEur(this.chatPrices, judged.model, {
          promptTokens: judged.inputTokens,
          completionTokens: judged.outputTokens,
          cachedTokens: null,
        });
      }
      costEur += builtinCostEur(this.chatPrices, state.model, {
        promptTokens: state.usage.inputTokens - judgeInput,
        completionTokens: state.usage.outputTokens - judgeOutput,
        cachedTokens: null,
      });
    }
    const paused = conversation.status === "paused" && last !== undefined;
    return {
      conversationId,
      agentId: conversation.agentId,
      agentName: conversation.agentName,
      mode: conversation.mode,
      status: conversation.status,
      turnCount: conversation.turnCount,
      itemCount: await this.store.conversations.countItems(conversationId),
      lastResponseId: conversation.lastResponseId,
      lastActivityAt: conversation.lastActivityAt,
      pendingApprovalCount: paused ? last.pendingApprovals.length : 0,
      pendingToolCallCount: paused ? last.pendingToolCalls.length : 0,
      toolCallCount,
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, costEur },
    };
  }

  async items(
    principal: Principal,
    conversationId: string,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: ConversationItemRecord[]; total: number }> {
    const options = validate(conversationItemsQuery, query);
    await this.get(principal, conversationId);
    return await this.store.conversations.listItems(conversationId, options, page);
  }

  /** The conversation, when the caller owns it or is an Admin (403 otherwise; 404 before that). */
  private async owned(
    principal: Principal,
    conversationId: string,
    operation: string,
  ): Promise<ConversationView> {
    const conversation = await this.get(principal, conversationId);
    if (!roleAllows(principal.role, "admin") && conversation.createdByKeyId !== principal.apiKeyId) {
      throw forbidden(`Only the conversation's creator or an Admin may ${operation} it`);
    }
    return conversation;
  }
}
