import type { CompletionReply, FinishReason, ScriptedUsage } from "./reply.js";

/** What the prompt of a request says, as far as default answers need it. */
export interface PromptText {
  /** The text of the last user turn, echoed by the default answer. */
  readonly lastUser: string;
  /** Every text in the prompt, for the usage estimate. */
  readonly all: string;
}

/** A completion reply with every default applied, ready to render into any wire format. */
export interface ResolvedCompletion {
  readonly text: string | undefined;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly usage: ScriptedUsage | null;
  readonly finishReason: FinishReason;
}

/** Applies the defaults documented on {@link CompletionReply}. */
export function resolveCompletion(
  reply: CompletionReply,
  prompt: PromptText,
  newToolId: () => string,
): ResolvedCompletion {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? newToolId(),
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const text = reply.text ?? (toolCalls.length > 0 ? undefined : `Echo: ${prompt.lastUser}`);
  const generated = (text ?? "") + toolCalls.map((call) => call.name + call.arguments).join("");
  return {
    text,
    toolCalls,
    usage:
      reply.usage === undefined
        ? { inputTokens: Math.max(1, estimateTokens(prompt.all)), outputTokens: estimateTokens(generated) }
        : reply.usage,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
}

/** The usual rough estimate of four characters per token; only tests read these numbers. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Splits text into word-sized deltas (each word with its leading whitespace), as models stream. */
export function splitText(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Splits a string into fragments of at most `size` characters, like streamed tool arguments. */
export function chunkString(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}
