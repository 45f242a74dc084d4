/**
 * Builds the MCP server: one `svc_` tool per endpoint of every group the
 * Groundwork server implements. Results are structured content (plus the same
 * JSON as text for clients that only read text); API errors come back as tool
 * errors carrying the API's message.
 */
import { GroundworkClient } from "@groundwork/client";
import { isGroundworkError } from "@groundwork/core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { deriveChatUrl } from "./chat-url.js";
import { TOOL_PREFIX, type ToolDefinition } from "./tool.js";
import { agentTools } from "./tools/agents.js";
import { analyticsTools } from "./tools/analytics.js";
import { annotationQueueTools } from "./tools/annotation-queues.js";
import { apiDocTools, DEFAULT_DOCS_DIR } from "./tools/api-docs.js";
import { billingTools } from "./tools/billing.js";
import { conversationTools } from "./tools/conversations.js";
import { datasetTools } from "./tools/datasets.js";
import { conversionTools, fileTools, knowledgeTools } from "./tools/documents.js";
import { evaluatorTools } from "./tools/evaluators.js";
import { experimentTools } from "./tools/experiments.js";
import { gatewayTools } from "./tools/gateway.js";
import { memoryTools } from "./tools/memory.js";
import { pluginTools } from "./tools/plugins.js";
import { promptTools } from "./tools/prompts.js";
import { providerTools } from "./tools/providers.js";
import { schemaTools } from "./tools/schemas.js";
import { scoreTools } from "./tools/scores.js";
import { skillTools } from "./tools/skills.js";
import { tracingTools } from "./tools/tracing.js";

export interface McpServerOptions {
  baseUrl: string;
  apiKey: string;
  /** Origin of the chat app that connector pauses point to; derived from `baseUrl` by default. */
  chatUrl?: string;
  /** Folder of the API documentation served by the API Documentation tools. */
  docsDir?: string;
  fetch?: typeof globalThis.fetch;
}

export const SERVER_NAME = "groundwork";
export const SERVER_VERSION = "0.1.0";

/** Every tool this build registers: the groups whose endpoints the server implements. */
export function toolDefinitions(docsDir = DEFAULT_DOCS_DIR): ToolDefinition[] {
  return [
    ...gatewayTools,
    ...agentTools,
    ...providerTools,
    ...schemaTools,
    ...conversionTools,
    ...knowledgeTools,
    ...fileTools,
    ...memoryTools,
    ...conversationTools,
    ...scoreTools,
    ...evaluatorTools,
    ...datasetTools,
    ...promptTools,
    ...skillTools,
    ...pluginTools,
    ...analyticsTools,
    ...billingTools,
    ...annotationQueueTools,
    ...experimentTools,
    ...tracingTools,
    ...apiDocTools(docsDir),
  ];
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const client = new GroundworkClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    userAgent: `groundwork-mcp/${SERVER_VERSION}`,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const context = { chatUrl: options.chatUrl ?? deriveChatUrl(options.baseUrl) };
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  for (const tool of toolDefinitions(options.docsDir)) {
    server.registerTool(
      `${TOOL_PREFIX}${tool.name}`,
      {
        title: tool.title,
        description: `${tool.description} [${tool.group}]`,
        inputSchema: tool.input,
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly,
          destructiveHint: tool.destructive === true,
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>) => toResult(() => tool.run(client, args as never, context)),
    );
  }
  return server;
}

async function toResult(run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    const value = await run();
    const structured = asObject(value);
    return {
      content: [{ type: "text", text: JSON.stringify(structured, null, 2) }],
      structuredContent: structured,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const detail = isGroundworkError(error)
      ? { error: { message, type: error.type, code: error.code, param: error.param, status: error.status } }
      : { error: { message } };
    return { isError: true, content: [{ type: "text", text: message }], structuredContent: detail };
  }
}

/** Structured content must be an object: lists and scalars are wrapped. */
function asObject(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return { ok: true };
  if (Array.isArray(value)) return { items: value };
  if (typeof value === "object") {
    const raw = value as { contentType?: unknown; text?: unknown; bytes?: unknown };
    if (raw.bytes instanceof Uint8Array) return { contentType: raw.contentType, text: raw.text };
    return value as Record<string, unknown>;
  }
  return { value };
}
