/**
 * The spans of an agent response (PLATFORM.md §13). Each request — a start, a continuation,
 * a resume, the pause window's continuation — is its own trace with the root
 * `invoke_agent {agent name}`; the conversation is the session (`gen_ai.conversation.id`).
 * Every server-side tool call the engine runs is an `execute_tool {tool}` child. Model steps
 * and judge calls are the gateway's `chat {model}` spans, children through the active
 * context, so none is made here.
 */
import type { ChatMessage } from "@groundwork/core";
import { GEN_AI, GROUNDWORK, type TraceHooks } from "@groundwork/observability";
import type { ToolResult } from "../run-engine.js";
import type { RunState } from "../run-state.js";
import {
  capturesContent,
  contentAttribute,
  type GenAiMessage,
  markFailed,
  textMessage,
  tracedSpan,
} from "./traced-span.js";

/** Whom an engine's runs are traced for: the hooks and the organization the runs belong to. */
export interface RunTracing {
  hooks: TraceHooks;
  organizationId: string;
}

/** The root span of one request of a response; `input` is the caller's new messages (none for a continuation). */
export function traceInvokeAgent(
  tracing: RunTracing,
  run: { state: RunState; agentName: string; input: readonly ChatMessage[] },
  fn: () => Promise<RunState>,
): Promise<RunState> {
  const { hooks, organizationId } = tracing;
  const { state } = run;
  return tracedSpan(
    hooks,
    `invoke_agent ${run.agentName}`,
    { organizationId, kind: "agent" },
    async (span) => {
      if (!span.isRecording()) return fn();
      span.setAttributes({
        [GEN_AI.operationName]: "invoke_agent",
        [GEN_AI.agentName]: run.agentName,
        [GEN_AI.agentId]: state.agentId,
        [GEN_AI.conversationId]: state.conversationId,
        [GEN_AI.requestModel]: state.model,
        [GROUNDWORK.responseId]: state.id,
      });
      const content = capturesContent(hooks, span, organizationId);
      if (content && run.input.length > 0) {
        span.setAttribute(GEN_AI.inputMessages, contentAttribute(run.input.map(genAiMessage)));
      }
      const result = await fn();
      if (content && result.status === "completed") {
        const answer: GenAiMessage = { ...textMessage("assistant", result.text), finish_reason: "stop" };
        span.setAttribute(GEN_AI.outputMessages, contentAttribute([answer]));
      }
      return result;
    },
  );
}

/**
 * One server-side tool call. A call that reports failure (`failed`, `interrupted`) marks the
 * span as an error without its output, which may carry document text; thrown errors are
 * marked by {@link tracedSpan} before the engine turns them into the model's failure message.
 */
export function traceToolCall(
  tracing: RunTracing,
  call: { tool: string; callId: string; arguments: string },
  fn: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const { hooks, organizationId } = tracing;
  return tracedSpan(hooks, `execute_tool ${call.tool}`, { organizationId, kind: "agent" }, async (span) => {
    if (!span.isRecording()) return fn();
    span.setAttributes({
      [GEN_AI.operationName]: "execute_tool",
      [GEN_AI.toolName]: call.tool,
      [GEN_AI.toolCallId]: call.callId,
    });
    const content = capturesContent(hooks, span, organizationId);
    if (content) {
      span.setAttribute(
        GEN_AI.inputMessages,
        contentAttribute([
          {
            role: "assistant",
            parts: [
              {
                type: "tool_call",
                id: call.callId,
                name: call.tool,
                arguments: parsedArguments(call.arguments),
              },
            ],
          },
        ]),
      );
    }
    const result = await fn();
    if (result.failed === true) markFailed(span, "tool_failed", `The tool ${call.tool} failed`);
    else if (result.interrupted === true) {
      markFailed(span, "tool_interrupted", `The tool ${call.tool} was interrupted`);
    }
    // Held outputs and calls held open for a question have no output yet.
    if (content && result.held === undefined && result.pause?.input === undefined) {
      span.setAttribute(
        GEN_AI.outputMessages,
        contentAttribute([
          {
            role: "tool",
            parts: [{ type: "tool_call_response", id: call.callId, response: result.output }],
          },
        ]),
      );
    }
    return result;
  });
}

/** A chat message in the GenAI conventions' shape (text parts; images named by type only). */
function genAiMessage(message: ChatMessage): GenAiMessage {
  const content = message.content;
  if (typeof content === "string" || content === null) return textMessage(message.role, content ?? "");
  return {
    role: message.role,
    parts: content.map((part) =>
      part.type === "text"
        ? (textMessage(message.role, part.text).parts[0] as Record<string, unknown>)
        : { type: "image" },
    ),
  };
}

/** The arguments as the model sent them: a JSON value when they parse, else the string. */
function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
