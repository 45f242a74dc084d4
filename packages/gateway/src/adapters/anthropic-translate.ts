/**
 * Pure translation between the chat-completions wire format (`@groundwork/core`) and
 * hosted-b's messages API. No I/O: the adapter feeds it requests, answers and stream events.
 *
 * Decisions (the chat format asks for more than the vendor has, or differently):
 * - `system`/`developer` messages, wherever they sit, become the one top-level `system`
 *   text (joined by blank lines, in order); the vendor has no system turns.
 * - `response_format` becomes an instruction appended to `system`: the spec has hosted-b
 *   receive a JSON Schema as prompt text, not as a native output format.
 * - `tool` messages become `tool_result` blocks in a user turn; consecutive turns of one
 *   role are merged because the vendor requires user/assistant alternation; in a user turn
 *   the `tool_result` blocks go first (the vendor refuses text before them).
 * - `max_tokens` is required by the vendor: `max_completion_tokens`, else `max_tokens`,
 *   else {@link DEFAULT_MAX_TOKENS}.
 * - `temperature` is clamped to the vendor's 0–1 (the chat range is 0–2): a request for
 *   "hotter than 1" gets the hottest the vendor allows instead of a refusal.
 * - Dropped, the vendor has no equivalent: `frequency_penalty`, `presence_penalty`,
 *   `prompt_cache_key` (its caching needs explicit breakpoints), message `name`, image
 *   `detail`. Thinking blocks in answers are dropped (the chat format has no place for them).
 * - Usage: the vendor's `input_tokens` excludes cache reads and writes, while the chat
 *   format's `prompt_tokens` includes them, so `prompt_tokens` is the sum of the three;
 *   `cached_tokens` is `cache_read_input_tokens`, reported only when the vendor reported it.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  Message,
  MessageCreateParamsBase,
  MessageParam,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatContentPart,
  type ChatMessage,
  type ChatRequest,
  type ChatTool,
  type ChatToolCall,
  type ChatToolChoice,
  type ChatUsage,
  invalidRequest,
  upstreamError,
} from "@groundwork/core";

/** Sent as `max_tokens` when the request names no limit: the vendor requires one. */
export const DEFAULT_MAX_TOKENS = 4096;

/** The image types the vendor accepts as base64 sources. */
const BASE64_MEDIA_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
type Base64MediaType = (typeof BASE64_MEDIA_TYPES)[number];

const PROVIDER = "hosted-b";

export interface MessagesPrompt {
  system: string[];
  messages: MessageParam[];
}

interface Turn {
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

/** The whole request body except `stream`. */
export function toMessagesBody(request: ChatRequest): MessageCreateParamsBase {
  const { system, messages } = toMessagesPrompt(request.messages);
  const instruction = responseFormatInstruction(request.response_format);
  if (instruction !== undefined) system.push(instruction);
  return {
    model: request.model,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? DEFAULT_MAX_TOKENS,
    messages,
    ...(system.length > 0 ? { system: system.join("\n\n") } : {}),
    ...(request.temperature === undefined
      ? {}
      : { temperature: Math.min(1, Math.max(0, request.temperature)) }),
    ...(request.top_p === undefined ? {} : { top_p: request.top_p }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop_sequences: request.stop }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : { tools: request.tools.map(toTool) }),
    ...(request.tool_choice === undefined ? {} : { tool_choice: toToolChoice(request.tool_choice) }),
  };
}

/** Splits chat messages into the vendor's `system` texts and alternating user/assistant turns. */
export function toMessagesPrompt(messages: readonly ChatMessage[]): MessagesPrompt {
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const [index, message] of messages.entries()) {
    const param = `messages[${index}]`;
    switch (message.role) {
      case "system":
      case "developer": {
        const text = systemText(message.content, `${param}.content`);
        if (text.length > 0) system.push(text);
        break;
      }
      case "user":
        appendTurn(turns, "user", contentBlocks(message.content, `${param}.content`, true));
        break;
      case "assistant":
        appendTurn(turns, "assistant", [
          ...contentBlocks(message.content, `${param}.content`, false),
          ...(message.tool_calls ?? []).map((call, j) => toolUse(call, `${param}.tool_calls[${j}]`)),
        ]);
        break;
      case "tool":
        appendTurn(turns, "user", [toolResult(message, param)]);
        break;
    }
  }
  return { system, messages: turns.map(toolResultsFirst) };
}

function appendTurn(turns: Turn[], role: Turn["role"], content: ContentBlockParam[]): void {
  if (content.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === role) last.content.push(...content);
  else turns.push({ role, content });
}

// Stable: tool results keep their order, and so does everything after them.
function toolResultsFirst(turn: Turn): MessageParam {
  if (turn.role === "assistant") return turn;
  const results = turn.content.filter((block) => block.type === "tool_result");
  const rest = turn.content.filter((block) => block.type !== "tool_result");
  return { role: turn.role, content: [...results, ...rest] };
}

function systemText(content: ChatMessage["content"], param: string): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (part.type === "text") return part.text;
      throw invalidRequest(`${PROVIDER} accepts only text in system and developer messages`, { param });
    })
    .filter((text) => text.length > 0)
    .join("\n\n");
}

/** Text (and, where the vendor allows it, image) blocks; empty text is dropped, the vendor refuses it. */
function contentBlocks(
  content: ChatMessage["content"],
  param: string,
  imagesAllowed: boolean,
): Array<TextBlockParam | ImageBlockParam> {
  if (content === null) return [];
  if (typeof content === "string") return content.length > 0 ? [{ type: "text", text: content }] : [];
  return content.flatMap((part, index): Array<TextBlockParam | ImageBlockParam> => {
    if (part.type === "text") return part.text.length > 0 ? [{ type: "text", text: part.text }] : [];
    if (!imagesAllowed) {
      throw invalidRequest(`${PROVIDER} accepts images only in user and tool messages`, {
        param: `${param}[${index}]`,
      });
    }
    return [imageBlock(part, `${param}[${index}].image_url.url`)];
  });
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(part: Extract<ChatContentPart, { type: "image_url" }>, param: string): ImageBlockParam {
  const url = part.image_url.url;
  if (!url.startsWith("data:")) return { type: "image", source: { type: "url", url } };
  const match = DATA_URL.exec(url);
  const mediaType = match?.[1]?.toLowerCase();
  if (match === undefined || match === null || !isBase64MediaType(mediaType)) {
    throw invalidRequest(
      `${PROVIDER} accepts data URLs only as base64 ${BASE64_MEDIA_TYPES.join(", ")} images`,
      { param },
    );
  }
  return { type: "image", source: { type: "base64", media_type: mediaType, data: match[2] ?? "" } };
}

function isBase64MediaType(value: string | undefined): value is Base64MediaType {
  return (BASE64_MEDIA_TYPES as readonly (string | undefined)[]).includes(value);
}

function toolUse(call: ChatToolCall, param: string): ToolUseBlockParam {
  return { type: "tool_use", id: call.id, name: call.function.name, input: toolInput(call, param) };
}

// The vendor wants `input` as an object. Empty arguments are a call without parameters.
function toolInput(call: ChatToolCall, param: string): Record<string, unknown> {
  const text = call.function.arguments.trim();
  if (text.length === 0) return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw invalidRequest(`Tool call ${call.id}: arguments are not valid JSON`, {
      param: `${param}.function.arguments`,
    });
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalidRequest(`Tool call ${call.id}: arguments must be a JSON object`, {
      param: `${param}.function.arguments`,
    });
  }
  return input as Record<string, unknown>;
}

function toolResult(message: ChatMessage, param: string): ToolResultBlockParam {
  if (message.tool_call_id === undefined || message.tool_call_id.length === 0) {
    throw invalidRequest("A tool message needs tool_call_id", { param: `${param}.tool_call_id` });
  }
  const base: ToolResultBlockParam = { type: "tool_result", tool_use_id: message.tool_call_id };
  if (typeof message.content === "string") {
    return message.content.length > 0 ? { ...base, content: message.content } : base;
  }
  const blocks = contentBlocks(message.content, `${param}.content`, true);
  return blocks.length > 0 ? { ...base, content: blocks } : base;
}

function toTool(tool: ChatTool): Tool {
  const { name, description, parameters, strict } = tool.function;
  return {
    name,
    ...(description === undefined ? {} : { description }),
    input_schema: { ...parameters, type: "object" },
    ...(strict === undefined ? {} : { strict }),
  };
}

export function toToolChoice(choice: ChatToolChoice): ToolChoice {
  switch (choice) {
    case "auto":
      return { type: "auto" };
    case "none":
      return { type: "none" };
    case "required":
      return { type: "any" };
    default:
      return { type: "tool", name: choice.function.name };
  }
}

function responseFormatInstruction(format: ChatRequest["response_format"]): string | undefined {
  if (format === undefined || format.type === "text") return undefined;
  const base = "Answer with one JSON object and nothing else: no prose and no Markdown code fences.";
  if (format.type === "json_object") return base;
  return `${base} The object must conform to the JSON Schema "${format.json_schema.name}":\n${JSON.stringify(
    format.json_schema.schema,
  )}`;
}

// ---- Answers ----

export function toFinishReason(reason: StopReason | null): string | null {
  switch (reason) {
    case null:
      return null;
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      // end_turn, stop_sequence, and pause_turn (which only server tools cause, and we send none).
      return "stop";
  }
}

/** The token counts as the vendor reports them; `null` and absent both mean "not reported". */
export interface VendorUsage {
  input_tokens: number | null;
  output_tokens: number;
  cache_read_input_tokens?: number | null | undefined;
  cache_creation_input_tokens?: number | null | undefined;
}

export function toChatUsage(usage: VendorUsage): ChatUsage {
  const cacheRead = usage.cache_read_input_tokens ?? undefined;
  const promptTokens =
    (usage.input_tokens ?? 0) + (cacheRead ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: usage.output_tokens,
    total_tokens: promptTokens + usage.output_tokens,
    ...(cacheRead === undefined ? {} : { prompt_tokens_details: { cached_tokens: cacheRead } }),
  };
}

export function fromMessage(message: Message, created: number): ChatCompletion {
  const texts: string[] = [];
  const toolCalls: ChatToolCall[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "tool_use") {
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const content = texts.length > 0 ? texts.join("") : toolCalls.length > 0 ? null : "";
  return {
    id: message.id,
    object: "chat.completion",
    created,
    model: message.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: toFinishReason(message.stop_reason),
      },
    ],
    usage: toChatUsage(message.usage),
  };
}

// ---- Streams ----

type ChunkDelta = ChatCompletionChunk["choices"][number]["delta"];

export interface ChunkTranslator {
  /** The chunks one vendor event turns into (often none). */
  accept(event: RawMessageStreamEvent): ChatCompletionChunk[];
  /** Throws unless the stream ended the way the vendor ends a complete one. */
  end(): void;
}

/**
 * Turns the vendor's raw stream events into chat chunks: a first chunk with the role, text
 * deltas as `content`, each tool_use as a tool-call delta (id, type, name) followed by its
 * argument fragments, a chunk with `finish_reason` on `message_delta`, and on `message_stop`
 * a last chunk with empty `choices` and the usage (the gateway shows it only when the caller
 * asked for `stream_options.include_usage`).
 */
export function createChunkTranslator(created: number): ChunkTranslator {
  let id = "";
  let model = "";
  let started = false;
  let stopped = false;
  let usage: VendorUsage | undefined;
  // Vendor content-block index → tool-call index and whether any argument fragment was sent.
  const tools = new Map<number, { index: number; argumentsSent: boolean }>();

  const chunk = (delta: ChunkDelta, finishReason: string | null = null): ChatCompletionChunk => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const argumentsChunk = (index: number, fragment: string) =>
    chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });

  const requireStarted = (event: RawMessageStreamEvent) => {
    if (!started) throw upstreamError(`${PROVIDER} sent ${event.type} before message_start`, "failed");
  };

  return {
    accept(event) {
      switch (event.type) {
        case "message_start":
          started = true;
          id = event.message.id;
          model = event.message.model;
          usage = { ...event.message.usage };
          return [chunk({ role: "assistant", content: "" })];
        case "content_block_start": {
          requireStarted(event);
          const block = event.content_block;
          if (block.type === "text") return block.text.length > 0 ? [chunk({ content: block.text })] : [];
          if (block.type !== "tool_use") return [];
          const index = tools.size;
          tools.set(event.index, { index, argumentsSent: false });
          return [
            chunk({
              tool_calls: [
                { index, id: block.id, type: "function", function: { name: block.name, arguments: "" } },
              ],
            }),
          ];
        }
        case "content_block_delta": {
          requireStarted(event);
          const delta = event.delta;
          if (delta.type === "text_delta")
            return delta.text.length > 0 ? [chunk({ content: delta.text })] : [];
          const tool = tools.get(event.index);
          if (delta.type !== "input_json_delta" || tool === undefined || delta.partial_json.length === 0)
            return [];
          tool.argumentsSent = true;
          return [argumentsChunk(tool.index, delta.partial_json)];
        }
        case "content_block_stop": {
          requireStarted(event);
          // A tool called without parameters streams no fragment; chat clients parse "{}", not "".
          const tool = tools.get(event.index);
          if (tool === undefined || tool.argumentsSent) return [];
          tool.argumentsSent = true;
          return [argumentsChunk(tool.index, "{}")];
        }
        case "message_delta": {
          requireStarted(event);
          const previous = usage ?? { input_tokens: null, output_tokens: 0 };
          usage = {
            input_tokens: event.usage.input_tokens ?? previous.input_tokens,
            output_tokens: event.usage.output_tokens ?? previous.output_tokens,
            cache_read_input_tokens: event.usage.cache_read_input_tokens ?? previous.cache_read_input_tokens,
            cache_creation_input_tokens:
              event.usage.cache_creation_input_tokens ?? previous.cache_creation_input_tokens,
          };
          return [chunk({}, toFinishReason(event.delta.stop_reason))];
        }
        case "message_stop": {
          requireStarted(event);
          stopped = true;
          if (usage === undefined || usage.input_tokens === null) return [];
          return [
            { id, object: "chat.completion.chunk", created, model, choices: [], usage: toChatUsage(usage) },
          ];
        }
      }
    },
    end() {
      if (!stopped) throw upstreamError(`${PROVIDER} ended the stream before message_stop`, "failed");
    },
  };
}
