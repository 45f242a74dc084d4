export type {
  EmbeddingsResponse,
  ProviderAdapter,
  TranscriptionRequest,
  TranscriptionResult,
} from "./adapter.js";
export { createAnthropicAdapter } from "./adapters/anthropic-adapter.js";
export { createAzureAdapter } from "./adapters/azure-adapter.js";
export { createProviderAdapter, HOSTED_A_DEFAULT_BASE_URL } from "./adapters/create-provider-adapter.js";
export {
  createOpenAICompatibleAdapter,
  type OpenAICompatibleOptions,
} from "./adapters/openai-compatible-adapter.js";
export { type ChatRequestBody, chatRequestSchema, imageUrls, toChatRequest } from "./chat-request.js";
export { parseChatRequestFast } from "./chat-request-fast.js";
export { ConcurrencyLimiter } from "./concurrency-limiter.js";
export { type EmbeddingCatalogue, embeddingCatalogue } from "./embedding-catalogue.js";
export {
  type EmbeddingsBody,
  encodeEmbedding,
  MAX_EMBEDDING_BYTES,
  MAX_EMBEDDING_INPUTS,
  parseEmbeddingsBody,
} from "./embeddings-request.js";
export { createFastFetch } from "./fast-fetch.js";
export { BUILTIN_EMBEDDING_MODELS, type EmbeddingsResult, Gateway, type ModelEntry } from "./gateway.js";
export { type CallOutcome, completionMessages, GatewayTracing, providerName } from "./gateway-tracing.js";
export { HASH_EMBEDDING_DIMENSIONS, HASH_EMBEDDING_MODEL, hashEmbedding } from "./hash-embedding.js";
export { LocalConcurrencySlots } from "./local-concurrency-slots.js";
export { type ModelRoute, parseModelString } from "./model-string.js";
export { createPlanAllowance, type PlanAllowanceOptions } from "./plan-allowance.js";
export type {
  CallContext,
  GatewayOptions,
  ProviderAccount,
  ProviderDirectory,
  UsageMeter,
} from "./ports.js";
export {
  BUILTIN_EMBEDDING_PRICES,
  chatPriceOf,
  costEur,
  DEFAULT_CHAT_PRICES,
  DEFAULT_PLAN_ALLOWANCE_EUR,
  type TokenPrice,
} from "./pricing.js";
export {
  type ProviderConfig,
  parseProviderType,
  validateProviderApiKey,
  validateProviderConfig,
} from "./provider-config.js";
export {
  isProviderType,
  MODEL_PREFIXES,
  PROVIDER_KINDS,
  PROVIDER_TYPES,
  type ProviderKind,
  type ProviderType,
} from "./provider-kinds.js";
export {
  chatToResponsesBody,
  isReasoningModel,
  isResponsesOnlyModel,
  type ResponsesApiMode,
  usesResponsesApi,
} from "./responses/chat-via-responses.js";
export {
  RESPONSE_STREAM_EVENT_TYPES,
  type ResponseFunctionCallItem,
  type ResponseMessageItem,
  type ResponseObject,
  type ResponseOutputItem,
  type ResponseStreamEvent,
  type ResponseUsage,
  responseEventsFromChat,
  responseFromChat,
} from "./responses/responses-from-chat.js";
export {
  isAgentModel,
  parseResponsesBody,
  type ResponsesInputItem,
  type ResponsesRequestBody,
  responsesRequestSchema,
  responsesToChatRequest,
} from "./responses/responses-request.js";
export { DEFAULT_BYOK_CONCURRENCY } from "./target-resolver.js";
export { mapUpstream, toUpstreamError } from "./upstream-errors.js";
export { completionJson } from "./upstream-text.js";
