/**
 * A chat answer in the responses protocol: a `ChatCompletion` becomes a
 * responses object, a `ChatCompletionChunk` stream becomes the protocol's typed
 * events, in the order and with the fields the `openai` SDK's `responses.stream()`
 * helper accumulates.
 *
 * The response echoes the request's settings; what the caller did not send is
 * `null` (the upstream's defaults are not known here). `store` is always false:
 * the gateway stores nothing. Token details follow the chat rule: the
 * `input_tokens_details` object is omitted when the cached share is unknown, so
 * its absence does not mean zero.
 */
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatUsage,
  defaultIdGenerator,
  type IdGenerator,
} from "@groundwork/core";
import type { ResponsesRequestBody, ResponsesTextFormat, ResponsesToolChoice } from "./responses-request.js";

export interface ResponseOutputText {
  type: "output_text";
  text: string;
  annotations: unknown[];
}

export interface ResponseMessageItem {
  type: "message";
  id: string;
  status: "in_progress" | "completed" | "incomplete";
  role: "assistant";
  content: ResponseOutputText[];
}

export interface ResponseFunctionCallItem {
  type: "function_call";
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: "in_progress" | "completed" | "incomplete";
}

export type ResponseOutputItem = ResponseMessageItem | ResponseFunctionCallItem;

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details?: { cached_tokens: number };
  output_tokens: number;
  total_tokens: number;
}

export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: "in_progress" | "completed" | "incomplete";
  error: null;
  incomplete_details: { reason: "max_output_tokens" | "content_filter" } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: ResponseOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: null;
  reasoning: { effort: null; summary: null };
  store: false;
  temperature: number | null;
  text: { format: ResponsesTextFormat };
  tool_choice: ResponsesToolChoice;
  tools: Array<{
    type: "function";
    name: string;
    description: string | null;
    parameters: Record<string, unknown> | null;
    strict: boolean | null;
  }>;
  top_p: number | null;
  truncation: "disabled";
  metadata: Record<string, string>;
  usage: ResponseUsage | null;
}

interface At {
  item_id: string;
  output_index: number;
}

/** The events emitted for one streamed answer; every one carries `type` and `sequence_number`. */
export type ResponseStreamEvent = { sequence_number: number } & (
  | { type: "response.created" | "response.in_progress"; response: ResponseObject }
  | { type: "response.completed" | "response.incomplete"; response: ResponseObject }
  | {
      type: "response.output_item.added" | "response.output_item.done";
      output_index: number;
      item: ResponseOutputItem;
    }
  | ({
      type: "response.content_part.added" | "response.content_part.done";
      content_index: number;
      part: ResponseOutputText;
    } & At)
  | ({ type: "response.output_text.delta"; content_index: number; delta: string; logprobs: [] } & At)
  | ({ type: "response.output_text.done"; content_index: number; text: string; logprobs: [] } & At)
  | ({ type: "response.function_call_arguments.delta"; delta: string } & At)
  | ({ type: "response.function_call_arguments.done"; name: string; arguments: string } & At)
);

/** Every event type {@link responseEventsFromChat} emits, in protocol order. */
export const RESPONSE_STREAM_EVENT_TYPES = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.content_part.added",
  "response.output_text.delta",
  "response.output_text.done",
  "response.content_part.done",
  "response.function_call_arguments.delta",
  "response.function_call_arguments.done",
  "response.output_item.done",
  "response.completed",
  "response.incomplete",
] as const;

export interface ResponseMeta {
  /** Unix seconds. */
  createdAt: number;
  ids?: IdGenerator;
}

/** A completed chat answer as a responses object; `model` is the model string as sent. */
export function responseFromChat(
  completion: ChatCompletion,
  body: ResponsesRequestBody,
  meta: ResponseMeta,
): ResponseObject {
  const ids = meta.ids ?? defaultIdGenerator;
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [];
  const toolCalls = message?.tool_calls ?? [];
  const text = message?.content ?? null;
  if (text !== null || toolCalls.length === 0) {
    output.push(messageItem(ids("msg"), text ?? "", "completed"));
  }
  for (const call of toolCalls) {
    output.push({
      type: "function_call",
      id: ids("fc"),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: "completed",
    });
  }
  return finalResponse(
    baseResponse(ids("resp"), body, meta.createdAt),
    output,
    choice?.finish_reason ?? null,
    completion.usage,
  );
}

/**
 * The typed event stream of a chat chunk stream. An item is closed (its `done`
 * events sent) when the next one opens, as the vendor does; the closing
 * `response.completed` (or `response.incomplete`) carries the whole response,
 * usage included when the chunks reported it.
 */
export async function* responseEventsFromChat(
  chunks: AsyncIterable<ChatCompletionChunk>,
  body: ResponsesRequestBody,
  meta: ResponseMeta,
): AsyncGenerator<ResponseStreamEvent> {
  const ids = meta.ids ?? defaultIdGenerator;
  const response = baseResponse(ids("resp"), body, meta.createdAt);
  let sequence = 0;
  const stamp = <E extends Omit<ResponseStreamEvent, "sequence_number">>(event: E) =>
    ({ ...event, sequence_number: sequence++ }) as unknown as ResponseStreamEvent;

  yield stamp({ type: "response.created", response: snapshot(response) });
  yield stamp({ type: "response.in_progress", response: snapshot(response) });

  const output: ResponseOutputItem[] = [];
  /** Output index of the item whose `done` events are still to be sent. */
  let open: number | null = null;
  /** Chat tool-call index → output index. */
  const toolItems = new Map<number, number>();
  let finishReason: string | null = null;
  let usage: ChatUsage | undefined;

  function* close(): Generator<ResponseStreamEvent> {
    if (open === null) return;
    const index = open;
    open = null;
    const item = output[index];
    if (item === undefined) return;
    item.status = "completed";
    if (item.type === "message") {
      const part = item.content[0] ?? outputText("");
      const at = { item_id: item.id, output_index: index, content_index: 0 };
      yield stamp({ type: "response.output_text.done", ...at, text: part.text, logprobs: [] });
      yield stamp({ type: "response.content_part.done", ...at, part: { ...part } });
    } else {
      yield stamp({
        type: "response.function_call_arguments.done",
        item_id: item.id,
        output_index: index,
        name: item.name,
        arguments: item.arguments,
      });
    }
    yield stamp({ type: "response.output_item.done", output_index: index, item: structuredClone(item) });
  }

  function* openMessage(): Generator<ResponseStreamEvent, ResponseMessageItem> {
    yield* close();
    const item = messageItem(ids("msg"), "", "in_progress");
    item.content = [];
    const index = output.push(item) - 1;
    open = index;
    yield stamp({ type: "response.output_item.added", output_index: index, item: structuredClone(item) });
    item.content.push(outputText(""));
    yield stamp({
      type: "response.content_part.added",
      item_id: item.id,
      output_index: index,
      content_index: 0,
      part: outputText(""),
    });
    return item;
  }

  for await (const chunk of chunks) {
    if (chunk.usage != null) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    if (choice.finish_reason != null) finishReason = choice.finish_reason;
    const content = choice.delta.content;
    if (typeof content === "string" && content !== "") {
      const current = open === null ? undefined : output[open];
      const item = current?.type === "message" ? current : yield* openMessage();
      const part = item.content[0] as ResponseOutputText;
      part.text += content;
      yield stamp({
        type: "response.output_text.delta",
        item_id: item.id,
        output_index: output.indexOf(item),
        content_index: 0,
        delta: content,
        logprobs: [],
      });
    }
    for (const call of choice.delta.tool_calls ?? []) {
      let index = toolItems.get(call.index);
      if (index === undefined) {
        yield* close();
        const item: ResponseFunctionCallItem = {
          type: "function_call",
          id: ids("fc"),
          call_id: call.id ?? ids("call"),
          name: call.function?.name ?? "",
          arguments: "",
          status: "in_progress",
        };
        index = output.push(item) - 1;
        toolItems.set(call.index, index);
        open = index;
        yield stamp({ type: "response.output_item.added", output_index: index, item: structuredClone(item) });
      }
      const item = output[index] as ResponseFunctionCallItem;
      const fragment = call.function?.arguments ?? "";
      if (fragment !== "") {
        // A fragment for an item already closed (interleaved calls) still reaches the final response.
        item.arguments += fragment;
        yield stamp({
          type: "response.function_call_arguments.delta",
          item_id: item.id,
          output_index: index,
          delta: fragment,
        });
      }
    }
  }
  if (output.length === 0) yield* openMessage();
  yield* close();
  const final = finalResponse(response, output, finishReason, usage);
  yield stamp({
    type: final.status === "incomplete" ? "response.incomplete" : "response.completed",
    response: final,
  });
}

function baseResponse(id: string, body: ResponsesRequestBody, createdAt: number): ResponseObject {
  return {
    id,
    object: "response",
    created_at: createdAt,
    status: "in_progress",
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: body.temperature ?? null,
    text: { format: body.text?.format ?? { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: (body.tools ?? []).map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: tool.strict ?? null,
    })),
    top_p: body.top_p ?? null,
    truncation: "disabled",
    metadata: body.metadata ?? {},
    usage: null,
  };
}

function finalResponse(
  response: ResponseObject,
  output: ResponseOutputItem[],
  finishReason: string | null,
  usage: ChatUsage | null | undefined,
): ResponseObject {
  const reason =
    finishReason === "length"
      ? "max_output_tokens"
      : finishReason === "content_filter"
        ? "content_filter"
        : null;
  return {
    ...response,
    status: reason === null ? "completed" : "incomplete",
    incomplete_details: reason === null ? null : { reason },
    output: output.map((item) => {
      const copy = structuredClone(item);
      copy.status = reason === null ? "completed" : "incomplete";
      return copy;
    }),
    usage: usage == null ? null : responseUsage(usage),
  };
}

/** Chat usage in the responses protocol's names. */
export function responseUsage(usage: ChatUsage): ResponseUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    input_tokens: usage.prompt_tokens,
    ...(cached === undefined ? {} : { input_tokens_details: { cached_tokens: cached } }),
    output_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
}

function snapshot(response: ResponseObject): ResponseObject {
  return structuredClone(response);
}

function outputText(text: string): ResponseOutputText {
  return { type: "output_text", text, annotations: [] };
}

function messageItem(id: string, text: string, status: ResponseMessageItem["status"]): ResponseMessageItem {
  return { type: "message", id, status, role: "assistant", content: [outputText(text)] };
}
