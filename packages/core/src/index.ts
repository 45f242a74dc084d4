export {
  isPlan,
  isRole,
  PLANS,
  type Plan,
  type Principal,
  planAllows,
  ROLES,
  type Role,
  roleAllows,
} from "./access.js";
export { CONVERSATION_ITEM_TYPES, type ConversationItemType } from "./conversation-items.js";
export {
  billingRequired,
  conflict,
  type ErrorEnvelope,
  type ErrorType,
  forbidden,
  GroundworkError,
  type GroundworkErrorOptions,
  gone,
  internalError,
  invalidRequest,
  isGroundworkError,
  notAcceptable,
  notFound,
  notImplemented,
  payloadTooLarge,
  rateLimited,
  serviceUnavailable,
  toErrorEnvelope,
  unauthorized,
  upstreamError,
} from "./errors.js";
export { defaultIdGenerator, type IdGenerator, newId } from "./ids.js";
export {
  type JobContext,
  type JobHandler,
  JobWorker,
  type JobWorkerOptions,
  retryDelayMs,
} from "./job-worker.js";
export {
  appendPointer,
  compilePointer,
  escapePointerToken,
  getAtPointer,
  isPointerPrefix,
  isValidPointer,
  parsePointer,
  unescapePointerToken,
} from "./json-pointer.js";
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Page,
  type PageRequest,
  pageOffset,
  parsePageRequest,
  toPage,
} from "./pagination.js";
export type {
  Allowance,
  CallOptions,
  ChatCompletion,
  ChatCompletionChunk,
  ChatContentPart,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  ChatUsage,
  Clock,
  EmbeddingModel,
  EmbeddingRequest,
  EmbeddingResult,
  EnqueueOptions,
  FailOptions,
  FailOutcome,
  Job,
  JobQueue,
  JobStatus,
  UsageEvent,
  UsageSurface,
} from "./ports.js";
export { systemClock, UNLIMITED_ALLOWANCE } from "./ports.js";
export {
  compileTemplate,
  missingTemplateVariables,
  missingVariablesError,
  type ParsedTemplate,
  parseTemplate,
  templateValueText,
  templateVariables,
} from "./prompt-template.js";
export { estimateTokens } from "./tokens.js";
export { isZipSymlink, readZipDirectory, type ZipEntryInfo } from "./zip-directory.js";
