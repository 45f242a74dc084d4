/**
 * What the gateway needs from one provider account. Each provider kind has an
 * adapter built on its vendor's official SDK; all speak the chat-completions wire
 * format of `@groundwork/core` towards the gateway, whatever they speak upstream.
 */
import type {
  CallOptions,
  ChatCompletion,
  ChatCompletionChunk,
  ChatRequest,
  EmbeddingRequest,
} from "@groundwork/core";

export interface EmbeddingsResponse {
  /** One float vector per input, in input order. */
  vectors: number[][];
  promptTokens: number;
}

/** An audio transcription request, forwarded as multipart to the provider. */
export interface TranscriptionRequest {
  /** The provider's own model id (for CLOUD_A the deployment name). */
  model: string;
  file: File;
  /** The other form fields as sent (language, prompt, response_format, temperature, …). */
  fields: Record<string, string>;
}

/** The provider's answer: JSON (`{text, …}`) or text for the text/srt/vtt formats. */
export type TranscriptionResult = { kind: "json"; body: unknown } | { kind: "text"; body: string };

export interface ProviderAdapter {
  /** Non-streaming chat completion; `request.model` is the provider's own model id. */
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatCompletion>;
  /** Streaming chat completion: chunks in the chat-completions shape; usage on the last chunk when known. */
  stream(request: ChatRequest, options?: CallOptions): AsyncIterable<ChatCompletionChunk>;
  /** Absent on kinds that serve no embeddings. */
  embed?(request: EmbeddingRequest, options?: CallOptions): Promise<EmbeddingsResponse>;
  /** Absent on kinds that do not transcribe audio (only hosted-a and cloud-a do). */
  transcribe?(request: TranscriptionRequest, options?: CallOptions): Promise<TranscriptionResult>;
  /** The model ids the account can use (for `/v1/providers/test` and `/v1/providers/models`). */
  listModels(options?: CallOptions): Promise<string[]>;
}
