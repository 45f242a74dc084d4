/**
 * A run state as the responses protocol's object, carrying the spec's run envelope as
 * `run`. Pauses follow the protocol's own convention: the response is `completed` with
 * `function_call` items (relayed calls the client runs) and `approval_request` items;
 * `run.status` says which pause it is.
 */
import type { JudgeVerdict } from "./judge.js";
import { PAUSE_TIMEOUT_MS } from "./run-engine.js";
import type {
  Citation,
  Deliverable,
  PendingApproval,
  PendingConnection,
  PendingToolCall,
  RunState,
  RunStatus,
} from "./run-state.js";

/** Where a pending item stands in its pause window (PLATFORM.md §6 "Pause window"). */
export interface PauseWindowFields {
  /** `pausedAt` + the pause window (ISO 8601). */
  expiresAt: string | null;
  /** `timed_out` from `expiresAt` on, before the pause-window job has closed the pause. */
  status: "pending" | "timed_out";
}

/** The pause window and the instant a response is rendered at. */
export interface RenderClock {
  pauseWindowMs: number;
  now: number;
  /** Origin of the chat app connector pauses point to (PLATFORM.md §5.3); "" renders paths only. */
  chatUrl?: string;
}

/** The chat app's page for one connector, and for one question (PLATFORM.md §5.3). */
export const connectorPage = (chatUrl: string, serverLabel: string) =>
  `${chatUrl}/connectors/${encodeURIComponent(serverLabel)}`;
export const connectorInputPage = (chatUrl: string, inputRequestId: string) =>
  `${chatUrl}/connector-inputs/${encodeURIComponent(inputRequestId)}`;

export interface FileCitationAnnotation {
  type: "file_citation";
  /** Position in the text just after the `[n]` marker. */
  index: number;
  file_id: string;
  filename: string;
  knowledge_base_id: string;
  document_version_id: string;
  chunk_id: string;
  marker: number;
}

export type AgentOutputItem =
  | {
      type: "message";
      id: string;
      status: "completed";
      role: "assistant";
      content: Array<{ type: "output_text"; text: string; annotations: FileCitationAnnotation[] }>;
    }
  | {
      type: "function_call";
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: "completed";
    }
  | { type: "approval_request"; id: string; call_id: string; name: string; arguments: string }
  | { type: "deliverable"; id: string; deliverable: Deliverable };

export interface RunEnvelope {
  status: "completed" | "requires_approval" | "requires_tool_output" | "incomplete";
  responseId: string;
  conversationId: string;
  text: string;
  toolCalls: Array<{
    callId: string;
    tool: string;
    arguments: string;
    status: string;
    output: string | null;
    /** The `auto`-mode judge's verdict; null when no judge ran on the call. */
    judge: JudgeVerdict | null;
  }>;
  pendingApprovals: Array<
    Omit<PendingApproval, "callId" | "judge"> & {
      callId: string;
      judge: JudgeVerdict | null;
    } & PauseWindowFields
  >;
  pendingToolCalls: Array<
    Omit<PendingToolCall, "judge"> & { judge: JudgeVerdict | null } & PauseWindowFields
  >;
  pendingConnections: Array<PendingConnection & PauseWindowFields>;
  pendingInputs: Array<{
    inputRequestId: string;
    serverLabel: string;
    tool: string;
    mode: string;
    answerUrl: string;
    expiresAt: string | null;
  }>;
  /** What `platform_deliver` added to this response (PLATFORM.md §6). */
  deliverables: Deliverable[];
  next: string | null;
  mode: string;
  agentVersionId: string;
  model: string;
}

export interface AgentResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: "completed" | "incomplete" | "cancelled" | "failed" | "in_progress";
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: null;
  model: string;
  output: AgentOutputItem[];
  previous_response_id: string | null;
  conversation: { id: string };
  parallel_tool_calls: true;
  store: true;
  tool_choice: "auto";
  tools: [];
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
  metadata: Record<string, string>;
  run: RunEnvelope;
}

/** Annotations for the `[n]` markers the model wrote, each pointing at its passage. */
export function citationAnnotations(text: string, citations: readonly Citation[]): FileCitationAnnotation[] {
  const out: FileCitationAnnotation[] = [];
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const marker = Number(match[1]);
    const citation = citations.find((c) => c.marker === marker);
    if (citation === undefined) continue;
    out.push({
      type: "file_citation",
      index: (match.index ?? 0) + match[0].length,
      file_id: citation.documentId,
      filename: citation.documentName,
      knowledge_base_id: citation.knowledgeBaseId,
      document_version_id: citation.documentVersionId,
      chunk_id: citation.chunkId,
      marker,
    });
  }
  return out;
}

function envelopeStatus(status: RunStatus): RunEnvelope["status"] {
  if (status === "completed" || status === "requires_approval" || status === "requires_tool_output")
    return status;
  return "incomplete";
}

function nextHint(state: RunState, chatUrl: string): string | null {
  const base = `POST /v1/responses with model "${state.agentRef}", previous_response_id "${state.id}" and input`;
  const connections = state.pendingConnections ?? [];
  const inputs = state.pendingInputs ?? [];
  if (
    state.status === "requires_tool_output" &&
    state.pendingToolCalls.length === 0 &&
    (connections.length > 0 || inputs.length > 0)
  ) {
    const steps: string[] = [];
    if (connections.length > 0) {
      steps.push(
        `Connect in the chat app: ${connections.map((c) => `${connectorPage(chatUrl, c.serverLabel)} (${c.reason})`).join(", ")}`,
      );
    }
    if (inputs.length > 0) {
      steps.push(
        `Answer the connector's question in the chat app: ${inputs.map((i) => connectorInputPage(chatUrl, i.inputRequestId)).join(", ")}`,
      );
    }
    return `${steps.join("; ")}; then POST /v1/responses with model "${state.agentRef}", previous_response_id "${state.id}" and no input items; unanswered after one hour, the pause times out`;
  }
  switch (state.status) {
    case "requires_approval":
      return `${base} items {type:"approval_response", approval_request_id, approve, reason?} for every pending approval${
        state.pendingToolCalls.length > 0
          ? ' and {type:"function_call_output", call_id, output} for every pending tool call'
          : ""
      }, all in one call (or decideAll); unanswered after one hour, the pause times out`;
    case "requires_tool_output":
      return `${base} items {type:"function_call_output", call_id, output} for every pending tool call, all in one call; unanswered after one hour, the pause times out`;
    case "incomplete":
      return `The run stopped after ${state.steps} model steps; send a new message with previous_response_id "${state.id}" to go on`;
    case "failed":
      return `The run failed (${state.error ?? "unknown error"}); send the same continuation again to resume it`;
    default:
      return null;
  }
}

export function toAgentResponse(
  state: RunState,
  clock: RenderClock = { pauseWindowMs: PAUSE_TIMEOUT_MS, now: Date.now() },
): AgentResponseObject {
  const window = pauseWindowFields(state, clock);
  const output: AgentOutputItem[] = [];
  if (state.status === "completed" || state.text !== "") {
    output.push({
      type: "message",
      id: `msg_${state.id.replace(/^resp_/, "")}`,
      status: "completed",
      role: "assistant",
      content: [
        {
          type: "output_text",
          text: state.text,
          annotations: citationAnnotations(state.text, state.citations),
        },
      ],
    });
  }
  for (const [index, deliverable] of (state.deliverables ?? []).entries()) {
    output.push({ type: "deliverable", id: `dlv_${state.id.replace(/^resp_/, "")}_${index}`, deliverable });
  }
  for (const call of state.pendingToolCalls) {
    output.push({
      type: "function_call",
      id: `fc_${call.callId}`,
      call_id: call.callId,
      name: call.tool,
      arguments: call.arguments,
      status: "completed",
    });
  }
  for (const approval of state.pendingApprovals) {
    output.push({
      type: "approval_request",
      id: approval.id,
      call_id: approval.callId,
      name: approval.tool,
      arguments: approval.arguments,
    });
  }
  const status: AgentResponseObject["status"] =
    state.status === "failed"
      ? "failed"
      : state.status === "incomplete"
        ? state.incompleteReason === "cancelled"
          ? "cancelled"
          : "incomplete"
        : state.status === "in_progress"
          ? "in_progress"
          : "completed";
  return {
    id: state.id,
    object: "response",
    created_at: Math.floor(state.createdAt / 1000),
    status,
    error:
      state.status === "failed" ? { code: "run_failed", message: state.error ?? "The run failed" } : null,
    incomplete_details:
      state.status === "incomplete" ? { reason: state.incompleteReason ?? "max_steps" } : null,
    instructions: null,
    model: state.agentRef,
    output,
    previous_response_id: state.previousResponseId,
    conversation: { id: state.conversationId },
    parallel_tool_calls: true,
    store: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: state.usage.inputTokens,
      output_tokens: state.usage.outputTokens,
      total_tokens: state.usage.inputTokens + state.usage.outputTokens,
    },
    metadata: {},
    run: {
      status: envelopeStatus(state.status),
      responseId: state.id,
      conversationId: state.conversationId,
      text: state.text,
      toolCalls: state.toolCalls.map((call) => ({
        callId: call.callId,
        tool: call.tool,
        arguments: call.arguments,
        status: call.status,
        output: call.output,
        judge: call.judge ?? null,
      })),
      pendingApprovals: state.pendingApprovals.map((approval) => ({
        ...approval,
        judge: approval.judge ?? null,
        ...window,
      })),
      pendingToolCalls: state.pendingToolCalls.map((call) => ({
        ...call,
        judge: call.judge ?? null,
        ...window,
      })),
      pendingConnections: (state.pendingConnections ?? []).map((c) => ({ ...c, ...window })),
      pendingInputs: (state.pendingInputs ?? []).map((input) => ({
        inputRequestId: input.inputRequestId,
        serverLabel: input.serverLabel,
        tool: input.tool,
        mode: input.mode,
        answerUrl: connectorInputPage(clock.chatUrl ?? "", input.inputRequestId),
        expiresAt: window.expiresAt,
      })),
      deliverables: state.deliverables ?? [],
      next: nextHint(state, clock.chatUrl ?? ""),
      mode: state.mode,
      agentVersionId: state.agentVersionId,
      model: state.model,
    },
  };
}

/**
 * A paused run's items expire together at `pausedAt` + the window; a read after that but
 * before the pause-window job ran shows them `timed_out`, as the job will record them.
 */
function pauseWindowFields(state: RunState, clock: RenderClock): PauseWindowFields {
  if (state.pausedAt === null) return { expiresAt: null, status: "pending" };
  const expiresAt = state.pausedAt + clock.pauseWindowMs;
  return {
    expiresAt: new Date(expiresAt).toISOString(),
    status: clock.now > expiresAt ? "timed_out" : "pending",
  };
}
