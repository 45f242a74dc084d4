/**
 * Adapter for every OpenAI-compatible endpoint (HOSTED_A, HOSTED_C, HOSTED_D,
 * SELF_HOSTED and the platform's built-in upstream), on the official `openai`
 * SDK. Kinds differ only in their quirks, passed as options.
 */
import type {
  CallOptions,
  ChatCompletion,
  ChatCompletionChunk,
  ChatRequest,
  EmbeddingRequest,
} from "@groundwork/core";
import OpenAI from "openai";
import type {
  EmbeddingsResponse,
  ProviderAdapter,
  TranscriptionRequest,
  TranscriptionResult,
} from "../adapter.js";
import { extended } from "../extended.js";
import {
  chatChunksFromResponseEvents,
  chatCompletionFromResponse,
  chatToResponsesBody,
  type ResponsesApiMode,
  usesResponsesApi,
  type VendorResponse,
  type VendorStreamEvent,
} from "../responses/chat-via-responses.js";
import { mapUpstream, requestOptions, type UpstreamAccount, upstreamFailure } from "../upstream-errors.js";
import { createChatTransport } from "./openai-chat-transport.js";

export interface OpenAICompatibleOptions {
  /** Name used in error messages, e.g. `hosted-a`. */
  provider: string;
  baseUrl: string;
  /** Null for servers that take no key (self-hosted). */
  apiKey: string | null;
  organizationId?: string;
  /** HOSTED_D takes only auto/none/required: a named function is not forwarded. */
  namedToolChoice?: boolean;
  /** Whether the endpoint serves embeddings and audio transcription (hosted-a and the built-in service). */
  embeddings?: boolean;
  /**
   * HOSTED_A only: when chat requests go through the vendor's responses protocol
   * (`always` with `useResponsesApi`, else `auto`; see `usesResponsesApi`). Default `never`.
   */
  responsesApi?: ResponsesApiMode;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The SDK insists on a key; servers that take none ignore this placeholder. */
const NO_KEY = "no-key";
const DEFAULT_TIMEOUT_MS = 120_000;

export function createOpenAICompatibleAdapter(options: OpenAICompatibleOptions): ProviderAdapter {
  const client = new OpenAI({
    apiKey: options.apiKey ?? NO_KEY,
    baseURL: options.baseUrl,
    organization: options.organizationId ?? null,
    // Retries are the gateway's decision (only where safe), never the SDK's.
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const provider = options.provider;
  // The key the provider may quote back when it refuses it; no key means no secret.
  const account: UpstreamAccount = { provider, secret: options.apiKey };
  // Chat completions, the hot path, skip the SDK's request layers (openai-chat-transport.ts).
  const chat = createChatTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey ?? NO_KEY,
    organizationId: options.organizationId,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // What mapUpstream and mapStream do, done by the transport itself (no wrapper per call or chunk).
    mapError: (error) => upstreamFailure(error, account),
  });
  const responsesApi = options.responsesApi ?? "never";

  function upstreamBody(request: ChatRequest): ChatRequest {
    if (options.namedToolChoice !== false || typeof request.tool_choice !== "object") return request;
    const { tool_choice: _named, ...rest } = request;
    return rest;
  }

  async function* responsesStream(
    request: ChatRequest,
    call: CallOptions,
  ): AsyncIterable<ChatCompletionChunk> {
    const body = chatToResponsesBody(upstreamBody(request));
    const events = await mapUpstream(account, () =>
      client.responses.create(
        { ...body, stream: true } as unknown as OpenAI.Responses.ResponseCreateParamsStreaming,
        requestOptions(call),
      ),
    );
    yield* mapStream(
      account,
      chatChunksFromResponseEvents(
        events as AsyncIterable<unknown> as AsyncIterable<VendorStreamEvent>,
        provider,
      ),
    );
  }

  const adapter: ProviderAdapter = {
    complete(request: ChatRequest, call: CallOptions = {}): Promise<ChatCompletion> {
      if (usesResponsesApi(responsesApi, request)) {
        return mapUpstream(account, async () => {
          const body = chatToResponsesBody(upstreamBody(request));
          const response = await client.responses.create(
            { ...body, stream: false } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming,
            requestOptions(call),
          );
          return chatCompletionFromResponse(response as unknown as VendorResponse, provider);
        });
      }
      return chat.complete(extended(upstreamBody(request), { stream: false }), call.cancel ?? call.signal);
    },

    stream(request: ChatRequest, call: CallOptions = {}): AsyncIterable<ChatCompletionChunk> {
      if (usesResponsesApi(responsesApi, request)) return responsesStream(request, call);
      // Usage is always asked for upstream, so calls are metered; the gateway drops
      // the usage chunk when the client did not ask for it.
      const body = extended(upstreamBody(request), { stream: true, stream_options: { include_usage: true } });
      return chat.stream(body, call.cancel ?? call.signal);
    },

    listModels(call: CallOptions = {}): Promise<string[]> {
      return mapUpstream(account, async () => {
        const ids: string[] = [];
        for await (const model of client.models.list(requestOptions(call))) ids.push(model.id);
        return ids;
      });
    },
  };

  if (options.embeddings === true) {
    adapter.embed = (request: EmbeddingRequest, call: CallOptions = {}): Promise<EmbeddingsResponse> =>
      mapUpstream(account, async () => {
        const response = await client.embeddings.create(
          {
            model: request.model,
            input: request.input,
            encoding_format: "float",
            ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }),
            ...(request.user === undefined ? {} : { user: request.user }),
          },
          requestOptions(call),
        );
        const vectors: number[][] = new Array(request.input.length);
        for (const item of response.data) vectors[item.index] = item.embedding;
        return { vectors, promptTokens: response.usage?.prompt_tokens ?? 0 };
      });
  }
  if (options.embeddings === true) {
    adapter.transcribe = (
      request: TranscriptionRequest,
      call: CallOptions = {},
    ): Promise<TranscriptionResult> =>
      mapUpstream(account, () => transcribeWith(client, "/audio/transcriptions", request, call));
  }
  return adapter;
}

/**
 * Posts the multipart form as the client sent it (only `model` replaced), and
 * answers the provider's body as it is: JSON, or text for text/srt/vtt formats.
 */
export async function transcribeWith(
  client: OpenAI,
  path: string,
  request: TranscriptionRequest,
  call: CallOptions,
): Promise<TranscriptionResult> {
  const form = new FormData();
  form.set("file", request.file, request.file.name);
  form.set("model", request.model);
  for (const [name, value] of Object.entries(request.fields)) form.set(name, value);
  const response = await client
    .post(path, { body: form, ...requestOptions(call), __binaryResponse: true })
    .asResponse();
  const contentType = response.headers.get("content-type") ?? "";
  return contentType.includes("application/json")
    ? { kind: "json", body: (await response.json()) as unknown }
    : { kind: "text", body: await response.text() };
}

/**
 * Errors after the first chunk still become gateway errors (the caller ends the stream with them).
 * One delegating generator rather than a mapped call per chunk; stopping it early stops `stream` too.
 */
async function* mapStream<T>(account: UpstreamAccount, stream: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* stream;
  } catch (error) {
    throw upstreamFailure(error, account);
  }
}
