export { deriveChatUrl, PRODUCTION_CHAT_URL } from "./chat-url.js";
export {
  ConfigError,
  DEFAULT_BASE_URL,
  DEFAULT_HTTP_PORT,
  loadMcpConfig,
  type McpConfig,
} from "./config.js";
export { type RunningMcpHttp, startMcpHttp } from "./http-transport.js";
export {
  createMcpServer,
  type McpServerOptions,
  SERVER_NAME,
  SERVER_VERSION,
  toolDefinitions,
} from "./server.js";
export { TOOL_PREFIX, type ToolDefinition, type ToolGroup } from "./tool.js";
export { type DocSection, listDocSections } from "./tools/api-docs.js";
