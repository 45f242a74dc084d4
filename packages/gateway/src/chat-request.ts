/**
 * Validation of `POST /v1/chat/completions` bodies (spec document 1, "Chat
 * completions"): every field of the table with its range, and the image rules.
 * Unknown fields are accepted and not forwarded, as OpenAI-compatible clients
 * send vendor extensions freely.
 */
import type { ChatMessage, ChatRequest, ChatTool } from "@groundwork/core";
import { z } from "zod";

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const imagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).optional() }),
});
const contentPart = z.discriminatedUnion("type", [textPart, imagePart]);

const toolCall = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const message = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
  name: z.string().optional(),
  tool_calls: z.array(toolCall).optional(),
  tool_call_id: z.string().optional(),
});

const tool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1).max(64),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

const toolChoice = z.union([
  z.enum(["auto", "none", "required"]),
  z.object({ type: z.literal("function"), function: z.object({ name: z.string().min(1) }) }),
]);

const responseFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: z.string().min(1),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().nullable().optional(),
      description: z.string().optional(),
    }),
  }),
]);

const positiveInt = z.number().int().positive();

export const chatRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  max_tokens: positiveInt.nullable().optional(),
  max_completion_tokens: positiveInt.nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
  presence_penalty: z.number().min(-2).max(2).nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4)])
    .nullable()
    .optional(),
  response_format: responseFormat.optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  prompt_cache_key: z.string().max(256, "prompt_cache_key must be at most 256 characters").optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  user: z.string().optional(),
});

export type ChatRequestBody = z.output<typeof chatRequestSchema>;

/** The request the gateway forwards: validated fields only, nulls dropped, `stop` as an array. */
export function toChatRequest(body: ChatRequestBody, model: string): ChatRequest {
  const request: ChatRequest = { model, messages: body.messages.map(normalizeMessage) };
  if (body.temperature != null) request.temperature = body.temperature;
  if (body.max_tokens != null) request.max_tokens = body.max_tokens;
  if (body.max_completion_tokens != null) request.max_completion_tokens = body.max_completion_tokens;
  if (body.top_p != null) request.top_p = body.top_p;
  if (body.frequency_penalty != null) request.frequency_penalty = body.frequency_penalty;
  if (body.presence_penalty != null) request.presence_penalty = body.presence_penalty;
  if (body.stop != null) request.stop = typeof body.stop === "string" ? [body.stop] : body.stop;
  if (body.response_format !== undefined) {
    request.response_format = stripNulls<NonNullable<ChatRequest["response_format"]>>(body.response_format);
  }
  if (body.tools !== undefined) request.tools = body.tools.map((t) => stripNulls<ChatTool>(t));
  if (body.tool_choice !== undefined) request.tool_choice = body.tool_choice;
  if (body.prompt_cache_key !== undefined) request.prompt_cache_key = body.prompt_cache_key;
  return request;
}

function normalizeMessage(m: z.output<typeof message>): ChatMessage {
  // zod types optional fields as `T | undefined`; the wire types are exact, and the values are the same.
  const out: ChatMessage = { role: m.role, content: (m.content ?? null) as ChatMessage["content"] };
  if (m.name !== undefined) out.name = m.name;
  if (m.tool_calls !== undefined) out.tool_calls = m.tool_calls;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  return out;
}

/** Drops `null` optional values (clients send them freely) so the forwarded request matches the core types. */
function stripNulls<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (v === null ? undefined : v))) as T;
}

/** Image URLs of a request, for the image rules and the VISION surface. */
export function imageUrls(request: Pick<ChatRequest, "messages">): string[] {
  const urls: string[] = [];
  for (const m of request.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content) if (part.type === "image_url") urls.push(part.image_url.url);
  }
  return urls;
}
