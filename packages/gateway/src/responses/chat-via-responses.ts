/**
 * The other direction, for HOSTED_A's `useResponsesApi` (spec document 1): a
 * chat request sent through the vendor's responses protocol, and its answer —
 * a responses object or its typed event stream — turned back into the chat
 * completion or chunks the gateway speaks. Input items use the same shapes as
 * `/v1/responses` bodies (`ResponsesInputItem`), so the two directions mirror
 * each other (`inputItemsToMessages` undoes `messagesToInputItems`).
 *
 * When the responses protocol is used (`usesResponsesApi`):
 * - `always` (the account's `useResponsesApi` flag): every request;
 * - `auto` (HOSTED_A without the flag): a request carrying function tools for a
 *   reasoning model (`isReasoningModel`: ids starting `o<digit>` or `gpt-5`,
 *   fine-tuned `ft:` ids included), and any request for a model served only
 *   there (`isResponsesOnlyModel`: the `-pro`, `-codex` and `-deep-research`
 *   variants of those, `codex-…` and `computer-use-preview…`);
 * - `never`: other kinds and the built-in upstream.
 *
 * Chat fields the protocol lacks: `stop` is refused with a 400 (it would
 * change the answer); `frequency_penalty` and `presence_penalty` are dropped
 * (sampling hints). Requests are sent with `store: false`: the gateway never
 * refers back to a stored response.
 */
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatContentPart,
  type ChatMessage,
  type ChatRequest,
  type ChatToolCall,
  invalidRequest,
  upstreamError,
} from "@groundwork/core";
import type { ResponsesContentPart, ResponsesInputItem, ResponsesTextFormat } from "./responses-request.js";

export type ResponsesApiMode = "never" | "auto" | "always";

const REASONING_MODEL = /^(ft:)?(o\d|gpt-5)/;
const RESPONSES_ONLY_MODEL =
  /^(ft:)?((o\d[\w.-]*|gpt-5[\w.-]*)-(pro|codex|deep-research)([-:].*)?|codex-[\w.-]+|computer-use-preview([-:].*)?)$/;

export function isReasoningModel(model: string): boolean {
  return REASONING_MODEL.test(model);
}

export function isResponsesOnlyModel(model: string): boolean {
  return RESPONSES_ONLY_MODEL.test(model);
}

export function usesResponsesApi(mode: ResponsesApiMode, request: ChatRequest): boolean {
  switch (mode) {
    case "always":
      return true;
    case "never":
      return false;
    case "auto":
      return (
        isResponsesOnlyModel(request.model) ||
        ((request.tools?.length ?? 0) > 0 && isReasoningModel(request.model))
      );
  }
}

/** The body of a vendor `responses.create` call (without `stream`). */
export interface ResponsesCreateBody {
  model: string;
  input: ResponsesInputItem[];
  store: false;
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
  text?: { format: ResponsesTextFormat };
  tools?: Array<{
    type: "function";
    name: string;
    description?: string;
    parameters: Record<string, unknown> | null;
    strict: boolean;
  }>;
  tool_choice?: "auto" | "none" | "required" | { type: "function"; name: string };
  prompt_cache_key?: string;
}

export function chatToResponsesBody(request: ChatRequest): ResponsesCreateBody {
  if (request.stop !== undefined && request.stop.length > 0) {
    throw invalidRequest(
      "stop is not supported when the provider is called through its responses protocol (useResponsesApi, or a reasoning model with tools)",
      { param: "stop", code: "unsupported_parameter" },
    );
  }
  const body: ResponsesCreateBody = {
    model: request.model,
    input: messagesToInputItems(request.messages),
    store: false,
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  const limit = request.max_completion_tokens ?? request.max_tokens;
  if (limit !== undefined) body.max_output_tokens = limit;
  const format = request.response_format;
  if (format !== undefined) {
    body.text = {
      format:
        format.type === "json_schema"
          ? { type: "json_schema", ...format.json_schema }
          : { type: format.type },
    };
  }
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      name: tool.function.name,
      ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
      parameters: tool.function.parameters ?? null,
      // The vendor's responses API reads an omitted `strict` as true; chat reads it as false.
      strict: tool.function.strict ?? false,
    }));
  }
  const choice = request.tool_choice;
  if (choice !== undefined) {
    body.tool_choice = typeof choice === "string" ? choice : { type: "function", name: choice.function.name };
  }
  if (request.prompt_cache_key !== undefined) body.prompt_cache_key = request.prompt_cache_key;
  return body;
}

/** Chat messages as input items: an assistant turn's tool calls follow its text as `function_call` items. */
export function messagesToInputItems(messages: readonly ChatMessage[]): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case "tool":
        if (message.tool_call_id === undefined || message.tool_call_id === "") {
          throw invalidRequest("a tool message needs tool_call_id", {
            param: `messages[${index}].tool_call_id`,
          });
        }
        items.push({
          type: "function_call_output",
          call_id: message.tool_call_id,
          output: textOf(message.content),
        });
        return;
      case "assistant": {
        const text = textOf(message.content);
        const calls = message.tool_calls ?? [];
        if (text !== "" || calls.length === 0)
          items.push({ type: "message", role: "assistant", content: text });
        for (const call of calls) {
          items.push({
            type: "function_call",
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
          });
        }
        return;
      }
      case "user":
        items.push({ type: "message", role: "user", content: userContent(message.content) });
        return;
      case "system":
      case "developer":
        items.push({ type: "message", role: message.role, content: textOf(message.content) });
        return;
    }
  });
  return items;
}

function userContent(content: ChatMessage["content"]): string | ResponsesContentPart[] {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map(
    (part): ResponsesContentPart =>
      part.type === "text"
        ? { type: "input_text", text: part.text }
        : {
            type: "input_image",
            image_url: part.image_url.url,
            ...(part.image_url.detail === undefined ? {} : { detail: part.image_url.detail }),
          },
  );
}

function textOf(content: string | ChatContentPart[] | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

// ---- answers ----

interface VendorOutputItem {
  type: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  content?: Array<{ type: string; text?: string; refusal?: string }>;
}

interface VendorUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details?: { cached_tokens?: number | null } | null;
}

/** The fields of a vendor responses object this translation reads. */
export interface VendorResponse {
  id: string;
  created_at: number;
  model: string;
  status?: string | null;
  error?: { message?: string } | null;
  incomplete_details?: { reason?: string | null } | null;
  output: VendorOutputItem[];
  usage?: VendorUsage | null;
}

export function chatCompletionFromResponse(response: VendorResponse, provider: string): ChatCompletion {
  if (response.status === "failed") {
    throw upstreamError(
      `${provider} failed the response: ${response.error?.message ?? "no reason given"}`,
      "failed",
    );
  }
  let text: string | null = null;
  let refusal: string | null = null;
  const toolCalls: ChatToolCall[] = [];
  for (const item of response.output) {
    if (item.type === "message") {
      for (const part of item.content ?? []) {
        if (part.type === "output_text") text = (text ?? "") + (part.text ?? "");
        else if (part.type === "refusal") refusal = (refusal ?? "") + (part.refusal ?? "");
      }
    } else if (item.type === "function_call") {
      toolCalls.push({
        id: item.call_id ?? "",
        type: "function",
        function: { name: item.name ?? "", arguments: item.arguments ?? "" },
      });
    }
  }
  const usage = chatUsage(response.usage);
  return {
    id: response.id,
    object: "chat.completion",
    created: response.created_at,
    model: response.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          // The chat wire type has no refusal field: a refusal is the answer's text.
          content: text ?? refusal,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason(response, toolCalls.length > 0),
      },
    ],
    ...(usage === undefined ? {} : { usage }),
  };
}

function finishReason(
  response: Pick<VendorResponse, "status" | "incomplete_details">,
  tools: boolean,
): string {
  if (response.status === "incomplete") {
    return response.incomplete_details?.reason === "content_filter" ? "content_filter" : "length";
  }
  return tools ? "tool_calls" : "stop";
}

function chatUsage(usage: VendorUsage | null | undefined): ChatCompletion["usage"] {
  if (usage == null) return undefined;
  const cached = usage.input_tokens_details?.cached_tokens;
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    ...(cached == null ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
  };
}

/** One vendor stream event; only the fields read here are typed. */
export interface VendorStreamEvent {
  type: string;
  response?: VendorResponse;
  output_index?: number;
  item?: VendorOutputItem;
  delta?: string;
  text?: string;
  arguments?: string;
  message?: string;
}

/**
 * The vendor's typed events as chat chunks: a role chunk, text deltas, per
 * function call a chunk with id and name then argument fragments, a chunk with
 * `finish_reason`, and a usage chunk (empty `choices`) when usage is known.
 */
export async function* chatChunksFromResponseEvents(
  events: AsyncIterable<VendorStreamEvent>,
  provider: string,
): AsyncGenerator<ChatCompletionChunk> {
  let meta = { id: "", created: 0, model: "" };
  const chunk = (delta: ChatCompletionChunk["choices"][number]["delta"], finish: string | null = null) => ({
    ...meta,
    object: "chat.completion.chunk" as const,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  /** Output index → chat tool-call index and whether argument fragments arrived. */
  const calls = new Map<number, { index: number; streamed: boolean }>();
  /** Output indexes of message items whose text arrived as deltas. */
  const streamedText = new Set<number>();
  for await (const event of events) {
    switch (event.type) {
      case "response.created":
        if (event.response !== undefined) {
          meta = { id: event.response.id, created: event.response.created_at, model: event.response.model };
        }
        yield chunk({ role: "assistant", content: "" });
        break;
      case "response.output_text.delta":
        if (event.delta !== undefined && event.delta !== "") {
          streamedText.add(event.output_index ?? -1);
          yield chunk({ content: event.delta });
        }
        break;
      case "response.output_text.done":
        // Servers that skip the deltas still deliver the text.
        if (!streamedText.has(event.output_index ?? -1) && event.text !== undefined && event.text !== "") {
          yield chunk({ content: event.text });
        }
        break;
      case "response.output_item.added":
        if (event.item?.type === "function_call") {
          const index = calls.size;
          calls.set(event.output_index ?? -1, { index, streamed: false });
          yield chunk({
            tool_calls: [
              {
                index,
                id: event.item.call_id ?? "",
                type: "function",
                function: { name: event.item.name ?? "", arguments: "" },
              },
            ],
          });
        }
        break;
      case "response.function_call_arguments.delta": {
        const call = calls.get(event.output_index ?? -1);
        if (call !== undefined && event.delta !== undefined && event.delta !== "") {
          call.streamed = true;
          yield chunk({ tool_calls: [{ index: call.index, function: { arguments: event.delta } }] });
        }
        break;
      }
      case "response.output_item.done": {
        const call = calls.get(event.output_index ?? -1);
        const args = event.item?.arguments ?? "";
        if (call !== undefined && !call.streamed && args !== "") {
          call.streamed = true;
          yield chunk({ tool_calls: [{ index: call.index, function: { arguments: args } }] });
        }
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        const response = event.response;
        yield chunk({}, finishReason(response ?? {}, calls.size > 0));
        const usage = chatUsage(response?.usage);
        if (usage !== undefined) yield { ...chunk({}), choices: [], usage };
        return;
      }
      case "response.failed":
        throw upstreamError(
          `${provider} failed the response: ${event.response?.error?.message ?? "no reason given"}`,
          "failed",
        );
      case "error":
        throw upstreamError(
          `${provider} ended the stream with an error: ${event.message ?? "unknown"}`,
          "failed",
        );
    }
  }
  throw upstreamError(`${provider} ended the stream before the response completed`, "failed");
}
