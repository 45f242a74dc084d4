/**
 * Agent runs through `POST /v1/responses` (`model: agent/<name>[@label|@version][#model]`):
 * resolves the agent version and model, keeps conversations (mode, remembered approvals),
 * runs the engine with the gateway as its model and the server-side tools, and persists
 * every response's state, so a paused run can be continued after a restart.
 *
 * Continuing a paused response: `previous_response_id` plus `function_call_output` and
 * `approval_response` items (or `decideAll`). The paused row is claimed in one statement
 * (`continued_by`), so two continuations never both run its tools; a continuation that
 * failed mid-way (model error, crash) is resumed by sending the same continuation again,
 * and a tool call it had started is never started twice.
 */
import {
  type AgentContext,
  type AgentDefinition,
  type AgentResponseObject,
  type ApprovalDecision,
  type ConversationMode,
  cancelRun,
  canRemember,
  isAgentRef,
  MODES,
  modelJudge,
  modelsOf,
  PAUSE_TIMEOUT_MS,
  PAUSED_STATUSES,
  parseAgentRef,
  RunEngine,
  type RunEvent,
  type RunSkill,
  type RunState,
  runTools,
  SKILLS_APPLY_TOOL_NAME,
  type ToolJudge,
  type ToolOutput,
  toAgentResponse,
  withSkillIndex,
} from "@groundwork/agents";
import {
  type ChatMessage,
  type Clock,
  conflict,
  defaultIdGenerator,
  forbidden,
  type IdGenerator,
  invalidRequest,
  notFound,
  type Principal,
  roleAllows,
  systemClock,
} from "@groundwork/core";
import type { Gateway } from "@groundwork/gateway";
import { GLOBAL_TRACE_HOOKS, type TraceHooks } from "@groundwork/observability";
import type {
  AgentConversationRecord,
  AgentRecord,
  AgentVersionRecord,
  RunInput,
} from "@groundwork/store-sqlite";
import { z } from "zod";
import type { ConnectorService } from "../connectors/connector-service.js";
import {
  approvalResponseItem as answeredItem,
  itemsOfResponse,
  type NewItem,
} from "../conversations/conversation-items.js";
import { gatewayChatModel } from "../extraction/gateway-chat-model.js";
import { BackgroundWorker } from "../jobs/background-worker.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import { definitionOf, resolveVersion } from "./resolve.js";
import { DEFAULT_FUNCTION_TIMEOUT_MS, ServerToolExecutor, type ToolServices } from "./tool-executor.js";

export { isAgentRef, PAUSE_TIMEOUT_MS };

const textPart = z.object({ type: z.enum(["input_text", "output_text"]), text: z.string() });
const messageItem = z.object({
  type: z.literal("message"),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(textPart)]),
});
const functionCallOutputItem = z.object({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(textPart)]),
  /** Groundwork extension (the tool server's `failed`): the output is the failure message. */
  failed: z.boolean().optional(),
});
const approvalResponseItem = z.object({
  type: z.literal("approval_response"),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: z.string().optional(),
  /** Approves the tool for the rest of the conversation; refused for destructive tools. */
  remember: z.boolean().optional(),
});
const inputItem = z.preprocess(
  (value) =>
    typeof value === "object" && value !== null && !Array.isArray(value) && !("type" in value)
      ? { ...value, type: "message" }
      : value,
  z.discriminatedUnion("type", [messageItem, functionCallOutputItem, approvalResponseItem], {
    error:
      "agent input items must be messages ({role, content}), function_call_output or approval_response items",
  }),
);

export const agentResponsesBody = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(inputItem)]).optional(),
  instructions: z.string().nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  conversationId: z.string().nullable().optional(),
  conversation: z
    .union([z.string(), z.object({ id: z.string() })])
    .nullable()
    .optional(),
  agentModel: z.string().min(1).optional(),
  mode: z.enum(MODES).optional(),
  decideAll: z.enum(["approve", "reject"]).optional(),
  stream: z.boolean().nullable().optional(),
});
export type AgentResponsesBody = z.output<typeof agentResponsesBody>;

export interface AgentRunnerOptions {
  clock?: Clock;
  ids?: IdGenerator;
  /** Replaces the model judge of JUDGE verdicts (PLATFORM.md §6). */
  judge?: ToolJudge;
  /** The model judge's model; null or absent: the run's answering model. */
  judgeModel?: string | null;
  /** How a failed call of the configured judge model names its setting. */
  judgeModelSetting?: string;
  allowPrivateNetwork?: boolean;
  /** How a refused function endpoint names the setting that allows private networks. */
  allowPrivateNetworkSetting?: string;
  functionTimeoutMs?: number;
  fetch?: typeof fetch;
  pauseTimeoutMs?: number;
  maxSteps?: number;
  leaseMs?: number;
  pollMs?: number;
  /** Connectors (PLATFORM.md §5.3): pre-flight, their tools and questions; none: runs use no connectors. */
  connectors?: ConnectorService;
  /** Origin of the chat app connector pauses point to; "" renders paths only. */
  chatUrl?: string;
  /** Traces every request of a response and its tool calls (PLATFORM.md §13); by default the global provider's. */
  traceHooks?: TraceHooks;
}

/** The durable job that closes a pause window nobody answered (PLATFORM.md §6). */
export const PAUSE_WINDOW_JOB_KIND = "agents.pause_window";

interface PauseWindowPayload {
  responseId: string;
  principal: Principal;
}

/**
 * A judge that asks no model: anything that reaches it (tools that are not read-class; read
 * tools run without a judge call) goes to a human. The behaviour before the model judge.
 */
export const readOnlyJudge: ToolJudge = {
  judge: async ({ decision }) => (decision.class === "read" ? "allow" : "approve"),
};

/** The items a running turn appends to its conversation: `before` its response's own, from message `from`. */
interface TurnItems {
  readonly before: NewItem[];
  readonly from: number;
  appended: boolean;
}

/**
 * The statuses a turn's last save writes and returns with. `failed` is left out: a run that
 * fails throws, and a thrown turn has never appended its items.
 */
const ENDS_TURN: ReadonlySet<RunState["status"]> = new Set<RunState["status"]>([
  "completed",
  "incomplete",
  "requires_approval",
  "requires_tool_output",
]);

export class AgentRunner {
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  /** Responses whose loop runs in this process now. */
  private readonly running = new Set<string>();
  /** Conversations with a turn running in this process now, and the items that turn appends. */
  private readonly activeTurns = new Map<string, TurnItems>();
  /** Conversations whose running turn was asked to stop at its next step boundary. */
  private readonly cancelRequested = new Set<string>();
  private readonly worker: BackgroundWorker;
  private readonly pauseTimeoutMs: number;

  constructor(
    readonly store: PlatformStore,
    readonly gateway: Gateway,
    /** The services the server-side tools call (search, extraction, conversion). */
    private readonly services: ToolServices,
    private readonly options: AgentRunnerOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? defaultIdGenerator;
    this.pauseTimeoutMs = options.pauseTimeoutMs ?? PAUSE_TIMEOUT_MS;
    this.worker = new BackgroundWorker(
      store.jobs,
      {
        [PAUSE_WINDOW_JOB_KIND]: async (job) =>
          await this.closePauseWindow(job.payload as PauseWindowPayload),
      },
      {
        ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      },
    );
  }

  /** Starts the pause-window worker (windows that passed while the process was down close now). */
  startWorker(): void {
    this.worker.start();
  }

  stopWorker(): Promise<void> {
    return this.worker.stop();
  }

  /** Runs the due pause-window jobs now (tests, scripts). */
  drainWorker(): Promise<number> {
    return this.worker.drain();
  }

  parseBody(value: unknown): AgentResponsesBody {
    return validate(agentResponsesBody, value);
  }

  private engine(principal: Principal, organizationId: string): RunEngine {
    const chat = gatewayChatModel(this.gateway, principal);
    const serverTools = new ServerToolExecutor(this.store, this.services, principal, {
      allowPrivateNetwork: this.options.allowPrivateNetwork ?? false,
      ...(this.options.allowPrivateNetworkSetting === undefined
        ? {}
        : { allowPrivateNetworkSetting: this.options.allowPrivateNetworkSetting }),
      functionTimeoutMs: this.options.functionTimeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
      now: () => this.clock.now(),
    });
    const connectors = this.options.connectors;
    return new RunEngine({
      model: chat,
      tools: {
        execute: async (call) =>
          call.tool.connector !== undefined && connectors !== undefined
            ? await connectors.execute(principal, call)
            : serverTools.execute(call),
        prepareApproval: (call) => serverTools.prepareApproval(call),
      },
      store: {
        save: async (state) => {
          const turn = this.activeTurns.get(state.conversationId);
          if (turn !== undefined && !turn.appended && ENDS_TURN.has(state.status)) {
            // The save that ends the turn makes the conversation read idle or paused: the turn's
            // items are written in the same unit of work, so no reader (another process on
            // PostgreSQL) sees the conversation ended without its last items.
            await this.store.agents.atomically(async () => {
              await this.saveState(organizationId, state);
              await this.store.agents.updateConversation(state.conversationId, { lastResponseId: state.id });
              await this.store.conversations.appendItems(state.conversationId, state.id, [
                ...turn.before,
                ...itemsOfResponse(state, turn.from),
              ]);
            });
            turn.appended = true;
            return;
          }
          await this.saveState(organizationId, state);
          await this.store.agents.updateConversation(state.conversationId, { lastResponseId: state.id });
        },
      },
      clock: this.clock,
      ids: this.ids,
      // The judge calls go through the gateway as the caller: metered like chat.
      judge:
        this.options.judge ??
        modelJudge(chat, {
          model: this.options.judgeModel ?? null,
          ...(this.options.judgeModelSetting === undefined
            ? {}
            : { modelSetting: this.options.judgeModelSetting }),
        }),
      ...(this.options.pauseTimeoutMs === undefined ? {} : { pauseTimeoutMs: this.options.pauseTimeoutMs }),
      ...(this.options.maxSteps === undefined ? {} : { maxSteps: this.options.maxSteps }),
      tracing: { hooks: this.options.traceHooks ?? GLOBAL_TRACE_HOOKS, organizationId },
    });
  }

  /** Runs (or continues) an agent response; the caller renders the state. */
  async respond(
    principal: Principal,
    body: AgentResponsesBody,
    options: { signal?: AbortSignal; onEvent?: (event: RunEvent) => void } = {},
  ): Promise<RunState> {
    const org = principal.organizationId;
    const ref = parseAgentRef(body.model);
    const agent = await this.store.agents.getByName(org, ref.name);
    if (agent === null) throw notFound(`No agent named "${ref.name}"`, { param: "model" });
    if (!roleAllows(principal.role, "member") && !agent.published) {
      throw forbidden(
        `Agent "${agent.name}" is not published; Viewer keys may run published agents only (Member or Admin run any agent)`,
      );
    }
    if (body.agentModel !== undefined && ref.model !== undefined && body.agentModel !== ref.model) {
      throw invalidRequest("agentModel and the #model switch disagree; give one", { param: "agentModel" });
    }
    const switchTo = ref.model ?? body.agentModel;
    const items = body.input === undefined ? [] : typeof body.input === "string" ? [body.input] : body.input;

    const previous =
      body.previous_response_id == null
        ? null
        : await this.store.agents.getRun(org, body.previous_response_id);
    if (body.previous_response_id != null && previous === null) {
      throw notFound(`No response ${body.previous_response_id}`, { param: "previous_response_id" });
    }
    if (previous !== null && previous.agentId !== agent.id) {
      throw invalidRequest(`Response ${previous.id} belongs to another agent`, {
        param: "previous_response_id",
      });
    }
    const previousState = previous === null ? null : (previous.state as RunState);

    if (
      previousState?.incompleteReason === "cancelled" &&
      items.some((item) => typeof item !== "string" && item.type !== "message")
    ) {
      throw conflict(
        `Response ${previousState.id} was cancelled; its approvals and tool calls can no longer be answered`,
        { param: "previous_response_id" },
      );
    }

    // ---- continuation of a paused response ----
    if (previous !== null && previousState !== null && PAUSED_STATUSES.includes(previousState.status)) {
      if (
        previousState.pausedAt !== null &&
        this.clock.now() > previousState.pausedAt + this.pauseTimeoutMs
      ) {
        throw conflict(
          `The pause of response ${previous.id} expired ${Math.round(this.pauseTimeoutMs / 1000)} s after it began; its approvals and tool calls were recorded as timed out`,
          { param: "previous_response_id", code: "pause_expired" },
        );
      }
      if ((await this.options.connectors?.hasOpenInputs(org, previousState)) === true) {
        throw conflict(
          `Response ${previous.id} waits for answers to connector questions; answer them first (run.pendingInputs)`,
          { param: "previous_response_id", code: "inputs_pending" },
        );
      }
      const version = await this.versionById(agent, previousState.agentVersionId);
      const model = this.pickModel(version, switchTo, previousState.model);
      const conversation = await this.conversationOf(org, agent, previousState.conversationId);
      const decisions: ApprovalDecision[] = [];
      const outputs: ToolOutput[] = [];
      const remember: string[] = [];
      for (const [index, item] of items.entries()) {
        if (typeof item === "string" || item.type === "message") {
          throw invalidRequest(
            "A paused response is continued only with function_call_output and approval_response items",
            { param: `input[${index}]` },
          );
        }
        if (item.type === "function_call_output") {
          outputs.push({
            callId: item.call_id,
            output: typeof item.output === "string" ? item.output : item.output.map((p) => p.text).join(""),
            ...(item.failed === undefined ? {} : { failed: item.failed }),
          });
        } else {
          decisions.push({
            approvalId: item.approval_request_id,
            approve: item.approve,
            ...(item.reason === undefined ? {} : { reason: item.reason }),
          });
          if (item.remember === true) {
            const pending = previousState.pendingApprovals.find((p) => p.id === item.approval_request_id);
            if (pending?.tool === SKILLS_APPLY_TOOL_NAME) {
              throw invalidRequest(
                `remember is refused for ${SKILLS_APPLY_TOOL_NAME}: every change to a skill waits for a human`,
                { param: `input[${index}].remember` },
              );
            }
            // The paused response's tools: the version's with its skill tools and the implicit ones.
            const tool = [
              ...runTools(definitionOf(version), previousState.skills ?? []),
              ...(this.services.platformTools?.implicitTools() ?? []),
            ].find((t) => t.name === pending?.tool);
            if (!canRemember({ tool: tool?.gate, policy: definitionOf(version).hitlPolicy })) {
              throw invalidRequest(
                `remember is refused for destructive tools ("${pending?.tool ?? item.approval_request_id}"); approve it without remember`,
                { param: `input[${index}].remember` },
              );
            }
            if (item.approve && pending !== undefined) remember.push(pending.tool);
          }
        }
      }
      const engine = this.engine(principal, org);
      if (previous.continuedBy !== null) {
        return this.resumeContinuation(
          engine,
          principal,
          agent,
          version,
          conversation,
          previous.continuedBy,
          options,
        );
      }
      // Each continuation resolves the skill bindings again (PLATFORM.md §4.4).
      const skills = await this.resolveSkills(org, version);
      const prepared = engine.prepareContinuation(previousState, {
        decisions,
        outputs,
        skills,
        ...(body.decideAll === undefined ? {} : { decideAll: body.decideAll }),
        // A mode set on the conversation meanwhile (PATCH) applies to the continuation too.
        mode: body.mode ?? conversation.mode,
        model,
        agentRef: ref.raw,
      });
      if (!(await this.claim(org, previous.id, prepared))) {
        throw conflict(`Response ${previous.id} was continued meanwhile`, { param: "previous_response_id" });
      }
      const updated = await this.updateConversation(conversation, body.mode, remember);
      const answered = decisions.map((d) => answeredItem(d.approvalId, d.approve, d.reason ?? null));
      if (body.decideAll !== undefined) {
        for (const pending of previousState.pendingApprovals) {
          if (!decisions.some((d) => d.approvalId === pending.id)) {
            answered.push(answeredItem(pending.id, body.decideAll === "approve", null));
          }
        }
      }
      return this.runTurn(
        principal,
        conversation.id,
        prepared.id,
        answered,
        previousState.messages.length,
        () => engine.continue(prepared, this.contextFor(principal, agent, version, updated, options, skills)),
      );
    }

    // ---- a new turn ----
    if (
      previousState !== null &&
      previousState.status !== "completed" &&
      previousState.status !== "incomplete"
    ) {
      throw conflict(
        `Response ${previousState.id} is ${previousState.status}; a new turn follows a completed or incomplete response`,
        { param: "previous_response_id" },
      );
    }
    const version = await resolveVersion(this.store, agent, ref.selector);
    const model = this.pickModel(version, switchTo, undefined);
    const conversationId =
      previousState?.conversationId ??
      body.conversationId ??
      (typeof body.conversation === "string" ? body.conversation : body.conversation?.id) ??
      null;
    let conversation: AgentConversationRecord;
    let history: ChatMessage[] = previousState?.messages ?? [];
    let todos = previousState?.todos;
    if (conversationId !== null) {
      conversation = await this.conversationOf(org, agent, conversationId);
      if (this.activeTurns.has(conversation.id)) {
        throw conflict(`Conversation ${conversation.id} has a turn in progress; wait for it or cancel it`, {
          param: "conversationId",
          code: "turn_in_progress",
        });
      }
      if (previousState === null && conversation.lastResponseId !== null) {
        const last = await this.store.agents.getRun(org, conversation.lastResponseId);
        const lastState = last?.state as RunState | undefined;
        if (lastState !== undefined) {
          if (PAUSED_STATUSES.includes(lastState.status) && last?.continuedBy === null) {
            throw conflict(
              `Conversation ${conversation.id} is paused at response ${lastState.id}; continue it with previous_response_id`,
              { param: "conversationId" },
            );
          }
          history = lastState.messages;
          todos = lastState.todos;
        }
      }
    } else {
      conversation = await this.store.agents.createConversation(org, agent.id, body.mode ?? "ask", {
        createdByKeyId: principal.apiKeyId,
      });
    }
    const updated = await this.updateConversation(conversation, body.mode, []);
    const input: ChatMessage[] = [];
    if (body.instructions != null && body.instructions !== "") {
      input.push({ role: "system", content: body.instructions });
    }
    for (const [index, item] of items.entries()) {
      if (typeof item === "string") input.push({ role: "user", content: item });
      else if (item.type === "message") {
        input.push({
          role: item.role,
          content: typeof item.content === "string" ? item.content : item.content.map((p) => p.text).join(""),
        });
      } else {
        throw invalidRequest(
          `${item.type} items answer a paused response; give its id as previous_response_id`,
          { param: `input[${index}]` },
        );
      }
    }
    if (input.length === 0)
      throw invalidRequest("input must contain at least one message", { param: "input" });
    const engine = this.engine(principal, org);
    const skills = await this.resolveSkills(org, version);
    const context = this.contextFor(principal, agent, version, updated, options, skills);
    return this.runTurn(principal, conversation.id, null, [], history.length, () =>
      engine.start(
        {
          agentRef: ref.raw,
          model,
          mode: updated.mode,
          conversationId: conversation.id,
          history,
          input,
          previousResponseId: previousState?.id ?? null,
          ...(todos === undefined ? {} : { todos }),
          skills,
        },
        context,
      ),
    );
  }

  /**
   * Runs one response of a conversation: marks the turn active (for cancel and
   * `turn_in_progress`), then appends its items and, when it paused, schedules the
   * pause-window job.
   */
  private async runTurn(
    principal: Principal,
    conversationId: string,
    responseId: string | null,
    before: NewItem[],
    from: number,
    run: () => Promise<RunState>,
  ): Promise<RunState> {
    const turn: TurnItems = { before, from, appended: false };
    this.activeTurns.set(conversationId, turn);
    if (responseId !== null) this.running.add(responseId);
    try {
      const state = await run();
      await this.finishTurn(principal, state, turn);
      return state;
    } finally {
      this.activeTurns.delete(conversationId);
      this.cancelRequested.delete(conversationId);
      if (responseId !== null) this.running.delete(responseId);
    }
  }

  private async finishTurn(principal: Principal, state: RunState, turn: TurnItems): Promise<void> {
    // Normally written with the save that ended the turn (see `engine`); a turn that ended
    // without such a save (a failed run answered as a state) appends its items here.
    if (!turn.appended) {
      await this.store.conversations.appendItems(state.conversationId, state.id, [
        ...turn.before,
        ...itemsOfResponse(state, turn.from),
      ]);
    }
    if (PAUSED_STATUSES.includes(state.status) && state.pausedAt !== null) {
      const payload: PauseWindowPayload = { responseId: state.id, principal };
      await this.store.jobs.enqueue(PAUSE_WINDOW_JOB_KIND, payload, {
        organizationId: principal.organizationId,
        runAt: state.pausedAt + this.pauseTimeoutMs + 1,
      });
      this.worker.poke();
    }
  }

  /**
   * The pause window passed: if nobody answered, each pending item is recorded as timed out
   * and the continuation runs (the model sees the timeout; it may pause again).
   */
  private async closePauseWindow(payload: PauseWindowPayload): Promise<void> {
    const { principal, responseId } = payload;
    const org = principal.organizationId;
    const run = await this.store.agents.getRun(org, responseId);
    const state = run?.state as RunState | undefined;
    if (run === null || state === undefined || run.continuedBy !== null) return;
    if (!PAUSED_STATUSES.includes(state.status) || state.pausedAt === null) return;
    const agent = await this.store.agents.get(org, run.agentId);
    if (agent === null) return;
    const version = await this.versionById(agent, state.agentVersionId);
    const conversation = await this.store.agents.getConversation(org, state.conversationId);
    if (conversation === null) return;
    const engine = this.engine(principal, org);
    const skills = await this.resolveSkills(org, version);
    // Questions nobody answered are answered `cancel`; their held calls end as the connector decides.
    await this.options.connectors?.closeInputs(org, state, "expired");
    const prepared = engine.prepareContinuation(state, {
      decisions: [],
      outputs: [],
      mode: conversation.mode,
      skills,
    });
    if (!(await this.claim(org, state.id, prepared))) return;
    const timedOut = state.pendingApprovals.map((p) => answeredItem(p.id, false, "timed_out"));
    await this.runTurn(principal, conversation.id, prepared.id, timedOut, state.messages.length, () =>
      engine.continue(
        prepared,
        this.contextFor(principal, agent, version, conversation, {}, skills, { skipMissingConnectors: true }),
      ),
    );
  }

  /**
   * Claims the paused row and stores its continuation together (a crash in between never
   * leaves a claim pointing at nothing); false when it was continued meanwhile.
   */
  private async claim(org: string, pausedId: string, prepared: RunState): Promise<boolean> {
    // One store method, one transaction: platform code starts none (issue #24).
    return await this.store.agents.claimAndSaveRun(org, pausedId, this.runRow(org, prepared));
  }

  private async saveState(org: string, state: RunState): Promise<void> {
    await this.store.agents.saveRun(this.runRow(org, state));
  }

  private runRow(org: string, state: RunState): RunInput {
    return {
      id: state.id,
      organizationId: org,
      agentId: state.agentId,
      conversationId: state.conversationId,
      previousResponseId: state.previousResponseId,
      status: state.status,
      state,
      pausedAt: state.pausedAt,
    };
  }

  /**
   * Cancels the conversation's active turn (PLATFORM.md §2.4): a running one stops at its next
   * step boundary (the call returns once it stopped), a paused one is closed at once.
   */
  /** The state as a response object, its pending items placed in this runner's pause window. */
  render(state: RunState): AgentResponseObject {
    return toAgentResponse(state, {
      pauseWindowMs: this.pauseTimeoutMs,
      now: this.clock.now(),
      chatUrl: this.options.chatUrl ?? "",
    });
  }

  async cancelTurn(
    principal: Principal,
    conversationId: string,
    reason: string | null = null,
  ): Promise<{ responseId: string; previousStatus: string }> {
    const org = principal.organizationId;
    const conversation = await this.store.agents.getConversation(org, conversationId);
    const lastId = conversation?.lastResponseId ?? null;
    const run = lastId === null ? null : await this.store.agents.getRun(org, lastId);
    const state = run?.state as RunState | undefined;
    const active =
      run !== null &&
      state !== undefined &&
      run.continuedBy === null &&
      (state.status === "in_progress" || PAUSED_STATUSES.includes(state.status));
    if (!active || state === undefined) {
      throw conflict(`Conversation ${conversationId} has no turn in progress or paused to cancel`, {
        code: "no_active_turn",
      });
    }
    const previousStatus = state.status;
    if (state.status === "in_progress" && this.activeTurns.has(conversationId)) {
      this.cancelRequested.add(conversationId);
      await this.waitForTurn(conversationId);
      const stopped = (await this.store.agents.getRun(org, state.id))?.state as RunState | undefined;
      if (stopped?.incompleteReason === "cancelled" && reason !== null) {
        await this.saveState(org, { ...stopped, cancelReason: reason });
      }
      return { responseId: state.id, previousStatus };
    }
    // Paused, or a run a crash left `in_progress`: closed now, never continued afterwards.
    await this.options.connectors?.closeInputs(org, state, "cancelled");
    cancelRun(state);
    state.cancelReason = reason;
    state.updatedAt = this.clock.now();
    await this.store.agents.closeRun(this.runRow(org, state));
    return { responseId: state.id, previousStatus };
  }

  /** True while a turn of the conversation runs in this process. */
  isTurnActive(conversationId: string): boolean {
    return this.activeTurns.has(conversationId);
  }

  private async waitForTurn(conversationId: string): Promise<void> {
    while (this.activeTurns.has(conversationId)) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** A continuation that stopped mid-way is resumed; one that finished cannot be run again. */
  private async resumeContinuation(
    engine: RunEngine,
    principal: Principal,
    agent: AgentRecord,
    version: AgentVersionRecord,
    conversation: AgentConversationRecord,
    childId: string,
    options: { signal?: AbortSignal; onEvent?: (event: RunEvent) => void },
  ): Promise<RunState> {
    const child = await this.store.agents.getRun(principal.organizationId, childId);
    const state = child?.state as RunState | undefined;
    if (state === undefined || (state.status !== "failed" && state.status !== "in_progress")) {
      throw conflict(
        `This paused response was already continued by ${childId}${state === undefined ? "" : ` (${state.status})`}`,
        { param: "previous_response_id" },
      );
    }
    // In this process, a continuation still running is not resumed a second time; after a
    // restart nothing is running, so an `in_progress` row is one a crash left behind.
    if (this.running.has(childId)) {
      throw conflict(`The continuation ${childId} of this response is still running`, {
        param: "previous_response_id",
      });
    }
    this.running.add(childId);
    try {
      // A resumed response keeps the skills it resolved when it started.
      const context = this.contextFor(principal, agent, version, conversation, options, state.skills ?? []);
      return await engine.resume(state, context);
    } finally {
      this.running.delete(childId);
    }
  }

  /** The version's skill bindings resolved now; unresolved ones are left out (PLATFORM.md §4.4). */
  private async resolveSkills(organizationId: string, version: AgentVersionRecord): Promise<RunSkill[]> {
    return (await this.services.skillTools?.resolveForRun(organizationId, definitionOf(version))) ?? [];
  }

  private async versionById(agent: AgentRecord, versionId: string): Promise<AgentVersionRecord> {
    const version = await this.store.agents.getVersion(agent.id, versionId);
    if (version === null)
      throw conflict(`The version this run used no longer exists`, { param: "previous_response_id" });
    return version;
  }

  /** The version's default model, the run's model, or the `#model` switch (400 when not listed). */
  private pickModel(
    version: AgentVersionRecord,
    switchTo: string | undefined,
    current: string | undefined,
  ): string {
    const models = modelsOf(definitionOf(version));
    if (switchTo !== undefined) {
      if (!models.includes(switchTo)) {
        throw invalidRequest(
          `"${switchTo}" is not one of the models of this agent version (${models.join(", ")})`,
          { param: "model", code: "model_not_in_agent" },
        );
      }
      return switchTo;
    }
    return current ?? (models[0] as string);
  }

  private async conversationOf(
    org: string,
    agent: AgentRecord,
    id: string,
  ): Promise<AgentConversationRecord> {
    const conversation = await this.store.agents.getConversation(org, id);
    if (conversation === null || (conversation.agentId !== null && conversation.agentId !== agent.id)) {
      throw notFound(`No conversation ${id} with agent "${agent.name}"`, { param: "conversationId" });
    }
    if (conversation.agentId === null) {
      // The first turn binds a conversation created without an agent.
      await this.store.agents.updateConversation(conversation.id, { agentId: agent.id });
      return { ...conversation, agentId: agent.id };
    }
    return conversation;
  }

  private async updateConversation(
    conversation: AgentConversationRecord,
    mode: ConversationMode | undefined,
    remember: string[],
  ): Promise<AgentConversationRecord> {
    const remembered = [...new Set([...conversation.remembered, ...remember])];
    if (
      (mode === undefined || mode === conversation.mode) &&
      remembered.length === conversation.remembered.length
    ) {
      return conversation;
    }
    await this.store.agents.updateConversation(conversation.id, {
      ...(mode === undefined ? {} : { mode }),
      remembered,
    });
    return { ...conversation, mode: mode ?? conversation.mode, remembered };
  }

  private contextFor(
    principal: Principal,
    agent: AgentRecord,
    version: AgentVersionRecord,
    conversation: AgentConversationRecord,
    options: { signal?: AbortSignal; onEvent?: (event: RunEvent) => void },
    skills: readonly RunSkill[],
    connectorOptions: { skipMissingConnectors?: boolean } = {},
  ): AgentContext {
    const definition: AgentDefinition = definitionOf(version);
    const connectors = this.options.connectors;
    return {
      ...(connectors === undefined
        ? {}
        : {
            connectors: async () =>
              await connectors.prepareRun(principal, agent.id, {
                skipMissing: connectorOptions.skipMissingConnectors === true,
              }),
          }),
      agentId: agent.id,
      agentName: agent.name,
      agentVersionId: version.id,
      instructions: withSkillIndex(definition.instructions ?? null, skills),
      tools: [...runTools(definition, skills), ...(this.services.platformTools?.implicitTools() ?? [])],
      policy: definition.hitlPolicy,
      remembered: new Set(conversation.remembered),
      cancelled: () => this.cancelRequested.has(conversation.id),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    };
  }
}
