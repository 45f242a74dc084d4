/**
 * The agent run loop: call the model with the version's instructions and tools, pass each
 * tool call through the policy gate, run server-side tools, relay client tools, pause for
 * approvals, and continue a paused run with the caller's answers.
 *
 * Crash safety: every tool call is written to the run state as `queued` before anything
 * runs and as `started` just before it runs (each through the store port). A resume of an
 * interrupted run starts `queued` calls and never re-runs a `started` one: the model is
 * told it was interrupted. So a tool runs at most once per call id.
 */
import {
  type CallOptions,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatMessage,
  type ChatModel,
  type ChatToolCall,
  type Clock,
  conflict,
  type IdGenerator,
  invalidRequest,
} from "@groundwork/core";
import { parseAgentRef } from "./agent-ref.js";
import type { HitlPolicy } from "./definition.js";
import {
  cutText,
  JUDGE_REASON_MAX_CHARS,
  type JudgeVerdict,
  latestUserMessage,
  type ToolJudge,
} from "./judge.js";
import { searchTools, TOOL_SEARCH_THRESHOLD, toolSearchTool } from "./platform-tools.js";
import { type ConversationMode, evaluatePolicy, type GateDecision, type Verdict } from "./policy.js";
import type {
  AttachedImage,
  Citation,
  Deliverable,
  HeldOutput,
  PendingApproval,
  PendingConnection,
  PendingInput,
  RunSkill,
  RunState,
  SkillsApplyPreview,
  TodoItem,
  ToolCallRecord,
} from "./run-state.js";
import type { ResolvedTool } from "./tools.js";
import { type RunTracing, traceInvokeAgent, traceToolCall } from "./tracing/run-spans.js";

export const PAUSE_TIMEOUT_MS = 60 * 60 * 1000;
export const DEFAULT_MAX_STEPS = 12;

export interface ToolResult {
  output: string;
  failed?: boolean;
  citations?: Citation[];
  /** The call was cut short (a connector's sign-in expired): recorded `interrupted`. */
  interrupted?: boolean;
  /**
   * The run pauses after this call: a connector to reconnect, or a question the call is
   * held open for (then `output` is unused and the call is resumed by the continuation).
   */
  pause?: { connections?: PendingConnection[]; input?: PendingInput };
  /** `platform_deliver`: added to the response's deliverables. */
  deliverables?: Deliverable[];
  /** `platform_view_image`: attached to the next model call. */
  images?: AttachedImage[];
  /**
   * `platform_bash` with held outputs: the call ran against a staged copy; the run pauses
   * with an approval (reason `outputs_held`) and the output reaches the model only after it.
   */
  held?: HeldOutput;
}

export interface ToolCallInput {
  tool: ResolvedTool;
  callId: string;
  arguments: string;
  state: RunState;
  signal?: AbortSignal;
  /** The approved preview of a `platform_skills_apply` call. */
  preview?: SkillsApplyPreview;
  /** Resume the call held open for a connector's question (never start a new one). */
  held?: boolean;
}

/** What a tool shows the human before a pause: a preview, or a failure that ends the call at once. */
export type ApprovalPreparation = { preview: SkillsApplyPreview } | { failure: string } | null;

/** Runs server-side tools (file_search, platform.*, function endpoints). */
export interface ToolExecutor {
  execute(call: ToolCallInput): Promise<ToolResult>;
  /**
   * Called before a call pauses for approval; a tool with a preview (`platform_skills_apply`)
   * answers it, or a failure when there is nothing a human could approve. Null: no preview.
   */
  prepareApproval?(call: ToolCallInput): Promise<ApprovalPreparation>;
}

/** Persists run states; `save` is called at every checkpoint. */
export interface RunStateStore {
  save(state: RunState): void | Promise<void>;
}

export type RunEvent =
  | { type: "text_delta"; delta: string }
  | { type: "started"; state: RunState }
  | { type: "tool_call"; record: ToolCallRecord };

export interface AgentContext {
  agentId: string;
  /** The agent's name, for the `invoke_agent {agent name}` span; by default the name in the run's agent reference. */
  agentName?: string;
  agentVersionId: string;
  instructions: string | null;
  tools: ResolvedTool[];
  policy: HitlPolicy | undefined;
  /** Tools approved with `remember` in this conversation. */
  remembered: ReadonlySet<string>;
  signal?: AbortSignal;
  /** Asked at every step boundary (before a model call or a queued tool call): true stops the run as cancelled. */
  cancelled?: () => boolean;
  /** Streams model text (through `ChatModel.stream`) and reports progress. */
  onEvent?: (event: RunEvent) => void;
  /**
   * Connector pre-flight (PLATFORM.md §5.3), asked before the first model call of every
   * start, continuation and resume: connections to ask for (the run pauses) or the
   * connectors' tools to offer next to the version's.
   */
  connectors?: (state: RunState) => Promise<{ pending: PendingConnection[]; tools: ResolvedTool[] }>;
}

export interface StartInput {
  agentRef: string;
  model: string;
  mode: ConversationMode;
  conversationId: string;
  /** Earlier turns of the conversation. */
  history: ChatMessage[];
  /** This turn's new messages (and tool outputs of a plain function-call continuation). */
  input: ChatMessage[];
  previousResponseId: string | null;
  /** The conversation's to-do list so far. */
  todos?: TodoItem[];
  /** The skills resolved for this response (PLATFORM.md §4.4). */
  skills?: RunSkill[];
}

export interface ApprovalDecision {
  approvalId: string;
  approve: boolean;
  reason?: string;
}

export interface ToolOutput {
  callId: string;
  output: string;
  failed?: boolean;
}

export interface ContinueInput {
  decisions: ApprovalDecision[];
  decideAll?: "approve" | "reject";
  outputs: ToolOutput[];
  mode?: ConversationMode;
  /** A different `#model` switch for the continuation (the previous run's model otherwise). */
  model?: string;
  agentRef?: string;
  /** The skills resolved again for the continuation (PLATFORM.md §4.4). */
  skills?: RunSkill[];
}

export interface RunEngineOptions {
  model: ChatModel;
  tools: ToolExecutor;
  store: RunStateStore;
  clock: Clock;
  ids: IdGenerator;
  /**
   * Decides JUDGE verdicts of non-read tools (read tools run without a judge call, A4);
   * without one, they pause for a human.
   */
  judge?: ToolJudge;
  maxSteps?: number;
  pauseTimeoutMs?: number;
  /** Traces each request of a response and its tool calls (PLATFORM.md §13); none: no spans at all. */
  tracing?: RunTracing;
}

export class RunEngine {
  private readonly maxSteps: number;
  private readonly pauseTimeoutMs: number;

  constructor(private readonly options: RunEngineOptions) {
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.pauseTimeoutMs = options.pauseTimeoutMs ?? PAUSE_TIMEOUT_MS;
  }

  /** True when the pause of a run is older than the answer window. */
  isTimedOut(state: RunState): boolean {
    return state.pausedAt !== null && this.options.clock.now() - state.pausedAt > this.pauseTimeoutMs;
  }

  /** A new response: the model loop from the caller's input. */
  async start(input: StartInput, context: AgentContext): Promise<RunState> {
    const now = this.options.clock.now();
    const state: RunState = {
      id: this.options.ids("resp"),
      conversationId: input.conversationId,
      previousResponseId: input.previousResponseId,
      agentId: context.agentId,
      agentVersionId: context.agentVersionId,
      agentRef: input.agentRef,
      model: input.model,
      mode: input.mode,
      status: "in_progress",
      messages: [...input.history, ...input.input],
      toolCalls: [],
      pendingApprovals: [],
      pendingToolCalls: [],
      pausedAt: null,
      text: "",
      citations: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      steps: 0,
      error: null,
      incompleteReason: null,
      ...(input.todos === undefined ? {} : { todos: structuredClone(input.todos) }),
      ...(input.skills === undefined ? {} : { skills: structuredClone(input.skills) }),
      createdAt: now,
      updatedAt: now,
    };
    return this.begin(state, context, input.input);
  }

  /**
   * Runs one request of a response (a start, a continuation, a resume) from its first save,
   * inside its `invoke_agent` root span when tracing is composed; `input` is the caller's new messages.
   */
  private begin(state: RunState, context: AgentContext, input: readonly ChatMessage[]): Promise<RunState> {
    const run = async () => {
      await this.save(state);
      context.onEvent?.({ type: "started", state });
      return this.runWithConnectors(state, context);
    };
    const tracing = this.options.tracing;
    if (tracing === undefined) return run();
    return traceInvokeAgent(tracing, { state, agentName: agentNameOf(state, context), input }, run);
  }

  /** Pre-flight of the connectors: pauses before the model call, or runs with their tools. */
  private async runWithConnectors(state: RunState, context: AgentContext): Promise<RunState> {
    if (context.connectors === undefined) return this.loop(state, context);
    let ready: { pending: PendingConnection[]; tools: ResolvedTool[] };
    try {
      ready = await context.connectors(state);
    } catch (error) {
      state.status = "failed";
      state.error = error instanceof Error ? error.message : String(error);
      await this.save(state);
      throw error;
    }
    if (ready.pending.length > 0) {
      state.pendingConnections = ready.pending;
      state.status = "requires_tool_output";
      state.pausedAt = this.options.clock.now();
      await this.save(state);
      return state;
    }
    const own = new Set(context.tools.map((t) => t.name));
    const extra = ready.tools.filter((t) => !own.has(t.name));
    return this.loop(
      state,
      extra.length === 0 ? context : { ...context, tools: [...context.tools, ...extra] },
    );
  }

  /**
   * Answers a paused run: every pending approval and relayed call must be answered in one
   * call, unless the pause is older than the answer window, in which case each is recorded
   * as timed out and the model sees that. Returns the continuation (a new response).
   */
  prepareContinuation(previous: RunState, answers: ContinueInput): RunState {
    if (previous.status !== "requires_approval" && previous.status !== "requires_tool_output") {
      throw conflict(`Response ${previous.id} is ${previous.status}; only a paused run can be continued`, {
        param: "previous_response_id",
      });
    }
    const timedOut = this.isTimedOut(previous);
    const decisions = new Map<string, ApprovalDecision>();
    for (const [index, decision] of answers.decisions.entries()) {
      if (!previous.pendingApprovals.some((p) => p.id === decision.approvalId)) {
        throw invalidRequest(`No pending approval ${decision.approvalId} on response ${previous.id}`, {
          param: `input[${index}].approval_request_id`,
        });
      }
      decisions.set(decision.approvalId, decision);
    }
    const outputs = new Map<string, ToolOutput>();
    for (const output of answers.outputs) {
      if (!previous.pendingToolCalls.some((p) => p.callId === output.callId)) {
        throw invalidRequest(`No pending tool call ${output.callId} on response ${previous.id}`, {
          param: "input",
        });
      }
      outputs.set(output.callId, output);
    }
    if (!timedOut) {
      const undecided = previous.pendingApprovals.filter(
        (p) => !decisions.has(p.id) && answers.decideAll === undefined,
      );
      const unanswered = previous.pendingToolCalls.filter((p) => !outputs.has(p.callId));
      if (undecided.length > 0 || unanswered.length > 0) {
        const missing = [
          ...undecided.map((p) => `approval ${p.id} (${p.tool})`),
          ...unanswered.map((p) => `tool output for ${p.callId} (${p.tool})`),
        ];
        throw invalidRequest(
          `Every pending approval and relayed call must be answered in one call; missing: ${missing.join(", ")}`,
          { param: "input", code: "incomplete_answers" },
        );
      }
    }
    const now = this.options.clock.now();
    const state: RunState = {
      ...structuredClone(previous),
      id: this.options.ids("resp"),
      previousResponseId: previous.id,
      agentRef: answers.agentRef ?? previous.agentRef,
      model: answers.model ?? previous.model,
      mode: answers.mode ?? previous.mode,
      status: "in_progress",
      // Calls cleared to run before a connector pause still run; held connector calls resume.
      toolCalls: [
        ...structuredClone(previous.toolCalls.filter((r) => r.status === "queued")),
        ...heldCalls(previous),
      ],
      pendingApprovals: [],
      pendingToolCalls: [],
      pendingConnections: [],
      pendingInputs: [],
      pausedAt: null,
      text: "",
      usage: { inputTokens: 0, outputTokens: 0 },
      steps: 0,
      error: null,
      incompleteReason: null,
      deliverables: [],
      discoveredTools: [],
      createdAt: now,
      updatedAt: now,
    };
    delete state.judgeUsage;
    if (answers.skills !== undefined) state.skills = structuredClone(answers.skills);
    const timeoutNote = "No answer arrived within one hour of the pause: the request timed out";
    for (const pending of previous.pendingApprovals) {
      const decision = decisions.get(pending.id);
      const approve =
        decision !== undefined
          ? decision.approve
          : answers.decideAll === undefined
            ? false
            : answers.decideAll === "approve";
      const record: ToolCallRecord = {
        callId: pending.callId,
        tool: pending.tool,
        arguments: pending.arguments,
        verdict: "PAUSE_APPROVAL",
        status: "queued",
        output: null,
        ...(pending.judge === undefined ? {} : { judge: pending.judge }),
        ...(pending.preview == null ? {} : { preview: pending.preview }),
      };
      if (timedOut) {
        this.finish(state, record, "timed_out", `${timeoutNote} and the tool did not run.`);
      } else if (!approve) {
        const reason = decision?.reason;
        this.finish(
          state,
          record,
          "rejected",
          `The user rejected this tool call${reason === undefined || reason === "" ? "" : `: ${reason}`}. The tool did not run.`,
        );
      } else {
        state.toolCalls.push(record);
      }
    }
    for (const pending of previous.pendingToolCalls) {
      const output = outputs.get(pending.callId);
      const record: ToolCallRecord = {
        callId: pending.callId,
        tool: pending.tool,
        arguments: pending.arguments,
        verdict: "RELAY",
        status: "queued",
        output: null,
        ...(pending.judge === undefined ? {} : { judge: pending.judge }),
      };
      if (timedOut || output === undefined) {
        this.finish(
          state,
          record,
          "timed_out",
          `${timeoutNote}; the client did not return this tool's output.`,
        );
      } else if (output.failed === true) {
        this.finish(state, record, "failed", `The tool failed: ${output.output}`);
      } else {
        this.finish(state, record, "completed", output.output);
      }
    }
    return state;
  }

  /** Runs a prepared continuation (after the caller stored it and claimed the paused run). */
  async continue(state: RunState, context: AgentContext): Promise<RunState> {
    return this.begin(state, context, []);
  }

  /**
   * Resumes a run that stopped mid-way (a failed model call, a crash): queued calls run,
   * started ones are reported as interrupted and never run again.
   */
  async resume(state: RunState, context: AgentContext): Promise<RunState> {
    state.status = "in_progress";
    state.error = null;
    for (const record of state.toolCalls) {
      if (record.status === "started") {
        this.finish(
          state,
          record,
          "interrupted",
          "The run was interrupted while this tool was running; it is not run again and its outcome is unknown.",
          false,
        );
      }
    }
    return this.begin(state, context, []);
  }

  private finish(
    state: RunState,
    record: ToolCallRecord,
    status: ToolCallRecord["status"],
    output: string,
    push = true,
  ): void {
    record.status = status;
    record.output = output;
    if (push) state.toolCalls.push(record);
    state.messages.push({ role: "tool", tool_call_id: record.callId, content: output });
  }

  private async save(state: RunState): Promise<void> {
    state.updatedAt = this.options.clock.now();
    await this.options.store.save(state);
  }

  private async loop(state: RunState, context: AgentContext): Promise<RunState> {
    try {
      for (;;) {
        if (context.cancelled?.() === true) return this.stopCancelled(state);
        await this.drainQueued(state, context);
        if (context.cancelled?.() === true) return this.stopCancelled(state);
        if (
          state.pendingApprovals.length > 0 ||
          state.pendingToolCalls.length > 0 ||
          (state.pendingConnections?.length ?? 0) > 0 ||
          (state.pendingInputs?.length ?? 0) > 0
        ) {
          state.status = state.pendingApprovals.length > 0 ? "requires_approval" : "requires_tool_output";
          state.pausedAt = this.options.clock.now();
          await this.save(state);
          return state;
        }
        if (state.steps >= this.maxSteps) {
          state.status = "incomplete";
          state.incompleteReason = "max_steps";
          await this.save(state);
          return state;
        }
        const message = await this.callModel(state, context);
        state.steps++;
        state.messages.push({
          role: "assistant",
          content: message.content,
          ...(message.tool_calls === undefined || message.tool_calls.length === 0
            ? {}
            : { tool_calls: message.tool_calls }),
        });
        const calls = message.tool_calls ?? [];
        if (calls.length === 0) {
          state.text = message.content ?? "";
          state.status = "completed";
          await this.save(state);
          return state;
        }
        await this.gate(state, context, calls);
        await this.save(state);
      }
    } catch (error) {
      state.status = "failed";
      state.error = error instanceof Error ? error.message : String(error);
      await this.save(state);
      throw error;
    }
  }

  /** The cancel landed at a step boundary: queued calls never run and the run ends `incomplete: cancelled`. */
  private async stopCancelled(state: RunState): Promise<RunState> {
    cancelRun(state);
    await this.save(state);
    return state;
  }

  private async callModel(
    state: RunState,
    context: AgentContext,
  ): Promise<{ content: string | null; tool_calls?: ChatToolCall[] }> {
    const messages: ChatMessage[] = [];
    if (context.instructions !== null && context.instructions !== "") {
      messages.push({ role: "system", content: context.instructions });
    }
    messages.push(...state.messages);
    const images = state.pendingImages ?? [];
    if (images.length > 0) {
      messages.push({
        role: "user",
        content: [
          { type: "text", text: "Images attached by platform_view_image:" },
          ...images.map((image) => ({ type: "image_url" as const, image_url: { url: image.url } })),
        ],
      });
    }
    const { offered } = this.toolsFor(state, context);
    const request = {
      model: state.model,
      messages,
      ...(offered.length === 0
        ? {}
        : { tools: offered.map((tool) => tool.chat as NonNullable<typeof tool.chat>) }),
    };
    const options: CallOptions = context.signal === undefined ? {} : { signal: context.signal };
    let completion: ChatCompletion;
    if (context.onEvent !== undefined) {
      completion = await collectStream(this.options.model.stream(request, options), context.onEvent);
    } else {
      completion = await this.options.model.complete(request, options);
    }
    if (images.length > 0) state.pendingImages = [];
    if (completion.usage !== undefined) {
      state.usage.inputTokens += completion.usage.prompt_tokens;
      state.usage.outputTokens += completion.usage.completion_tokens;
    }
    const choice = completion.choices[0];
    return choice?.message ?? { content: "" };
  }

  /**
   * The tools of this step: all of them (for the gate) and those offered to the model. With
   * more than 20 offerable tools, `platform_tool_search` is added and only the first 20 (plus
   * those it found earlier in this response) are offered; the rest are deferred.
   */
  private toolsFor(state: RunState, context: AgentContext): { all: ResolvedTool[]; offered: ResolvedTool[] } {
    const offerable = context.tools.filter((tool) => {
      if (tool.chat === null) return false;
      const decision = evaluatePolicy({
        toolName: tool.name,
        tool: tool.gate,
        policy: context.policy,
        mode: state.mode,
        remembered: context.remembered,
      });
      return !decision.hiddenFromModel;
    });
    if (offerable.length <= TOOL_SEARCH_THRESHOLD) return { all: context.tools, offered: offerable };
    const search = toolSearchTool();
    const discovered = new Set(state.discoveredTools ?? []);
    const offered = offerable.filter(
      (tool, index) => index < TOOL_SEARCH_THRESHOLD || discovered.has(tool.name),
    );
    const hidden = evaluatePolicy({
      toolName: search.name,
      tool: search.gate,
      policy: context.policy,
      mode: state.mode,
      remembered: context.remembered,
    }).hiddenFromModel;
    return {
      all: [...context.tools, search],
      offered: hidden ? offered : [...offered, search],
    };
  }

  /** `platform_tool_search`: the engine knows the catalogs, so it answers the search itself. */
  private searchTools(state: RunState, context: AgentContext, raw: string): ToolResult {
    let args: { query?: unknown; limit?: unknown };
    try {
      args = raw.trim() === "" ? {} : (JSON.parse(raw) as typeof args);
    } catch {
      return { output: "The tool failed: the arguments must be a JSON object", failed: true };
    }
    if (typeof args.query !== "string" || args.query.trim() === "") {
      return { output: 'The tool failed: the argument "query" must be a non-empty string', failed: true };
    }
    const limit = args.limit === undefined ? 5 : args.limit;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 10) {
      return {
        output: 'The tool failed: the argument "limit" must be an integer from 1 to 10',
        failed: true,
      };
    }
    const candidates = context.tools.filter(
      (tool) =>
        tool.chat !== null &&
        !evaluatePolicy({
          toolName: tool.name,
          tool: tool.gate,
          policy: context.policy,
          mode: state.mode,
          remembered: context.remembered,
        }).hiddenFromModel,
    );
    const found = searchTools(candidates, args.query, limit);
    state.discoveredTools = [...new Set([...(state.discoveredTools ?? []), ...found.map((f) => f.name)])];
    return { output: JSON.stringify(found) };
  }

  private async gate(state: RunState, context: AgentContext, calls: ChatToolCall[]): Promise<void> {
    const { all } = this.toolsFor(state, context);
    for (const call of calls) {
      const tool = all.find((t) => t.name === call.function.name);
      let decision = evaluatePolicy({
        toolName: call.function.name,
        tool: tool?.gate,
        policy: context.policy,
        mode: state.mode,
        remembered: context.remembered,
      });
      let verdict = decision.verdict;
      let judged: JudgeVerdict | undefined;
      if (verdict === "JUDGE" && tool !== undefined) {
        const run: Verdict = tool.gate.runs === "server" ? "EXECUTE" : "RELAY";
        if (decision.class === "read") {
          // A4: a read tool behind `auto` runs without a judge call.
          verdict = run;
          decision = {
            ...decision,
            verdict,
            reason: `${decision.reason}; read tools run without a judge call`,
          };
        } else if (this.options.judge === undefined) {
          verdict = "PAUSE_APPROVAL";
          decision = { ...decision, verdict, reason: `${decision.reason}; no judge is configured` };
        } else {
          const outcome = await this.options.judge.judge({
            tool,
            arguments: call.function.arguments,
            decision,
            model: state.model,
            mode: state.mode,
            instructions: context.instructions,
            latestUserMessage: latestUserMessage(state.messages),
            ...(context.signal === undefined ? {} : { signal: context.signal }),
          });
          if (typeof outcome === "string") {
            verdict = outcome === "allow" ? run : outcome === "block" ? "BLOCK" : "PAUSE_APPROVAL";
            decision = { ...decision, verdict, reason: `${decision.reason}; the judge said ${outcome}` };
          } else {
            judged = {
              decision: outcome.verdict.decision,
              reason: cutText(outcome.verdict.reason, JUDGE_REASON_MAX_CHARS),
              model: outcome.verdict.model,
            };
            if (outcome.usage !== undefined) addJudgeUsage(state, judged.model, outcome.usage);
            verdict = judged.decision === "approve" ? run : "PAUSE_APPROVAL";
            decision = {
              ...decision,
              verdict,
              reason:
                judged.decision === "approve"
                  ? `judge: ${judged.reason}`
                  : `judge: ${judged.reason === "" ? "no reason given" : judged.reason}`,
            };
          }
        }
      }
      const record: ToolCallRecord = {
        callId: call.id,
        tool: call.function.name,
        arguments: call.function.arguments,
        verdict,
        status: "queued",
        output: null,
        ...(judged === undefined ? {} : { judge: judged }),
      };
      switch (verdict) {
        case "EXECUTE":
          state.toolCalls.push(record);
          break;
        case "RELAY":
          state.pendingToolCalls.push({
            tool: record.tool,
            callId: record.callId,
            arguments: record.arguments,
            ...(judged === undefined ? {} : { judge: judged }),
          });
          break;
        case "PAUSE_APPROVAL": {
          const prepared =
            tool === undefined || this.options.tools.prepareApproval === undefined
              ? null
              : await this.options.tools.prepareApproval({
                  tool,
                  callId: record.callId,
                  arguments: record.arguments,
                  state,
                  ...(context.signal === undefined ? {} : { signal: context.signal }),
                });
          if (prepared !== null && "failure" in prepared) {
            this.finish(state, record, "failed", prepared.failure);
            context.onEvent?.({ type: "tool_call", record });
            break;
          }
          state.pendingApprovals.push(this.approvalFor(record, decision, prepared?.preview ?? null));
          break;
        }
        case "BLOCK":
          this.finish(state, record, "blocked", `The policy blocked this tool call: ${decision.reason}.`);
          context.onEvent?.({ type: "tool_call", record });
          break;
        default:
          this.finish(state, record, "failed", `The tool call failed: ${decision.reason}.`);
          context.onEvent?.({ type: "tool_call", record });
          break;
      }
    }
  }

  private approvalFor(
    record: ToolCallRecord,
    decision: GateDecision,
    preview: SkillsApplyPreview | null,
  ): PendingApproval {
    return {
      id: this.options.ids("apr"),
      callId: record.callId,
      tool: record.tool,
      arguments: record.arguments,
      policyClass: decision.class,
      reason: decision.reason,
      preview,
      ...(record.judge === undefined ? {} : { judge: record.judge }),
    };
  }

  /** Runs the queued server-side calls; approved client calls become relayed calls. */
  private async drainQueued(state: RunState, context: AgentContext): Promise<void> {
    const { all } = this.toolsFor(state, context);
    for (const record of state.toolCalls) {
      if (record.status !== "queued") continue;
      if (context.cancelled?.() === true) return;
      const tool = all.find((t) => t.name === record.tool);
      if (tool === undefined || !tool.gate.runnable) {
        this.finish(
          state,
          record,
          "failed",
          `The agent version has no runnable tool "${record.tool}".`,
          false,
        );
        continue;
      }
      if (tool.gate.runs === "client") {
        // Approved relayed tool: the client runs it now.
        record.status = "completed";
        record.output = null;
        state.toolCalls = state.toolCalls.filter((r) => r !== record);
        state.pendingToolCalls.push({
          tool: record.tool,
          callId: record.callId,
          arguments: record.arguments,
          ...(record.judge === undefined ? {} : { judge: record.judge }),
        });
        return this.drainQueued(state, context);
      }
      record.status = "started";
      await this.save(state);
      let result: ToolResult;
      const execute = async (): Promise<ToolResult> =>
        tool.definition.type === "platform.tool_search"
          ? this.searchTools(state, context, record.arguments)
          : await this.options.tools.execute({
              tool,
              callId: record.callId,
              arguments: record.arguments,
              state,
              ...(context.signal === undefined ? {} : { signal: context.signal }),
              ...(record.resumeHeld === true ? { held: true } : {}),
              ...(record.preview === undefined ? {} : { preview: record.preview }),
            });
      try {
        const tracing = this.options.tracing;
        result = tracing === undefined ? await execute() : await traceToolCall(tracing, record, execute);
      } catch (error) {
        result = {
          output: `The tool failed: ${error instanceof Error ? error.message : String(error)}`,
          failed: true,
        };
      }
      if (result.held !== undefined) {
        // Held outputs: the call ran against a staged copy; a human releases or discards it.
        state.toolCalls = state.toolCalls.filter((r) => r !== record);
        state.pendingApprovals.push({
          id: this.options.ids("apr"),
          callId: record.callId,
          tool: record.tool,
          arguments: record.arguments,
          policyClass: tool.gate.builtinClass ?? null,
          reason: "outputs_held",
          preview: null,
          heldOutput: result.held,
        });
        await this.save(state);
        return this.drainQueued(state, context);
      }
      if (result.citations !== undefined) state.citations.push(...result.citations);
      if (result.deliverables !== undefined && result.deliverables.length > 0) {
        state.deliverables = [...(state.deliverables ?? []), ...result.deliverables];
      }
      if (result.images !== undefined && result.images.length > 0) {
        state.pendingImages = [...(state.pendingImages ?? []), ...result.images];
      }
      if (result.pause?.connections !== undefined) {
        state.pendingConnections = mergeConnections(state.pendingConnections ?? [], result.pause.connections);
      }
      if (result.pause?.input !== undefined) {
        // Held open for a question: the record stays `started` until the continuation resumes it.
        state.pendingInputs = [...(state.pendingInputs ?? []), result.pause.input];
        await this.save(state);
        continue;
      }
      this.finish(
        state,
        record,
        result.interrupted === true ? "interrupted" : result.failed === true ? "failed" : "completed",
        result.output,
        false,
      );
      context.onEvent?.({ type: "tool_call", record });
      await this.save(state);
    }
  }
}

/** The agent's name as the context gives it, else as the run's agent reference (`agent/<name>@…`) names it. */
function agentNameOf(state: RunState, context: AgentContext): string {
  if (context.agentName !== undefined) return context.agentName;
  try {
    return parseAgentRef(state.agentRef).name;
  } catch {
    return state.agentId;
  }
}

/** Adds a judge call's tokens to the response's usage and to its judge share (priced by judge model). */
function addJudgeUsage(
  state: RunState,
  model: string,
  usage: { inputTokens: number; outputTokens: number },
): void {
  state.usage.inputTokens += usage.inputTokens;
  state.usage.outputTokens += usage.outputTokens;
  state.judgeUsage ??= [];
  const entry = state.judgeUsage.find((u) => u.model === model);
  if (entry === undefined) state.judgeUsage.push({ model, ...usage });
  else {
    entry.inputTokens += usage.inputTokens;
    entry.outputTokens += usage.outputTokens;
  }
}

/**
 * Marks a run cancelled: calls not started are `interrupted`, pending approvals and relayed
 * calls are withdrawn (recorded `interrupted`), and the run ends `incomplete` with the reason
 * `cancelled`. Used at a step boundary and for a paused run cancelled by its owner.
 */
export function cancelRun(state: RunState): void {
  const note = "The turn was cancelled before this tool ran; it did not run.";
  const answer = (callId: string) =>
    state.messages.push({ role: "tool", tool_call_id: callId, content: note });
  for (const record of state.toolCalls) {
    if (record.status === "queued") {
      record.status = "interrupted";
      record.output = note;
      answer(record.callId);
    }
  }
  for (const pending of state.pendingApprovals) {
    answer(pending.callId);
    state.toolCalls.push({
      callId: pending.callId,
      tool: pending.tool,
      arguments: pending.arguments,
      verdict: "PAUSE_APPROVAL",
      status: "interrupted",
      output: note,
      ...(pending.judge === undefined ? {} : { judge: pending.judge }),
    });
  }
  for (const pending of state.pendingToolCalls) {
    answer(pending.callId);
    state.toolCalls.push({
      callId: pending.callId,
      tool: pending.tool,
      arguments: pending.arguments,
      verdict: "RELAY",
      status: "interrupted",
      output: note,
      ...(pending.judge === undefined ? {} : { judge: pending.judge }),
    });
  }
  for (const pending of state.pendingInputs ?? []) {
    const record = state.toolCalls.find((r) => r.callId === pending.callId && r.status === "started");
    if (record === undefined) continue;
    record.status = "interrupted";
    record.output = note;
    answer(pending.callId);
  }
  state.pendingApprovals = [];
  state.pendingToolCalls = [];
  state.pendingConnections = [];
  state.pendingInputs = [];
  state.pausedAt = null;
  state.status = "incomplete";
  state.incompleteReason = "cancelled";
}

/** The connector calls a paused run holds open for questions, queued to be resumed (one per call). */
function heldCalls(previous: RunState): ToolCallRecord[] {
  const out: ToolCallRecord[] = [];
  for (const input of previous.pendingInputs ?? []) {
    if (out.some((r) => r.callId === input.callId)) continue;
    out.push({
      callId: input.callId,
      tool: input.tool,
      arguments: input.arguments,
      verdict: "EXECUTE",
      status: "queued",
      output: null,
      resumeHeld: true,
    });
  }
  return out;
}

function mergeConnections(current: PendingConnection[], added: PendingConnection[]): PendingConnection[] {
  const out = [...current];
  for (const entry of added) if (!out.some((c) => c.serverLabel === entry.serverLabel)) out.push(entry);
  return out;
}

/** Accumulates a chat stream into one completion, reporting text as it arrives. */
async function collectStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  onEvent: (event: RunEvent) => void,
): Promise<ChatCompletion> {
  let content = "";
  let sawContent = false;
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  let usage: ChatCompletion["usage"];
  let id = "";
  let model = "";
  let created = 0;
  let finish: string | null = null;
  for await (const chunk of chunks) {
    id = chunk.id;
    model = chunk.model;
    created = chunk.created;
    if (chunk.usage != null) usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.finish_reason !== null) finish = choice.finish_reason;
      const delta = choice.delta;
      if (typeof delta.content === "string" && delta.content !== "") {
        sawContent = true;
        content += delta.content;
        onEvent({ type: "text_delta", delta: delta.content });
      }
      for (const part of delta.tool_calls ?? []) {
        let slot = calls[part.index];
        if (slot === undefined) {
          slot = { id: "", name: "", arguments: "" };
          calls[part.index] = slot;
        }
        if (part.id !== undefined) slot.id = part.id;
        if (part.function?.name !== undefined) slot.name += part.function.name;
        if (part.function?.arguments !== undefined) slot.arguments += part.function.arguments;
      }
    }
  }
  const toolCalls = calls
    .filter((c) => c !== undefined)
    .map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments },
    }));
  return {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: sawContent ? content : null,
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        finish_reason: finish,
      },
    ],
    ...(usage === undefined ? {} : { usage }),
  };
}
