import { isJsonObject, type JsonValue } from "./json.js";

/**
 * The text of a message `content` in any of the vendors' shapes: a string, or an array of parts
 * whose `text` fields are joined (`text`, `input_text`, `output_text` parts alike).
 */
export function textOf(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isJsonObject(part) && typeof part.text === "string" ? part.text : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

/** The messages of a chat-style body (`messages` of OpenAI chat and Anthropic), or none. */
export function messagesOf(body: JsonValue | undefined, field = "messages"): JsonValue[] {
  const messages = isJsonObject(body) ? body[field] : undefined;
  return Array.isArray(messages) ? messages : [];
}

/** The text of the last message with role `user`. */
export function lastUserText(messages: readonly JsonValue[]): string {
  const last = messages.findLast((message) => isJsonObject(message) && message.role === "user");
  return isJsonObject(last) ? textOf(last.content) : "";
}
