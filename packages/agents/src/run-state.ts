/** The persisted state of one agent response (a run step between two pauses). */
import type { ChatMessage } from "@groundwork/core";
import type { ToolClass } from "./definition.js";
import type { JudgeVerdict } from "./judge.js";
import type { ConversationMode, Verdict } from "./policy.js";

export type RunStatus =
  | "in_progress"
  | "completed"
  | "requires_approval"
  | "requires_tool_output"
  | "incomplete"
  | "failed";

export const PAUSED_STATUSES: readonly RunStatus[] = ["requires_approval", "requires_tool_output"];

export interface Citation {
  /** The `[n]` marker the model was told to use. */
  marker: number;
  knowledgeBaseId: string;
  documentId: string;
  documentVersionId: string;
  documentName: string;
  chunkId: string;
  pageStart?: number;
  pageEnd?: number;
}

export type ToolCallStatus =
  /** Cleared to run; not started yet (a resume may start it). */
  | "queued"
  /** Running; a resume that finds this never runs it again. */
  | "started"
  | "completed"
  | "failed"
  | "blocked"
  | "rejected"
  | "timed_out"
  | "interrupted";

export interface ToolCallRecord {
  callId: string;
  tool: string;
  arguments: string;
  verdict: Verdict;
  status: ToolCallStatus;
  output: string | null;
  /** The `auto`-mode judge's verdict on this call; absent when no judge ran. */
  judge?: JudgeVerdict;
  /** A connector call held open for a question (PLATFORM.md §5.3): running it resumes that call, never starts a new one. */
  resumeHeld?: true;
}

export interface PendingApproval {
  id: string;
  callId: string;
  tool: string;
  arguments: string;
  policyClass: ToolClass | null;
  reason: string;
  /** Set only for the built-in skills-apply tool, which this build does not offer. */
  preview: null;
  /** The judge's `needs_human` verdict that sent this call to a human; absent when no judge ran. */
  judge?: JudgeVerdict;
  /** `platform_bash` with `outputs: "held"`: the output that approval releases (reason `outputs_held`). */
  heldOutput?: HeldOutput;
}

export interface HeldOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A deliverable of `platform_deliver` (PLATFORM.md §6). */
export type Deliverable =
  | { type: "text"; title: string | null; text: string }
  | { type: "file"; fileId: string; filename: string; mime: string; size: number };

/** An image `platform_view_image` attached to the next model call. */
export interface AttachedImage {
  mime: string;
  /** `data:<mime>;base64,…` */
  url: string;
}

export interface PendingToolCall {
  tool: string;
  callId: string;
  arguments: string;
  /** The judge's `approve` verdict that released this relayed call; absent when no judge ran. */
  judge?: JudgeVerdict;
}

/** A connector the caller must connect, reconnect or allow before the run goes on (PLATFORM.md §5.3). */
export interface PendingConnection {
  serverLabel: string;
  host: string;
  reason: "connect" | "reconnect" | "allow";
  /** Only on a repeated allow (the host changed). */
  destinations?: string[];
}

/** A connector's question (elicitation) the run waits for; the call stays open meanwhile. */
export interface PendingInput {
  inputRequestId: string;
  serverLabel: string;
  /** The prefixed tool name the model called. */
  tool: string;
  mode: "form" | "url" | "mixed" | "unknown";
  callId: string;
  arguments: string;
}

export interface RunState {
  id: string;
  conversationId: string;
  previousResponseId: string | null;
  agentId: string;
  agentVersionId: string;
  /** The `model` string exactly as the client sent it. */
  agentRef: string;
  /** The model that answers (the version's default or the `#` switch). */
  model: string;
  mode: ConversationMode;
  status: RunStatus;
  /** The conversation as the model sees it, without the leading instructions. */
  messages: ChatMessage[];
  toolCalls: ToolCallRecord[];
  pendingApprovals: PendingApproval[];
  pendingToolCalls: PendingToolCall[];
  /** Connector pauses (absent on runs from before connectors). */
  pendingConnections?: PendingConnection[];
  pendingInputs?: PendingInput[];
  pausedAt: number | null;
  text: string;
  citations: Citation[];
  /** Every model call of this response, the judge's included. */
  usage: { inputTokens: number; outputTokens: number };
  /** The judge calls' share of `usage`, per judge model (for pricing); absent when no judge ran. */
  judgeUsage?: Array<{ model: string; inputTokens: number; outputTokens: number }>;
  steps: number;
  error: string | null;
  incompleteReason: string | null;
  /** Why the turn was cancelled, as the canceller gave it (PLATFORM.md §2.4); absent otherwise. */
  cancelReason?: string | null;
  /** What `platform_deliver` added to this response. */
  deliverables?: Deliverable[];
  /** Images `platform_view_image` attached for the next model call (cleared by it). */
  pendingImages?: AttachedImage[];
  /** Tools `platform_tool_search` returned: offered for the rest of this response. */
  discoveredTools?: string[];
  /** The `platform.todo` list; carried over between turns of a conversation. */
  todos?: TodoItem[];
  createdAt: number;
  updatedAt: number;
}

export interface TodoItem {
  id: number;
  text: string;
  done: boolean;
}
