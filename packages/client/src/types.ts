/** Request and response shapes of the /v1 API as the client sends and reads them. */

export type JsonObject = Record<string, unknown>;

export interface PageQuery {
  page?: number;
  size?: number;
}

/** The page envelope of list endpoints (docs/decisions.md F10). */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export interface ListOf<T> {
  object: "list";
  data: T[];
}

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content:
    | string
    | Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>
    | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
}

export interface ChatCompletionBody {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  top_p?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  stop?: string[];
  response_format?: JsonObject;
  tools?: JsonObject[];
  tool_choice?: string | JsonObject;
  parallel_tool_calls?: boolean;
  prompt_cache_key?: string;
  user?: string;
}

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  model: string;
  choices: Array<{
    index: number;
    message: { role: "assistant"; content: string | null; tool_calls?: ChatMessage["tool_calls"] };
    finish_reason: string | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface ResponsesBody {
  model: string;
  input: string | JsonObject[];
  instructions?: string;
  tools?: JsonObject[];
  temperature?: number;
  max_output_tokens?: number;
  previous_response_id?: string;
  [field: string]: unknown;
}

export interface EmbeddingsBody {
  model: string;
  input: string | string[];
  dimensions?: number;
  encoding_format?: "float" | "base64";
  user?: string;
}

export interface ModelEntry {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

export interface ProviderBody {
  name: string;
  provider: string;
  apiKey?: string;
  config: JsonObject;
}

export interface Provider {
  id: string;
  name: string;
  provider: string;
  prefix: string | null;
  config: JsonObject;
  hasApiKey: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderTestResult {
  success: boolean;
  message: string;
  models: string[];
}

export interface EmbeddingModelCatalogue {
  models: Array<{ id: string; dimensions: number }>;
  supportedDimensions: number[];
}

export interface ExtractionBody {
  schemaId: string;
  schemaVersionId?: string;
  inputText?: string;
  inputImages?: Array<{ data: string; mimeType: string }>;
  model: string;
}

export interface ConvertSourceBody {
  sources: Array<
    | { kind: "http"; url: string; headers?: Record<string, string> }
    | { kind: "base64"; content: string; filename?: string; mimeType?: string }
  >;
  options?: JsonObject;
}

export interface ConvertFileInput {
  files: Array<{ file: Blob; filename: string }>;
  pipeline?: "fast" | "ocr" | "vlm";
  options?: JsonObject;
}
