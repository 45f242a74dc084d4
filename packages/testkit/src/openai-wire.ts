import { chunkString, type PromptText, type ResolvedCompletion, splitText } from "./completion.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { lastUserText, messagesOf, textOf } from "./prompt-text.js";
import type { SseEvent } from "./reply.js";

/** Identity of one rendered answer. */
export interface AnswerMeta {
  readonly id: string;
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
}

// OpenAI streams arguments in token-sized fragments; a fixed width reproduces the reassembly work.
const ARGUMENT_FRAGMENT = 8;

/** The prompt of a chat completions body. */
export function chatPrompt(body: JsonValue | undefined): PromptText {
  const messages = messagesOf(body);
  return {
    lastUser: lastUserText(messages),
    all: messages.map((message) => (isJsonObject(message) ? textOf(message.content) : "")).join("\n"),
  };
}

/** The prompt of a responses body: `input` as a string or as input items, plus `instructions`. */
export function responsesPrompt(body: JsonValue | undefined): PromptText {
  const input = isJsonObject(body) ? body.input : undefined;
  const instructions = isJsonObject(body) && typeof body.instructions === "string" ? body.instructions : "";
  if (typeof input === "string") return { lastUser: input, all: `${instructions}\n${input}` };
  const items = Array.isArray(input) ? input : [];
  const texts = items.map((item) =>
    isJsonObject(item) ? textOf(item.content) || (typeof item.output === "string" ? item.output : "") : "",
  );
  return { lastUser: lastUserText(items), all: [instructions, ...texts].join("\n") };
}

function chatUsage(completion: ResolvedCompletion): JsonObject | undefined {
  const usage = completion.usage;
  if (usage === null) return undefined;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cachedInputTokens === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } }),
  };
}

/** A `chat.completion` object. */
export function renderChatCompletion(completion: ResolvedCompletion, meta: AnswerMeta): JsonObject {
  const usage = chatUsage(completion);
  const message: JsonObject = {
    role: "assistant",
    content: completion.text ?? null,
    refusal: null,
    annotations: [],
  };
  if (completion.toolCalls.length > 0) {
    message.tool_calls = completion.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: completion.finishReason }],
    ...(usage === undefined ? {} : { usage }),
    system_fingerprint: null,
  };
}

/**
 * The `chat.completion.chunk` stream: a role chunk, text deltas, per tool call a chunk with id,
 * type and name followed by argument fragments, a chunk with `finish_reason`, then (when
 * `includeUsage` and usage is known) a chunk with empty `choices` and `usage`, then `[DONE]`.
 * Like OpenAI, every chunk carries `usage: null` when usage was requested.
 */
export function renderChatChunks(
  completion: ResolvedCompletion,
  meta: AnswerMeta,
  includeUsage: boolean,
): SseEvent[] {
  const base: JsonObject = {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    ...(includeUsage ? { usage: null } : {}),
  };
  const chunk = (delta: JsonObject, finish: string | null = null): SseEvent => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] },
  });
  const events: SseEvent[] = [
    chunk({ role: "assistant", content: completion.text === undefined ? null : "", refusal: null }),
  ];
  for (const piece of splitText(completion.text ?? "")) events.push(chunk({ content: piece }));
  completion.toolCalls.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const fragment of chunkString(call.arguments, ARGUMENT_FRAGMENT)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  events.push(chunk({}, completion.finishReason));
  const usage = chatUsage(completion);
  if (includeUsage && usage !== undefined) events.push({ data: { ...base, choices: [], usage } });
  events.push({ data: "[DONE]" });
  return events;
}

/** Ids of one responses answer, drawn before rendering so every event agrees on them. */
export interface ResponseIds extends AnswerMeta {
  readonly messageId: string;
}

function responsesUsage(completion: ResolvedCompletion): JsonObject | undefined {
  const usage = completion.usage;
  if (usage === null) return undefined;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function outputText(text: string): JsonObject {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

function messageItem(id: string, text: string, status: "in_progress" | "completed"): JsonObject {
  return {
    type: "message",
    id,
    status,
    role: "assistant",
    content: status === "completed" ? [outputText(text)] : [],
  };
}

type ToolCall = ResolvedCompletion["toolCalls"][number];

// The item id is derived from the call id, so both stay stable across the stream's events.
function functionCallItem(call: ToolCall, status: "in_progress" | "completed"): JsonObject {
  return {
    type: "function_call",
    id: functionItemId(call),
    call_id: call.id,
    name: call.name,
    arguments: status === "completed" ? call.arguments : "",
    status,
  };
}

function functionItemId(call: ToolCall): string {
  return `fc_${call.id.replace(/^call_/, "")}`;
}

/**
 * A `response` object. `status` is `in_progress` with no output for the first stream events,
 * otherwise `completed`, or `incomplete` when the finish reason is `length` or `content_filter`.
 */
export function renderResponse(
  completion: ResolvedCompletion,
  ids: ResponseIds,
  request: JsonValue | undefined,
  phase: "in_progress" | "done" = "done",
): JsonObject {
  const body = isJsonObject(request) ? request : {};
  const done = phase === "done";
  const incomplete =
    completion.finishReason === "length"
      ? "max_output_tokens"
      : completion.finishReason === "content_filter"
        ? "content_filter"
        : undefined;
  const output = done
    ? [
        ...(completion.text === undefined ? [] : [messageItem(ids.messageId, completion.text, "completed")]),
        ...completion.toolCalls.map((call) => functionCallItem(call, "completed")),
      ]
    : [];
  const usage = done ? responsesUsage(completion) : undefined;
  return {
    id: ids.id,
    object: "response",
    created_at: ids.created,
    status: done ? (incomplete === undefined ? "completed" : "incomplete") : "in_progress",
    error: null,
    incomplete_details: done && incomplete !== undefined ? { reason: incomplete } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: ids.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? "disabled",
    metadata: body.metadata ?? {},
    ...(usage === undefined ? {} : { usage }),
  };
}

/**
 * The typed event stream of the responses protocol: `response.created`, `response.in_progress`,
 * for the text `output_item.added`, `content_part.added`, `output_text.delta`…,
 * `output_text.done`, `content_part.done`, `output_item.done`; for each function call
 * `output_item.added`, `function_call_arguments.delta`…, `function_call_arguments.done`,
 * `output_item.done`; then `response.completed` (or `response.incomplete`). Every event is sent
 * as `event: <type>` with its `type` and `sequence_number` in the data.
 */
export function renderResponseEvents(
  completion: ResolvedCompletion,
  ids: ResponseIds,
  request: JsonValue | undefined,
): SseEvent[] {
  const events: SseEvent[] = [];
  const emit = (type: string, fields: JsonObject) =>
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
  const final = renderResponse(completion, ids, request);
  emit("response.created", { response: renderResponse(completion, ids, request, "in_progress") });
  emit("response.in_progress", { response: renderResponse(completion, ids, request, "in_progress") });
  let outputIndex = 0;
  if (completion.text !== undefined) {
    const text = completion.text;
    const at = { item_id: ids.messageId, output_index: outputIndex, content_index: 0 };
    emit("response.output_item.added", {
      output_index: outputIndex,
      item: messageItem(ids.messageId, "", "in_progress"),
    });
    emit("response.content_part.added", { ...at, part: outputText("") });
    for (const delta of splitText(text)) emit("response.output_text.delta", { ...at, delta, logprobs: [] });
    emit("response.output_text.done", { ...at, text, logprobs: [] });
    emit("response.content_part.done", { ...at, part: outputText(text) });
    emit("response.output_item.done", {
      output_index: outputIndex,
      item: messageItem(ids.messageId, text, "completed"),
    });
    outputIndex += 1;
  }
  for (const call of completion.toolCalls) {
    const at = { item_id: functionItemId(call), output_index: outputIndex };
    emit("response.output_item.added", {
      output_index: outputIndex,
      item: functionCallItem(call, "in_progress"),
    });
    for (const delta of chunkString(call.arguments, ARGUMENT_FRAGMENT)) {
      emit("response.function_call_arguments.delta", { ...at, delta });
    }
    emit("response.function_call_arguments.done", { ...at, name: call.name, arguments: call.arguments });
    emit("response.output_item.done", {
      output_index: outputIndex,
      item: functionCallItem(call, "completed"),
    });
    outputIndex += 1;
  }
  emit(final.status === "incomplete" ? "response.incomplete" : "response.completed", { response: final });
  return events;
}
