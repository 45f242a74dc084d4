/**
 * `stream: true` for agent runs: the responses protocol's typed events (docs/agents.md,
 * "Streaming"). Model text streams as `response.output_text.delta` on one message item;
 * each server-side tool call that finishes is reported as `response.agent_tool_call.done`
 * (a Groundwork event; SDK accumulators ignore it); pending relayed calls and approvals
 * arrive as `function_call` / `approval_request` output items; the closing
 * `response.completed` (or `response.incomplete` / `response.failed`) carries the whole
 * response with its `run` envelope and is authoritative.
 */
import type { AgentOutputItem, AgentResponseObject, RunEvent, RunState } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import type { AgentResponsesBody, AgentRunner } from "./agent-runner.js";

export type AgentStreamEvent = { type: string; sequence_number: number } & Record<string, unknown>;

export const AGENT_STREAM_EVENT_TYPES = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.content_part.added",
  "response.output_text.delta",
  "response.output_text.done",
  "response.content_part.done",
  "response.output_item.done",
  "response.agent_tool_call.done",
  "response.completed",
  "response.incomplete",
  "response.failed",
] as const;

type Queued =
  | { kind: "event"; event: RunEvent }
  | { kind: "end"; state: RunState }
  | { kind: "error"; error: unknown };

/**
 * Starts the run and resolves once it has begun (so validation errors are still plain HTTP
 * errors), with the event stream to send.
 */
export async function openAgentStream(
  runner: AgentRunner,
  principal: Principal,
  body: AgentResponsesBody,
  signal: AbortSignal | undefined,
): Promise<AsyncIterable<AgentStreamEvent>> {
  const queue: Queued[] = [];
  let wake: (() => void) | null = null;
  const push = (item: Queued) => {
    queue.push(item);
    wake?.();
    wake = null;
  };
  let begun: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    begun = resolve;
  });
  const run = runner.respond(principal, body, {
    ...(signal === undefined ? {} : { signal }),
    onEvent: (event) => {
      if (event.type === "started") begun();
      push({ kind: "event", event });
    },
  });
  run.then(
    (state) => push({ kind: "end", state }),
    (error: unknown) => push({ kind: "error", error }),
  );
  await Promise.race([started, run]);

  async function* events(): AsyncGenerator<AgentStreamEvent> {
    let sequence = 0;
    const emit = (type: string, fields: Record<string, unknown>): AgentStreamEvent => ({
      type,
      sequence_number: sequence++,
      ...fields,
    });
    let messageId: string | null = null;
    let text = "";
    let snapshot: AgentResponseObject | null = null;
    let nextIndex = 0;
    for (;;) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift() as Queued;
      if (item.kind === "error") throw item.error;
      if (item.kind === "event") {
        const event = item.event;
        if (event.type === "started") {
          snapshot = { ...runner.render(event.state), status: "in_progress", output: [] };
          yield emit("response.created", { response: snapshot });
          yield emit("response.in_progress", { response: snapshot });
        } else if (event.type === "text_delta") {
          if (messageId === null && snapshot !== null) {
            messageId = `msg_${snapshot.id.replace(/^resp_/, "")}`;
            nextIndex = 1;
            yield emit("response.output_item.added", {
              output_index: 0,
              item: { type: "message", id: messageId, status: "in_progress", role: "assistant", content: [] },
            });
            yield emit("response.content_part.added", {
              item_id: messageId,
              output_index: 0,
              content_index: 0,
              part: { type: "output_text", text: "", annotations: [] },
            });
          }
          text += event.delta;
          yield emit("response.output_text.delta", {
            item_id: messageId,
            output_index: 0,
            content_index: 0,
            delta: event.delta,
            logprobs: [],
          });
        } else if (event.type === "tool_call") {
          yield emit("response.agent_tool_call.done", {
            item: {
              callId: event.record.callId,
              tool: event.record.tool,
              arguments: event.record.arguments,
              status: event.record.status,
              output: event.record.output,
              judge: event.record.judge ?? null,
            },
          });
        }
        continue;
      }
      const response = runner.render(item.state);
      const message = response.output.find((o) => o.type === "message");
      if (messageId !== null) {
        const part =
          message?.type === "message"
            ? message.content[0]
            : { type: "output_text" as const, text, annotations: [] };
        yield emit("response.output_text.done", {
          item_id: messageId,
          output_index: 0,
          content_index: 0,
          text: part?.text ?? text,
          logprobs: [],
        });
        yield emit("response.content_part.done", {
          item_id: messageId,
          output_index: 0,
          content_index: 0,
          part,
        });
        yield emit("response.output_item.done", {
          output_index: 0,
          item: message ?? {
            type: "message",
            id: messageId,
            status: "completed",
            role: "assistant",
            content: [part],
          },
        });
      }
      for (const output of response.output.filter(
        (o): o is Exclude<AgentOutputItem, { type: "message" }> => o.type !== "message",
      )) {
        const index = nextIndex++;
        yield emit("response.output_item.added", { output_index: index, item: output });
        yield emit("response.output_item.done", { output_index: index, item: output });
      }
      const closing =
        response.status === "failed"
          ? "response.failed"
          : response.status === "incomplete"
            ? "response.incomplete"
            : "response.completed";
      yield emit(closing, { response });
      return;
    }
  }
  return events();
}
