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
export {
  buildJudgeRequest,
  cutText,
  JUDGE_INSTRUCTIONS_MAX_CHARS,
  JUDGE_REASON_MAX_CHARS,
  JUDGE_RUBRIC,
  JUDGE_SYSTEM_PROMPT,
  type JudgeCall,
  type JudgeDecision,
  type JudgeInput,
  type JudgeOutcome,
  type JudgeVerdict,
  judgeInputOf,
  latestUserMessage,
  type ModelJudgeOptions,
  modelJudge,
  parseJudgeAnswer,
  type ToolJudge,
  UNPARSABLE_JUDGE_ANSWER,
} from "./judge.js";
export * from "./memory/index.js";
export * from "./plugins/index.js";
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
  type ToolOutput,
  type ToolResult,
} from "./run-engine.js";
export {
  type Citation,
  PAUSED_STATUSES,
  type PendingApproval,
  type PendingToolCall,
  type RunState,
  type RunStatus,
  type TodoItem,
  type ToolCallRecord,
  type ToolCallStatus,
} from "./run-state.js";
export * from "./skills/index.js";
export { type ResolvedTool, resolveTools } from "./tools.js";
