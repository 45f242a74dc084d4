export { startAnthropicUpstream } from "./anthropic-upstream.js";
export { deterministicEmbedding, encodeFloat32Base64 } from "./deterministic-embedding.js";
export * from "./fixtures/archives.js";
export * from "./fixtures/images.js";
export * from "./fixtures/mail.js";
export * from "./fixtures/office.js";
export * from "./fixtures/pdf.js";
export * from "./fixtures/text-formats.js";
export { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
export { type OpenAIUpstreamOptions, startOpenAIUpstream } from "./openai-upstream.js";
export type {
  FormFileSummary,
  FormSummary,
  RawBody,
  RecordedRequest,
  RequestOutcome,
} from "./recorded-request.js";
export type {
  CompletionReply,
  ErrorReply,
  FinishReason,
  HangUpReply,
  JsonReply,
  Reply,
  ReplyHandler,
  ReplyTiming,
  ScriptedToolCall,
  ScriptedUsage,
  SseEvent,
  SseReply,
  StreamControl,
} from "./reply.js";
export type { Upstream, UpstreamOptions } from "./scripted-upstream.js";
export { type StartedServer, type StartServerOptions, startServer } from "./start-server.js";
export { makeTempDir } from "./temp-dir.js";
