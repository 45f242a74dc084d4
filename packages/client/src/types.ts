/** Request and response shapes of the /v1 API as the client sends and reads them. */
import type { ChatRequest } from "@groundwork/core";

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

/** A chat-completions request body (stream is set by the client method). */
export type ChatCompletionBody = ChatRequest & { parallel_tool_calls?: boolean; user?: string };

export type { ChatCompletion, ChatMessage } from "@groundwork/core";

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

/** `GET /v1/me`: the member is the API key. */
export interface Me {
  keyId: string;
  organizationId: string;
  role: string;
  plan: string;
}

/** A memory write (`POST /v1/me/memory/file`); the server checks which fields each command needs. */
export interface MemoryWriteCommand {
  command: "create" | "str_replace" | "insert" | "rename";
  path: string;
  content?: string;
  overwrite?: boolean;
  oldStr?: string;
  newStr?: string;
  insertLine?: number;
  insertText?: string;
  newPath?: string;
  ifMatch?: string;
}

export interface ErasedMemory {
  memberId: string;
  deletedFiles: number;
  freedBytes: number;
}

/** `POST /v1/connectors` (Admin). */
export interface ConnectorCreate {
  serverLabel: string;
  url: string;
  authKind?: "none" | "bearer" | "oauth";
  description?: string | null;
  agentIds?: string[] | null;
  enabled?: boolean;
}

/** `PATCH /v1/connectors/{connectorId}` (Admin). */
export type ConnectorUpdate = Partial<Omit<ConnectorCreate, "serverLabel">>;

/** `POST /v1/connector-inputs/{inputRequestId}/answer`. */
export interface ConnectorInputAnswer {
  action: "accept" | "decline" | "cancel";
  content?: JsonObject;
}
