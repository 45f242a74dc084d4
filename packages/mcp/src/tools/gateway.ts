import type { ChatCompletionBody } from "@groundwork/client";
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";
import { defineTool } from "../tool.js";
import { runAgent } from "./agents.js";
import { defined, fileInput, toBlob } from "./common.js";

const message = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]).describe("author of the message"),
  content: z.string().describe("the message text"),
  tool_call_id: z.string().optional().describe("for role tool: the id of the call this answers"),
});

export const gatewayTools = [
  defineTool({
    name: "chat",
    group: "AI Gateway",
    title: "Chat completion",
    description:
      "Runs a chat completion (POST /v1/chat/completions). `model` is a built-in model name or `<provider_prefix>/<model>` for your own provider.",
    readOnly: false,
    input: {
      model: z
        .string()
        .describe(
          "built-in model name, or <prefix>/<model> (hosted-a, cloud-a, hosted-b, hosted-c, hosted-d, self-hosted)",
        ),
      messages: z.array(message).min(1).describe("the conversation so far"),
      temperature: z.number().min(0).max(2).optional().describe("sampling temperature, 0-2"),
      max_tokens: z.number().int().positive().optional().describe("maximum tokens in the answer"),
      response_format: z.record(z.string(), z.unknown()).optional().describe("e.g. {type: 'json_object'}"),
    },
    // The server validates the body (response_format included) and answers a clear error for a bad one.
    run: (client, { messages, ...rest }) =>
      client.chat.completions({
        ...defined(rest),
        messages: messages.map((m) => defined(m)),
      } as ChatCompletionBody),
  }),
  defineTool({
    name: "create_response",
    group: "AI Gateway",
    title: "Create a response",
    description:
      "Calls POST /v1/responses. With `provider/model` (or a built-in name) it is a direct model call and returns text and usage. With `agent/<name>[@label|@version][#model]` it runs the agent and returns the run envelope (status, responseId, conversationId, text, toolCalls, pendingApprovals, pendingToolCalls, next, model); answer pauses with svc_decide_agent_approvals.",
    readOnly: false,
    input: {
      model: z
        .string()
        .describe("`<prefix>/<model>`, a built-in model name, or `agent/<name>[@label|@version][#model]`"),
      input: z
        .union([z.string(), z.array(z.record(z.string(), z.unknown()))])
        .describe("the user input: text, or responses input items"),
      instructions: z.string().optional().describe("system instructions for this call"),
      previous_response_id: z.string().optional().describe("continue an agent run (agents only)"),
      conversationId: z.string().optional().describe("the conversation to continue (agents only)"),
      agentModel: z
        .string()
        .optional()
        .describe("another model from the agent's model list, for this request only (agents only)"),
      mode: z
        .enum(["plan", "ask", "auto"])
        .optional()
        .describe("conversation mode for this and later turns (agents only)"),
    },
    run: async (client, args, { chatUrl }) => {
      const isAgent = args.model.startsWith("agent/");
      if (!isAgent && (args.agentModel !== undefined || args.mode !== undefined)) {
        throw invalidRequest("agentModel and mode apply only to agent runs (model agent/<name>)", {
          param: args.mode !== undefined ? "mode" : "agentModel",
        });
      }
      const body = defined({
        model: args.model,
        input: args.input,
        instructions: args.instructions,
        previous_response_id: args.previous_response_id,
        conversationId: args.conversationId,
        agentModel: args.agentModel,
        mode: args.mode,
      });
      if (isAgent) return runAgent(client, body, chatUrl);
      // A plain model call returns only text and usage.
      const response = await client.responses.create(body);
      return {
        text: outputText(response),
        usage: response.usage ?? null,
        model: response.model ?? args.model,
      };
    },
  }),
  defineTool({
    name: "list_models",
    group: "AI Gateway",
    title: "List models",
    description:
      "Lists the models available to the organization: built-in models and those of configured providers.",
    readOnly: true,
    input: {},
    run: (client) => client.models.list(),
  }),
  defineTool({
    name: "transcribe_audio",
    group: "Audio Transcription",
    title: "Transcribe audio",
    description:
      "Transcribes an audio file (POST /v1/audio/transcriptions) with a hosted-a or cloud-a model.",
    readOnly: false,
    input: {
      ...fileInput,
      model: z.string().describe("hosted-a/<model>, cloud-a/<deployment> or a built-in transcription model"),
      language: z.string().optional().describe("ISO-639-1 language of the audio, e.g. en"),
      prompt: z.string().optional().describe("text to guide the transcription's style or vocabulary"),
      response_format: z
        .enum(["json", "text", "srt", "verbose_json", "vtt"])
        .optional()
        .describe("answer format"),
    },
    run: (client, args) =>
      client.audio.transcribe({
        file: toBlob(args),
        filename: args.filename,
        model: args.model,
        fields: defined({
          language: args.language,
          prompt: args.prompt,
          response_format: args.response_format,
        }) as Record<string, string>,
      }),
  }),
];

function outputText(response: Record<string, unknown>): string {
  const output = Array.isArray(response.output) ? response.output : [];
  const parts: string[] = [];
  for (const item of output as Array<{ type?: string; content?: Array<{ type?: string; text?: string }> }>) {
    if (item.type !== "message") continue;
    for (const part of item.content ?? [])
      if (part.type === "output_text" && part.text !== undefined) parts.push(part.text);
  }
  return parts.join("");
}
