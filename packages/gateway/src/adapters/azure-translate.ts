/**
 * Pure mapping between the chat-completions wire format of `@groundwork/core` and CLOUD_A,
 * which speaks the same format with a data-plane `api-version` of its own. Little changes;
 * what does, and why:
 * - `developer` messages are sent as `system`: {@link AZURE_CHAT_API_VERSION} predates the
 *   developer role.
 * - `prompt_cache_key` is dropped: that api-version has no such field (the vendor caches
 *   long prompts on its own and reports `cached_tokens` either way).
 * - Answers are rebuilt field by field, so vendor extras (content-filter results,
 *   `system_fingerprint`, logprobs) stay out of the gateway's answers, and the stream's
 *   opening prompt-filter chunk (empty `choices`, no usage) is dropped: the gateway reads
 *   empty `choices` as the usage chunk.
 */
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatMessage,
  type ChatRequest,
  type ChatToolCall,
  type ChatUsage,
  invalidRequest,
} from "@groundwork/core";
import type {
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionChunk as VendorChunk,
  ChatCompletion as VendorCompletion,
} from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";

/** The data-plane api-version used for chat and embeddings (GA, with `stream_options` and `json_schema`). */
export const AZURE_CHAT_API_VERSION = "2024-10-21";

/** The request body except `stream` and `stream_options`. */
export function toAzureChatBody(request: ChatRequest, deployment: string): ChatCompletionCreateParamsBase {
  return {
    model: deployment,
    messages: request.messages.map(toAzureMessage),
    ...pick(request, [
      "temperature",
      "max_tokens",
      "max_completion_tokens",
      "top_p",
      "frequency_penalty",
      "presence_penalty",
      "stop",
      "response_format",
      "tools",
      "tool_choice",
    ]),
  };
}

function pick<K extends keyof ChatRequest>(
  request: ChatRequest,
  keys: readonly K[],
): Partial<Pick<ChatRequest, K>> {
  const picked: Partial<Pick<ChatRequest, K>> = {};
  for (const key of keys) if (request[key] !== undefined) picked[key] = request[key];
  return picked;
}

export function toAzureMessage(message: ChatMessage, index: number): ChatCompletionMessageParam {
  const param = `messages[${index}].content`;
  const name = message.name === undefined ? {} : { name: message.name };
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", content: textContent(message.content, param), ...name };
    case "user":
      return { role: "user", content: message.content ?? "", ...name };
    case "assistant":
      return {
        role: "assistant",
        content: message.content === null ? null : textContent(message.content, param),
        ...name,
        ...(message.tool_calls === undefined ? {} : { tool_calls: message.tool_calls }),
      };
    case "tool":
      return {
        role: "tool",
        tool_call_id: message.tool_call_id ?? "",
        content: textContent(message.content, param),
      };
  }
}

// Only user turns take images on this wire; elsewhere an image is the caller's mistake.
function textContent(
  content: ChatMessage["content"],
  param: string,
): string | Array<ChatCompletionContentPartText> {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part, index) => {
    if (part.type === "text") return part;
    throw invalidRequest("cloud-a accepts images only in user messages", { param: `${param}[${index}]` });
  });
}

export function fromAzureUsage(usage: CompletionUsage): ChatUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
  };
}

function functionCalls(calls: readonly ChatCompletionMessageToolCall[] | undefined): ChatToolCall[] {
  return (calls ?? []).flatMap((call) =>
    call.type === "function"
      ? [
          {
            id: call.id,
            type: "function",
            function: { name: call.function.name, arguments: call.function.arguments },
          },
        ]
      : [],
  );
}

export function fromAzureCompletion(completion: VendorCompletion): ChatCompletion {
  return {
    id: completion.id,
    object: "chat.completion",
    created: completion.created,
    model: completion.model,
    choices: completion.choices.map((choice) => {
      const toolCalls = functionCalls(choice.message.tool_calls);
      return {
        index: choice.index,
        message: {
          role: "assistant",
          content: choice.message.content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: choice.finish_reason,
      };
    }),
    ...(completion.usage === undefined ? {} : { usage: fromAzureUsage(completion.usage) }),
  };
}

type ChunkDelta = ChatCompletionChunk["choices"][number]["delta"];

function fromAzureDelta(delta: VendorChunk.Choice.Delta): ChunkDelta {
  return {
    ...(delta.role === "assistant" ? { role: "assistant" } : {}),
    ...(delta.content === undefined ? {} : { content: delta.content }),
    ...(delta.tool_calls === undefined
      ? {}
      : {
          tool_calls: delta.tool_calls.map((call) => ({
            index: call.index,
            ...(call.id === undefined ? {} : { id: call.id }),
            ...(call.type === undefined ? {} : { type: call.type }),
            ...(call.function === undefined
              ? {}
              : {
                  function: {
                    ...(call.function.name === undefined ? {} : { name: call.function.name }),
                    ...(call.function.arguments === undefined ? {} : { arguments: call.function.arguments }),
                  },
                }),
          })),
        }),
  };
}

/** One vendor chunk as a gateway chunk; `undefined` for chunks that carry neither choices nor usage. */
export function fromAzureChunk(chunk: VendorChunk): ChatCompletionChunk | undefined {
  const usage = chunk.usage ?? undefined;
  if (chunk.choices.length === 0 && usage === undefined) return undefined;
  return {
    id: chunk.id,
    object: "chat.completion.chunk",
    created: chunk.created,
    model: chunk.model,
    choices: chunk.choices.map((choice) => ({
      index: choice.index,
      delta: fromAzureDelta(choice.delta),
      finish_reason: choice.finish_reason,
    })),
    ...(usage === undefined ? {} : { usage: fromAzureUsage(usage) }),
  };
}
