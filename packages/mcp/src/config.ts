/**
 * The tool server is configured only by the spec's environment variables
 * (spec document 3, "Tool server: Environment").
 */
import { deriveChatUrl } from "./chat-url.js";

export interface McpConfig {
  apiKey: string;
  /** The Groundwork server's origin, without `/v1`. */
  baseUrl: string;
  /** Origin of the chat app that connector pauses point to (AI_SERVICE_CHAT_URL, else derived from the base). */
  chatUrl: string;
  transport: "stdio" | "http";
  httpPort: number;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
export const DEFAULT_HTTP_PORT = 3100;

export class ConfigError extends Error {}

export function loadMcpConfig(env: NodeJS.ProcessEnv = process.env): McpConfig {
  const apiKey = env.AI_SERVICE_API_KEY?.trim();
  if (apiKey === undefined || apiKey === "") {
    throw new ConfigError(
      "AI_SERVICE_API_KEY is required: set it to a Groundwork API key (e.g. the bootstrap key in .groundwork/bootstrap-key)",
    );
  }
  const baseUrl = (env.AI_SERVICE_BASE_URL?.trim() || DEFAULT_BASE_URL)
    .replace(/\/+$/, "")
    .replace(/\/v1$/, "");
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`AI_SERVICE_BASE_URL "${baseUrl}" is not a URL`);
  }
  const transport = env.MCP_TRANSPORT?.trim() || "stdio";
  if (transport !== "stdio" && transport !== "http") {
    throw new ConfigError(`MCP_TRANSPORT must be stdio or http, not "${transport}"`);
  }
  const portText = env.MCP_HTTP_PORT?.trim() || String(DEFAULT_HTTP_PORT);
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`MCP_HTTP_PORT must be a port number, not "${portText}"`);
  }
  const chatUrl = env.AI_SERVICE_CHAT_URL?.trim().replace(/\/+$/, "") || deriveChatUrl(baseUrl);
  try {
    new URL(chatUrl);
  } catch {
    throw new ConfigError(`AI_SERVICE_CHAT_URL "${chatUrl}" is not a URL`);
  }
  return {
    apiKey,
    baseUrl,
    chatUrl,
    transport,
    httpPort: Number(portText),
  };
}
