/**
 * The tool server is configured only by the spec's environment variables
 * (spec document 3, "Tool server: Environment").
 */

export interface McpConfig {
  apiKey: string;
  /** The Groundwork server's origin, without `/v1`. */
  baseUrl: string;
  /** Origin of the chat app that connector pauses point to. */
  chatUrl: string;
  transport: "stdio" | "http";
  httpPort: number;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
export const DEFAULT_HTTP_PORT = 3100;

export class ConfigError extends Error {}

/**
 * Loopback bases are development instances whose chat app runs on the same
 * origin; any other base maps to the production chat origin next to it
 * (`api.` → `chat.`, otherwise the base origin itself).
 */
export function deriveChatUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return url.origin;
  if (url.hostname.startsWith("api.")) url.hostname = `chat.${url.hostname.slice(4)}`;
  return url.origin;
}

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
  return {
    apiKey,
    baseUrl,
    chatUrl: env.AI_SERVICE_CHAT_URL?.trim() || deriveChatUrl(baseUrl),
    transport,
    httpPort: Number(portText),
  };
}
