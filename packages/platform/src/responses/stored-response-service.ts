/**
 * Stored responses (PLATFORM.md §2.6): every `/v1/responses` answer is kept for the
 * organization with its owner key, read back as answered (agent runs with their current
 * status), its input items listed, and deleted by its owner or an Admin.
 */
import type { RunState } from "@groundwork/agents";
import {
  conflict,
  forbidden,
  notFound,
  type PageRequest,
  type Principal,
  roleAllows,
} from "@groundwork/core";
import type { AgentRunRecord, StoredResponseRecord } from "@groundwork/store-sqlite";
import { z } from "zod";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";

/** Without a conversation a response is kept 30 days (PLATFORM.md §2.6). */
export const STORED_RESPONSE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const inputItemsQuery = z.object({ order: z.enum(["asc", "desc"]).default("desc") });

export class StoredResponseService {
  constructor(
    private readonly store: PlatformStore,
    /** Renders a run state as the agent runner does (its clock and pause window). */
    private readonly render: (state: RunState) => unknown,
  ) {}

  /** Stores a plain model answer (the response object exactly as sent to the client). */
  async recordModel(principal: Principal, input: unknown, response: { id: string }): Promise<void> {
    await this.store.storedResponses.save({
      id: response.id,
      organizationId: principal.organizationId,
      createdByKeyId: principal.apiKeyId,
      kind: "model",
      conversationId: null,
      input: toInputItems(input),
      response,
      retainForMs: STORED_RESPONSE_RETENTION_MS,
    });
  }

  /** Stores an agent answer's owner and input; the run state renders the object (it lives in a conversation). */
  async recordAgent(principal: Principal, input: unknown, responseId: string): Promise<void> {
    await this.store.storedResponses.save({
      id: responseId,
      organizationId: principal.organizationId,
      createdByKeyId: principal.apiKeyId,
      kind: "agent",
      conversationId: null,
      input: toInputItems(input),
      response: null,
      retainForMs: null,
    });
  }

  /** The response object as answered; an agent run's with its current status and `run` envelope. */
  async get(principal: Principal, responseId: string): Promise<unknown> {
    const stored = await this.find(principal, responseId);
    if (stored.kind === "model") return stored.response;
    return this.render((await this.run(principal, responseId)).state as RunState);
  }

  async inputItems(
    principal: Principal,
    responseId: string,
    query: unknown,
    page: PageRequest,
  ): Promise<{ items: unknown[]; total: number }> {
    const { order } = validate(inputItemsQuery, query);
    const items = (await this.find(principal, responseId)).input;
    const ordered = order === "asc" ? items : [...items].reverse();
    const start = page.page * page.size;
    return { items: ordered.slice(start, start + page.size), total: items.length };
  }

  /** Deletes it (a paused agent run of it can no longer be continued: its run state goes too). */
  async delete(principal: Principal, responseId: string): Promise<void> {
    const stored = await this.find(principal, responseId);
    if (!roleAllows(principal.role, "admin") && stored.createdByKeyId !== principal.apiKeyId) {
      throw forbidden("Only the response's creator or an Admin may delete it");
    }
    if (
      stored.kind === "agent" &&
      (await this.store.agents.getRun(principal.organizationId, responseId))?.status === "in_progress"
    ) {
      throw conflict(`Response ${responseId} is in progress; cancel its turn first`);
    }
    await this.store.storedResponses.delete(principal.organizationId, responseId);
  }

  /** Removes responses past their retention (run at start; reads skip them meanwhile). */
  async purgeExpired(): Promise<number> {
    return await this.store.storedResponses.purgeExpired();
  }

  /**
   * The stored record. A run not recorded (yet) — a non-streamed turn still running, or a
   * continuation the pause-window job ran — reads as its conversation owner's, without input.
   */
  private async find(principal: Principal, responseId: string): Promise<StoredResponseRecord> {
    const org = principal.organizationId;
    const stored = await this.store.storedResponses.get(org, responseId);
    if (stored?.kind === "model") return stored;
    const run = await this.store.agents.getRun(org, responseId);
    if (run === null) throw notFound(`No response ${responseId}`, { param: "responseId" });
    return (
      stored ?? {
        id: run.id,
        organizationId: org,
        createdByKeyId:
          (await this.store.agents.getConversation(org, run.conversationId))?.createdByKeyId ?? "",
        kind: "agent",
        conversationId: run.conversationId,
        input: [],
        response: null,
        createdAt: run.createdAt,
        expiresAt: null,
      }
    );
  }

  private async run(principal: Principal, responseId: string): Promise<AgentRunRecord> {
    const run = await this.store.agents.getRun(principal.organizationId, responseId);
    if (run === null) throw notFound(`No response ${responseId}`, { param: "responseId" });
    return run;
  }
}

/** The request's `input` as a list of items: a string is one user message (as OpenAI lists it). */
function toInputItems(input: unknown): unknown[] {
  if (typeof input === "string") {
    return [{ type: "message", role: "user", content: [{ type: "input_text", text: input }] }];
  }
  return Array.isArray(input) ? input : [];
}
