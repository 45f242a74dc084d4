export { type AgentRef, isAgentRef, parseAgentRef } from "./agent-ref.js";
export {
  type AgentDefinition,
  type DefinitionError,
  definitionErrors,
  type HitlPolicy,
  modelsOf,
  type NamedToolDefinition,
  type PolicyDefault,
  parseDefinition,
  type SkillBinding,
  type ToolAnnotations,
  type ToolClass,
  type ToolDefinition,
  type ToolEntry,
  toolName,
} from "./definition.js";
export {
  AGENT_NAME_PATTERN,
  agentDefinitionSchema,
  KNOWN_TOOL_TYPES,
  MODEL_STRING_PATTERN,
  NON_CONFIGURABLE_TOOL_TYPES,
} from "./definition-schema.js";
export * from "./memory/index.js";
export {
  type PlatformToolOptions,
  platformTools,
  searchTools,
  TOOL_SEARCH_NAME,
  TOOL_SEARCH_THRESHOLD,
  toolSearchTool,
} from "./platform-tools.js";
export {
  type ConversationMode,
  canRemember,
  evaluatePolicy,
  type GateDecision,
  type GateInput,
  type GateTool,
  MODES,
  type PolicyAction,
  VERDICTS,
  type Verdict,
} from "./policy.js";
export {
  type AgentOutputItem,
  type AgentResponseObject,
  citationAnnotations,
  type FileCitationAnnotation,
  type PauseWindowFields,
  type RenderClock,
  type RunEnvelope,
  toAgentResponse,
} from "./response.js";
export {
  type AgentContext,
  type ApprovalDecision,
  type ContinueInput,
  cancelRun,
  DEFAULT_MAX_STEPS,
  PAUSE_TIMEOUT_MS,
  RunEngine,
  type RunEngineOptions,
  type RunEvent,
  type RunStateStore,
  type StartInput,
  type ToolCallInput,
  type ToolExecutor,
  type ToolJudge,
  type ToolOutput,
  type ToolResult,
} from "./run-engine.js";
export {
  type AttachedImage,
  type Citation,
  type Deliverable,
  type HeldOutput,
  PAUSED_STATUSES,
  type PendingApproval,
  type PendingToolCall,
  type RunState,
  type RunStatus,
  type TodoItem,
  type ToolCallRecord,
  type ToolCallStatus,
} from "./run-state.js";
export { type ResolvedTool, resolveTools } from "./tools.js";
