#!/usr/bin/env node
/**
 * `groundwork-mcp`: the MCP tool server, configured by AI_SERVICE_API_KEY,
 * AI_SERVICE_BASE_URL, AI_SERVICE_CHAT_URL, MCP_TRANSPORT and MCP_HTTP_PORT.
 * On stdio, stdout belongs to the protocol: messages for people go to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ConfigError, loadMcpConfig } from "./config.js";
import { startMcpHttp } from "./http-transport.js";
import { createMcpServer } from "./server.js";

async function main(): Promise<void> {
  const config = loadMcpConfig();
  const options = { baseUrl: config.baseUrl, apiKey: config.apiKey, chatUrl: config.chatUrl };
  if (config.transport === "http") {
    const running = await startMcpHttp({ ...options, port: config.httpPort });
    process.stderr.write(`groundwork-mcp: streamable HTTP on ${running.url}/mcp (API ${config.baseUrl})\n`);
    const stop = () => void running.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return;
  }
  const server = createMcpServer(options);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`groundwork-mcp: stdio (API ${config.baseUrl})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`groundwork-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof ConfigError ? 2 : 1;
});
