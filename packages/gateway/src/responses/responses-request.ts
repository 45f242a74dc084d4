/**
 * `POST /v1/responses` bodies for direct calls (`model: <prefix>/<model>` or a
 * built-in name): the responses protocol's common fields, validated like chat
 * bodies, and their translation into the gateway's chat request, so a direct
 * call runs through every provider kind's chat path.
 *
 * Decisions:
 * - Unknown fields are accepted and not forwarded (as on chat completions):
 *   `reasoning`, `include`, `truncation`, `text.verbosity`, `max_tool_calls`, ….
 * - What would change the meaning of the call is refused with a 400 naming the
 *   field: `previous_response_id`, `background: true` and `conversation` (the
 *   gateway stores no responses), tools other than function tools, `input_image`
 *   by `file_id`, and input items other than messages, `function_call` and
 *   `function_call_output` (`item_reference`, `reasoning`, … need stored state).
 * - `store` and `parallel_tool_calls` are accepted; nothing is stored, and the
 *   chat path forwards no `parallel_tool_calls`.
 * - `instructions` becomes a leading system message; `max_output_tokens` becomes
 *   `max_completion_tokens`; `text.format` becomes `response_format`.
 * - A function tool without `strict` is not strict (the chat default), unlike the
 *   vendor's responses API, where an omitted `strict` means true.
 */
import type { ChatContentPart, ChatMessage, ChatRequest, ChatTool, ChatToolChoice } from "@groundwork/core";
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";

const inputText = z.object({ type: z.literal("input_text"), text: z.string() });
const inputImage = z.object({
  type: z.literal("input_image"),
  image_url: z
    .string({ error: "input_image needs image_url (an https or base64 data: URL); file_id is not supported" })
    .min(1),
  detail: z.enum(["auto", "low", "high"]).nullable().optional(),
});
/** Earlier answers sent back as input carry their output parts. */
const outputText = z.object({ type: z.literal("output_text"), text: z.string() });
const refusal = z.object({ type: z.literal("refusal"), refusal: z.string() });
const contentPart = z.discriminatedUnion("type", [inputText, inputImage, outputText, refusal], {
  error: "content parts must be input_text, input_image, output_text or refusal parts",
});

const messageItem = z
  .object({
    type: z.literal("message"),
    role: z.enum(["user", "assistant", "system", "developer"]),
    content: z.union([z.string(), z.array(contentPart)]),
  })
  .superRefine((item, context) => {
    if (item.role === "user" || typeof item.content === "string") return;
    item.content.forEach((part, index) => {
      if (part.type === "input_image") {
        context.addIssue({
          code: "custom",
          path: ["content", index],
          message: `input_image parts are accepted only in user messages, not in ${item.role} messages`,
        });
      }
    });
  });

const functionCallItem = z.object({
  type: z.literal("function_call"),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});

const functionCallOutputItem = z.object({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(inputText)]),
});

const inputItem = z.preprocess(
  // A message may omit `type` (`{role, content}`, the "easy input message").
  (value) =>
    typeof value === "object" && value !== null && !Array.isArray(value) && !("type" in value)
      ? { ...value, type: "message" }
      : value,
  z.discriminatedUnion("type", [messageItem, functionCallItem, functionCallOutputItem], {
    error:
      "input items must be messages ({role, content}), function_call or function_call_output items; item_reference, reasoning and other items need stored state, which direct calls do not have",
  }),
);

const functionTool = z.object({
  type: z.literal("function", {
    error: 'only function tools ({type: "function", name, parameters}) are supported',
  }),
  name: z.string().min(1).max(64),
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

const toolChoice = z.union([
  z.enum(["auto", "none", "required"]),
  z.object({ type: z.literal("function"), name: z.string().min(1) }),
]);

const textFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    name: z.string().min(1).max(64),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullable().optional(),
    description: z.string().optional(),
  }),
]);

const metadata = z
  .record(z.string().max(64), z.string().max(512))
  .refine((value) => Object.keys(value).length <= 16, "metadata takes at most 16 keys");

export const responsesRequestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(inputItem)]),
  instructions: z.string().nullable().optional(),
  tools: z.array(functionTool).optional(),
  tool_choice: toolChoice.optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  max_output_tokens: z.number().int().positive().nullable().optional(),
  text: z.object({ format: textFormat.optional() }).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  metadata: metadata.nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  store: z.boolean().nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  prompt_cache_key: z.string().max(256, "prompt_cache_key must be at most 256 characters").optional(),
  user: z.string().optional(),
  background: z.boolean().nullable().optional(),
  conversation: z.unknown().optional(),
});

export type ResponsesRequestBody = z.output<typeof responsesRequestSchema>;
export type ResponsesInputItem = z.output<typeof inputItem>;
export type ResponsesContentPart = z.output<typeof contentPart>;
export type ResponsesFunctionTool = z.output<typeof functionTool>;
export type ResponsesToolChoice = z.output<typeof toolChoice>;
export type ResponsesTextFormat = z.output<typeof textFormat>;

/**
 * Validates a body, answering a 400 whose `param` names the offending field
 * (`input[1].content[0].image_url`), also inside the protocol's unions.
 */
export function parseResponsesBody(value: unknown): ResponsesRequestBody {
  const result = responsesRequestSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = mostSpecificIssue(result.error.issues);
  const param = issue === undefined ? null : formatParam(issue.path);
  const message = issue?.message ?? "Invalid request body";
  throw invalidRequest(param === null ? message : `${param}: ${message}`, { param });
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: Issue[][];
}

/** Inside a union, the branch that got furthest into the value tells the caller what is wrong. */
function mostSpecificIssue(issues: readonly Issue[], prefix: PropertyKey[] = []): Issue | undefined {
  const first = issues[0];
  if (first === undefined) return undefined;
  const path = [...prefix, ...first.path];
  if (first.code !== "invalid_union" || first.errors === undefined || first.errors.length === 0) {
    return { ...first, path };
  }
  let best: Issue | undefined;
  for (const branch of first.errors) {
    const candidate = mostSpecificIssue(branch, path);
    if (candidate !== undefined && (best === undefined || candidate.path.length > best.path.length)) {
      best = candidate;
    }
  }
  return best !== undefined && best.path.length > path.length ? best : { ...first, path };
}

function formatParam(path: readonly PropertyKey[]): string | null {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? null : out;
}

/** `agent/<name>…` runs a stored agent instead of a direct call. */
export function isAgentModel(model: string): boolean {
  return model.trim().startsWith("agent/");
}

/** The chat request of a direct call; `model` is the provider's own id. */
export function responsesToChatRequest(body: ResponsesRequestBody, model: string): ChatRequest {
  if (body.previous_response_id != null) {
    throw invalidRequest(
      "previous_response_id is not supported on direct calls: the gateway stores no responses. Send the whole conversation in input (earlier output items and function_call_output items)",
      { param: "previous_response_id", code: "unsupported_parameter" },
    );
  }
  if (body.background === true) {
    throw invalidRequest("background responses are not supported: the gateway stores no responses", {
      param: "background",
      code: "unsupported_parameter",
    });
  }
  if (body.conversation != null) {
    throw invalidRequest(
      "conversation is not supported on direct calls: the gateway stores no conversations; send the whole conversation in input",
      { param: "conversation", code: "unsupported_parameter" },
    );
  }
  const items: ResponsesInputItem[] =
    typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : body.input;
  if (items.length === 0) {
    throw invalidRequest("input must contain at least one item", { param: "input" });
  }
  const messages: ChatMessage[] = [];
  if (body.instructions != null && body.instructions !== "") {
    messages.push({ role: "system", content: body.instructions });
  }
  messages.push(...inputItemsToMessages(items));

  const request: ChatRequest = { model, messages };
  if (body.temperature != null) request.temperature = body.temperature;
  if (body.top_p != null) request.top_p = body.top_p;
  if (body.max_output_tokens != null) request.max_completion_tokens = body.max_output_tokens;
  const format = body.text?.format;
  if (format !== undefined) request.response_format = toResponseFormat(format);
  if (body.tools !== undefined && body.tools.length > 0) request.tools = body.tools.map(toChatTool);
  if (body.tool_choice !== undefined) request.tool_choice = toChatToolChoice(body.tool_choice);
  if (body.prompt_cache_key !== undefined) request.prompt_cache_key = body.prompt_cache_key;
  return request;
}

/**
 * Input items as chat messages: consecutive `function_call` items join the
 * assistant message before them (the chat format carries an answer's text and
 * its tool calls in one message); `function_call_output` items become tool messages.
 */
export function inputItemsToMessages(items: readonly ResponsesInputItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const item of items) {
    switch (item.type) {
      case "message":
        messages.push({ role: item.role, content: toChatContent(item.role, item.content) });
        break;
      case "function_call": {
        const call = {
          id: item.call_id,
          type: "function" as const,
          function: { name: item.name, arguments: item.arguments },
        };
        const last = messages.at(-1);
        if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: "assistant", content: null, tool_calls: [call] });
        break;
      }
      case "function_call_output":
        messages.push({
          role: "tool",
          tool_call_id: item.call_id,
          content: typeof item.output === "string" ? item.output : item.output.map((p) => p.text).join(""),
        });
        break;
    }
  }
  return messages;
}

function toChatContent(
  role: "user" | "assistant" | "system" | "developer",
  content: string | ResponsesContentPart[],
): string | ChatContentPart[] {
  if (typeof content === "string") return content;
  // Only user turns keep parts (they may carry images); the others are plain text everywhere.
  if (role !== "user") return content.map(partText).join("");
  return content.map((part): ChatContentPart => {
    if (part.type !== "input_image") return { type: "text", text: partText(part) };
    return {
      type: "image_url",
      image_url: { url: part.image_url, ...(part.detail == null ? {} : { detail: part.detail }) },
    };
  });
}

function partText(part: ResponsesContentPart): string {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return part.text;
    case "refusal":
      return part.refusal;
    case "input_image":
      return "";
  }
}

function toChatTool(tool: ResponsesFunctionTool): ChatTool {
  return {
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description == null ? {} : { description: tool.description }),
      ...(tool.parameters == null ? {} : { parameters: tool.parameters }),
      ...(tool.strict == null ? {} : { strict: tool.strict }),
    },
  };
}

function toChatToolChoice(choice: ResponsesToolChoice): ChatToolChoice {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

function toResponseFormat(format: ResponsesTextFormat): NonNullable<ChatRequest["response_format"]> {
  if (format.type !== "json_schema") return { type: format.type };
  const jsonSchema: {
    name: string;
    schema: Record<string, unknown>;
    strict?: boolean;
    description?: string;
  } = {
    name: format.name,
    schema: format.schema,
    ...(format.strict == null ? {} : { strict: format.strict }),
    ...(format.description === undefined ? {} : { description: format.description }),
  };
  return { type: "json_schema", json_schema: jsonSchema };
}
