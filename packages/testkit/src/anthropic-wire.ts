import { chunkString, type PromptText, type ResolvedCompletion, splitText } from "./completion.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import type { AnswerMeta } from "./openai-wire.js";
import { lastUserText, messagesOf, textOf } from "./prompt-text.js";
import type { FinishReason, SseEvent } from "./reply.js";

const STOP_REASONS: Readonly<Record<FinishReason, string>> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
};

// Anthropic streams tool input in small fragments; a fixed width reproduces the reassembly work.
const INPUT_FRAGMENT = 8;

/** The prompt of a messages body: `system` (string or text blocks) and `messages`. */
export function messagesPrompt(body: JsonValue | undefined): PromptText {
  const messages = messagesOf(body);
  const system = isJsonObject(body) ? textOf(body.system) : "";
  return {
    lastUser: lastUserText(messages),
    all: [system, ...messages.map((message) => (isJsonObject(message) ? textOf(message.content) : ""))].join(
      "\n",
    ),
  };
}

type ToolCall = ResolvedCompletion["toolCalls"][number];

// `input` is an object on this wire, so arguments scripted as a string must parse into one.
function toolInput(call: ToolCall): JsonObject {
  const input = JSON.parse(call.arguments) as JsonValue;
  if (!isJsonObject(input)) throw new Error(`tool call ${call.name}: arguments must be a JSON object`);
  return input;
}

function usageOf(completion: ResolvedCompletion, outputTokens: number): JsonObject {
  const usage = completion.usage;
  if (usage === null) throw new Error("Anthropic answers always carry usage");
  return {
    input_tokens: usage.inputTokens,
    output_tokens: outputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cache_read_input_tokens: usage.cachedInputTokens }),
  };
}

function message(completion: ResolvedCompletion, meta: AnswerMeta, done: boolean): JsonObject {
  const content: JsonObject[] = [];
  if (done && completion.text !== undefined) content.push({ type: "text", text: completion.text });
  if (done) {
    for (const call of completion.toolCalls) {
      content.push({ type: "tool_use", id: call.id, name: call.name, input: toolInput(call) });
    }
  }
  const outputTokens = completion.usage?.outputTokens ?? 0;
  return {
    id: meta.id,
    type: "message",
    role: "assistant",
    model: meta.model,
    content,
    stop_reason: done ? STOP_REASONS[completion.finishReason] : null,
    stop_sequence: null,
    // Like the vendor, the opening event counts only the first output token.
    usage: usageOf(completion, done ? outputTokens : Math.min(1, outputTokens)),
  };
}

/** A `message` object with `text` and `tool_use` blocks. */
export function renderMessage(completion: ResolvedCompletion, meta: AnswerMeta): JsonObject {
  return message(completion, meta, true);
}

/**
 * The messages event stream: `message_start`, `ping`, per block `content_block_start`,
 * `content_block_delta` (`text_delta`, or `input_json_delta` starting with an empty fragment as
 * the vendor does), `content_block_stop`; then `message_delta` with `stop_reason` and
 * `usage.output_tokens` (input counts only in `message_start`), and `message_stop`.
 */
export function renderMessageEvents(completion: ResolvedCompletion, meta: AnswerMeta): SseEvent[] {
  const events: SseEvent[] = [];
  const emit = (type: string, fields: JsonObject) => events.push({ event: type, data: { type, ...fields } });
  emit("message_start", { message: message(completion, meta, false) });
  emit("ping", {});
  let index = 0;
  if (completion.text !== undefined) {
    emit("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const text of splitText(completion.text)) {
      emit("content_block_delta", { index, delta: { type: "text_delta", text } });
    }
    emit("content_block_stop", { index });
    index += 1;
  }
  for (const call of completion.toolCalls) {
    const json = JSON.stringify(toolInput(call));
    emit("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    for (const partial_json of ["", ...chunkString(json, INPUT_FRAGMENT)]) {
      emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    }
    emit("content_block_stop", { index });
    index += 1;
  }
  emit("message_delta", {
    delta: { stop_reason: STOP_REASONS[completion.finishReason], stop_sequence: null },
    usage: { output_tokens: completion.usage?.outputTokens ?? 0 },
  });
  emit("message_stop", {});
  return events;
}
