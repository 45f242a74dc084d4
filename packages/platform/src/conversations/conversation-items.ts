/**
 * The items a response adds to its conversation (PLATFORM.md §2.2), derived from the run
 * state once the response stops (completed, paused, cancelled, failed): its input messages,
 * the model's calls and messages, the tool outputs and the approvals it asks for.
 */
import type { RunState } from "@groundwork/agents";
import type { ChatMessage } from "@groundwork/core";

export interface NewItem {
  type: string;
  data: Record<string, unknown>;
}

const textOf = (content: ChatMessage["content"]): string =>
  typeof content === "string"
    ? content
    : content === null || content === undefined
      ? ""
      : JSON.stringify(content);

/** Items of `state.messages` from index `from` on, then the approvals the run waits for. */
export function itemsOfResponse(state: RunState, from: number): NewItem[] {
  const items: NewItem[] = [];
  const statusOf = (callId: string) =>
    state.toolCalls.find((c) => c.callId === callId)?.status ?? "completed";
  for (const message of state.messages.slice(from)) {
    if (message.role === "tool") {
      const callId = message.tool_call_id ?? "";
      items.push({
        type: "function_call_output",
        data: { callId, output: textOf(message.content), failed: statusOf(callId) === "failed" },
      });
      continue;
    }
    const role = message.role === "developer" ? "system" : message.role;
    const text = textOf(message.content);
    if (text !== "") {
      items.push({
        type: "message",
        data: { role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text }] },
      });
    }
    for (const call of message.role === "assistant" ? (message.tool_calls ?? []) : []) {
      items.push({
        type: "function_call",
        data: {
          callId: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
          status: statusOf(call.id),
        },
      });
    }
  }
  for (const deliverable of state.deliverables ?? []) {
    items.push({ type: "deliverable", data: { deliverable } });
  }
  for (const approval of state.pendingApprovals) {
    items.push({
      type: "approval_request",
      data: {
        approvalId: approval.id,
        callId: approval.callId,
        name: approval.tool,
        arguments: approval.arguments,
      },
    });
  }
  return items;
}

export const approvalResponseItem = (
  approvalId: string,
  approve: boolean,
  reason: string | null,
): NewItem => ({
  type: "approval_response",
  data: { approvalId, approve, reason },
});
