/**
 * A hand-written check of a chat-completions body that answers exactly what
 * `chatRequestSchema.parse` would for a body it accepts (the same fields, in the
 * schema's order, unknown keys dropped) and `null` for anything else, so the caller
 * runs zod only then and every error and its `param` stay zod's. Checking the common
 * body this way costs a fraction of zod's parse on the gateway's hot path; a property
 * test holds the two to the same output (chat-request-fast.property.test.ts).
 *
 * For JSON-parsed values (the server's bodies): a key present with the value
 * `undefined`, which JSON cannot express, is treated as absent.
 */
import type { ChatRequestBody } from "./chat-request.js";

type Body = Record<string, unknown>;
type Out = Record<string, unknown>;

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);
const DETAILS = new Set(["auto", "low", "high"]);
const TOOL_CHOICES = new Set(["auto", "none", "required"]);

/** Thrown inside the check to give up; never leaves this module. */
const GIVE_UP = Symbol("give up");

function fail(): never {
  throw GIVE_UP;
}

function object(value: unknown): Body {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail();
  return value as Body;
}

function string(value: unknown): string {
  if (typeof value !== "string") fail();
  return value;
}

function array(value: unknown): unknown[] {
  if (!Array.isArray(value)) fail();
  return value;
}

/** `z.number().min(min).max(max).nullable()` (JSON numbers are finite). */
function numberIn(value: unknown, min: number, max: number): number | null {
  if (value === null) return null;
  if (typeof value !== "number" || !(value >= min && value <= max)) fail();
  return value;
}

/** `z.number().int().positive().nullable()`. */
function positiveInt(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) fail();
  return value;
}

function booleanOrNull(value: unknown): boolean | null {
  if (value !== null && typeof value !== "boolean") fail();
  return value;
}

/** `z.record(z.string(), z.unknown())`: a copy (zod leaves a `__proto__` key out; zod decides those). */
function record(value: unknown): Body {
  const source = object(value);
  if (Object.hasOwn(source, "__proto__")) fail();
  return { ...source };
}

function contentPart(value: unknown): Out {
  const part = object(value);
  if (part.type === "text") return { type: "text", text: string(part.text) };
  if (part.type !== "image_url") fail();
  const image = object(part.image_url);
  const url = string(image.url);
  if (url.length === 0) fail();
  const out: Out = { url };
  if (image.detail !== undefined) {
    if (!DETAILS.has(image.detail as string)) fail();
    out.detail = image.detail;
  }
  return { type: "image_url", image_url: out };
}

function toolCall(value: unknown): Out {
  const call = object(value);
  const id = string(call.id);
  if (call.type !== "function") fail();
  const fn = object(call.function);
  return { id, type: "function", function: { name: string(fn.name), arguments: string(fn.arguments) } };
}

function message(value: unknown): Out {
  const m = object(value);
  if (!ROLES.has(m.role as string)) fail();
  const out: Out = { role: m.role };
  const content = m.content;
  if (content !== undefined) {
    if (content === null || typeof content === "string") out.content = content;
    else out.content = array(content).map(contentPart);
  }
  if (m.name !== undefined) out.name = string(m.name);
  if (m.tool_calls !== undefined) out.tool_calls = array(m.tool_calls).map(toolCall);
  if (m.tool_call_id !== undefined) out.tool_call_id = string(m.tool_call_id);
  return out;
}

function tool(value: unknown): Out {
  const t = object(value);
  if (t.type !== "function") fail();
  const fn = object(t.function);
  const name = string(fn.name);
  if (name.length < 1 || name.length > 64) fail();
  const out: Out = { name };
  if (fn.description !== undefined) out.description = string(fn.description);
  if (fn.parameters !== undefined) out.parameters = record(fn.parameters);
  if (fn.strict !== undefined) out.strict = booleanOrNull(fn.strict);
  return { type: "function", function: out };
}

function toolChoice(value: unknown): unknown {
  if (typeof value === "string") {
    if (!TOOL_CHOICES.has(value)) fail();
    return value;
  }
  const choice = object(value);
  if (choice.type !== "function") fail();
  const name = string(object(choice.function).name);
  if (name.length === 0) fail();
  return { type: "function", function: { name } };
}

function responseFormat(value: unknown): Out {
  const format = object(value);
  if (format.type === "text" || format.type === "json_object") return { type: format.type };
  if (format.type !== "json_schema") fail();
  const spec = object(format.json_schema);
  const name = string(spec.name);
  if (name.length === 0) fail();
  const out: Out = { name, schema: record(spec.schema) };
  if (spec.strict !== undefined) out.strict = booleanOrNull(spec.strict);
  if (spec.description !== undefined) out.description = string(spec.description);
  return { type: "json_schema", json_schema: out };
}

function stop(value: unknown): unknown {
  if (value === null || typeof value === "string") return value;
  const list = array(value);
  if (list.length > 4) fail();
  return list.map(string);
}

function streamOptions(value: unknown): unknown {
  if (value === null) return null;
  const options = object(value);
  const out: Out = {};
  if (options.include_usage !== undefined) {
    if (typeof options.include_usage !== "boolean") fail();
    out.include_usage = options.include_usage;
  }
  return out;
}

function check(value: unknown): Out {
  const body = object(value);
  const model = string(body.model);
  if (model.length === 0) fail();
  const messages = array(body.messages);
  if (messages.length === 0) fail();
  // Keys in the schema's order, as zod writes them.
  const out: Out = { model, messages: messages.map(message) };
  if (body.stream !== undefined) out.stream = booleanOrNull(body.stream);
  if (body.temperature !== undefined) out.temperature = numberIn(body.temperature, 0, 2);
  if (body.max_tokens !== undefined) out.max_tokens = positiveInt(body.max_tokens);
  if (body.max_completion_tokens !== undefined) {
    out.max_completion_tokens = positiveInt(body.max_completion_tokens);
  }
  if (body.top_p !== undefined) out.top_p = numberIn(body.top_p, 0, 1);
  if (body.frequency_penalty !== undefined) out.frequency_penalty = numberIn(body.frequency_penalty, -2, 2);
  if (body.presence_penalty !== undefined) out.presence_penalty = numberIn(body.presence_penalty, -2, 2);
  if (body.stop !== undefined) out.stop = stop(body.stop);
  if (body.response_format !== undefined) out.response_format = responseFormat(body.response_format);
  if (body.tools !== undefined) out.tools = array(body.tools).map(tool);
  if (body.tool_choice !== undefined) out.tool_choice = toolChoice(body.tool_choice);
  if (body.parallel_tool_calls !== undefined)
    out.parallel_tool_calls = booleanOrNull(body.parallel_tool_calls);
  if (body.prompt_cache_key !== undefined) {
    if (string(body.prompt_cache_key).length > 256) fail();
    out.prompt_cache_key = body.prompt_cache_key;
  }
  if (body.stream_options !== undefined) out.stream_options = streamOptions(body.stream_options);
  if (body.user !== undefined) out.user = string(body.user);
  return out;
}

/** The body as `chatRequestSchema` parses it when it is valid; `null` when zod must decide (and word the error). */
export function parseChatRequestFast(value: unknown): ChatRequestBody | null {
  try {
    return check(value) as ChatRequestBody;
  } catch (error) {
    if (error === GIVE_UP) return null;
    throw error;
  }
}
