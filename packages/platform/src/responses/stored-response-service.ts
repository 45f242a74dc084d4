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
import type { AgentRunRecord, Store, StoredResponseRecord } from "@groundwork/store-sqlite";
import { z } from "zod";
import { validate } from "../validate.js";

/** Without a conversation a response is kept 30 days (PLATFORM.md §2.6). */
export const STORED_RESPONSE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const inputItemsQuery = z.object({ order: z.enum(["asc", "desc"]).default("desc") });

export class StoredResponseService {
  constructor(
    private readonly store: Store,
    /** Renders a run state as the agent runner does (its clock and pause window). */
    private readonly render: (state: RunState) => unknown,
  ) {}

  /** Stores a plain model answer (the response object exactly as sent to the client). */
  recordModel(principal: Principal, input: unknown, response: { id: string }): void {
    this.store.storedResponses.save({
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
  recordAgent(principal: Principal, input: unknown, responseId: string): void {
    this.store.storedResponses.save({
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
  get(principal: Principal, responseId: string): unknown {
    const stored = this.find(principal, responseId);
    if (stored.kind === "model") return stored.response;
    return this.render(this.run(principal, responseId).state as RunState);
  }

  inputItems(
    principal: Principal,
    responseId: string,
    query: unknown,
    page: PageRequest,
  ): { items: unknown[]; total: number } {
    const { order } = validate(inputItemsQuery, query);
    const items = this.find(principal, responseId).input;
    const ordered = order === "asc" ? items : [...items].reverse();
    const start = page.page * page.size;
    return { items: ordered.slice(start, start + page.size), total: items.length };
  }

  /** Deletes it (a paused agent run of it can no longer be continued: its run state goes too). */
  delete(principal: Principal, responseId: string): void {
    const stored = this.find(principal, responseId);
    if (!roleAllows(principal.role, "admin") && stored.createdByKeyId !== principal.apiKeyId) {
      throw forbidden("Only the response's creator or an Admin may delete it");
    }
    if (
      stored.kind === "agent" &&
      this.store.agents.getRun(principal.organizationId, responseId)?.status === "in_progress"
    ) {
      throw conflict(`Response ${responseId} is in progress; cancel its turn first`);
    }
    this.store.storedResponses.delete(principal.organizationId, responseId);
  }

  /** Removes responses past their retention (run at start; reads skip them meanwhile). */
  purgeExpired(): number {
    return this.store.storedResponses.purgeExpired();
  }

  /**
   * The stored record. A run not recorded (yet) — a non-streamed turn still running, or a
   * continuation the pause-window job ran — reads as its conversation owner's, without input.
   */
  private find(principal: Principal, responseId: string): StoredResponseRecord {
    const org = principal.organizationId;
    const stored = this.store.storedResponses.get(org, responseId);
    if (stored?.kind === "model") return stored;
    const run = this.store.agents.getRun(org, responseId);
    if (run === null) throw notFound(`No response ${responseId}`, { param: "responseId" });
    return (
      stored ?? {
        id: run.id,
        organizationId: org,
        createdByKeyId: this.store.agents.getConversation(org, run.conversationId)?.createdByKeyId ?? "",
        kind: "agent",
        conversationId: run.conversationId,
        input: [],
        response: null,
        createdAt: run.createdAt,
        expiresAt: null,
      }
    );
  }

  private run(principal: Principal, responseId: string): AgentRunRecord {
    const run = this.store.agents.getRun(principal.organizationId, responseId);
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
