import { estimateTokens, resolveCompletion } from "./completion.js";
import { deterministicEmbedding, encodeFloat32Base64 } from "./deterministic-embedding.js";
import { completionJsonPlan, ssePlan } from "./http-util.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import {
  chatPrompt,
  renderChatChunks,
  renderChatCompletion,
  renderResponse,
  renderResponseEvents,
  responsesPrompt,
} from "./openai-wire.js";
import type { RecordedRequest } from "./recorded-request.js";
import {
  bearerToken,
  type Route,
  startScriptedUpstream,
  type Upstream,
  type UpstreamOptions,
  type Vendor,
  type VendorError,
} from "./scripted-upstream.js";

/** Options of {@link startOpenAIUpstream}. */
export interface OpenAIUpstreamOptions extends UpstreamOptions {
  /** The path every route sits under, e.g. `/openai/v1` for a compatible server; default `/v1`. */
  readonly basePath?: string;
  /**
   * The widest vector `POST /embeddings` serves: a larger `dimensions` is refused with the
   * vendor's 400 (`integer_above_max_value`), as real models refuse widths they cannot make.
   * Unset: any positive width is served.
   */
  readonly maxEmbeddingDimensions?: number;
}

/**
 * Starts an OpenAI-compatible upstream on 127.0.0.1 (ephemeral port). `url` is the SDK's
 * `baseURL` (`http://127.0.0.1:<port>/v1`). Routes: `POST /chat/completions` (JSON or SSE),
 * `POST /responses` (JSON or typed SSE events), `POST /embeddings` (deterministic vectors, see
 * {@link deterministicEmbedding}; `float` or `base64`), `GET /models`, `POST
 * /audio/transcriptions` (multipart; `{text}`, or plain text with `response_format: "text"`).
 * Errors use `{error:{message,type,param,code}}` and every answer carries `x-request-id`.
 */
export function startOpenAIUpstream(options: OpenAIUpstreamOptions = {}): Promise<Upstream> {
  const basePath = (options.basePath ?? "/v1").replace(/\/+$/, "");
  const routes =
    options.maxEmbeddingDimensions === undefined
      ? openAIVendor.routes
      : openAIVendor.routes.map((route) =>
          route === embeddings ? embeddingsRoute(options.maxEmbeddingDimensions) : route,
        );
  return startScriptedUpstream({ ...openAIVendor, basePath, clientPath: basePath, routes }, options);
}

const DEFAULT_DIMENSIONS = 1536;

function bodyOf(request: RecordedRequest): JsonObject {
  return isJsonObject(request.body) ? request.body : {};
}

function invalid(message: string, param: string | null = null): VendorError {
  return { status: 400, message, type: "invalid_request_error", param };
}

// The checks OpenAI makes before any model runs, so a gateway that drops a field fails loudly.
function requireJson(request: RecordedRequest, required: readonly string[]): VendorError | undefined {
  if (!isJsonObject(request.body)) return invalid("We could not parse the JSON body of your request.");
  const missing = required.find((field) => bodyOf(request)[field] === undefined);
  if (missing !== undefined) return invalid(`Missing required parameter: '${missing}'.`, missing);
  if (typeof bodyOf(request).model !== "string") return invalid("'model' must be a string.", "model");
  return undefined;
}

function created(): number {
  return Math.floor(Date.now() / 1000);
}

function modelOf(request: RecordedRequest): string {
  const model = bodyOf(request).model;
  return typeof model === "string" ? model : "";
}

const chatCompletions: Route = {
  method: "POST",
  path: "/chat/completions",
  validate(request) {
    const refusal = requireJson(request, ["model", "messages"]);
    if (refusal !== undefined) return refusal;
    const messages = bodyOf(request).messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      return invalid("'messages' must be a non-empty array.", "messages");
    }
    return undefined;
  },
  complete(request, reply, context) {
    const body = bodyOf(request);
    const completion = resolveCompletion(reply, chatPrompt(body), () => context.newId("call_"));
    const meta = { id: context.newId("chatcmpl-"), model: modelOf(request), created: created() };
    if (body.stream !== true) return completionJsonPlan(renderChatCompletion(completion, meta), reply);
    const includeUsage = isJsonObject(body.stream_options) && body.stream_options.include_usage === true;
    return ssePlan(renderChatChunks(completion, meta, includeUsage), reply);
  },
};

const responses: Route = {
  method: "POST",
  path: "/responses",
  validate: (request) => requireJson(request, ["model"]),
  complete(request, reply, context) {
    const body = bodyOf(request);
    const completion = resolveCompletion(reply, responsesPrompt(body), () => context.newId("call_"));
    const ids = {
      id: context.newId("resp_"),
      messageId: context.newId("msg_"),
      model: modelOf(request),
      created: created(),
    };
    if (body.stream !== true) return completionJsonPlan(renderResponse(completion, ids, body), reply);
    return ssePlan(renderResponseEvents(completion, ids, body), reply);
  },
};

function embeddingInputs(body: JsonObject): JsonValue[] {
  const input = body.input;
  // A flat array of numbers is one tokenised input, not many.
  if (Array.isArray(input) && !input.every((item) => typeof item === "number")) return input;
  return input === undefined ? [] : [input];
}

function embeddingsRoute(maxDimensions?: number): Route {
  return {
    method: "POST",
    path: "/embeddings",
    validate(request) {
      const refusal = requireJson(request, ["model", "input"]);
      if (refusal !== undefined) return refusal;
      const body = bodyOf(request);
      if (
        embeddingInputs(body).some((input) => input === "" || (Array.isArray(input) && input.length === 0))
      ) {
        return invalid("'input' cannot contain an empty string or array.", "input");
      }
      if (
        body.encoding_format !== undefined &&
        body.encoding_format !== "float" &&
        body.encoding_format !== "base64"
      ) {
        return invalid("'encoding_format' must be 'float' or 'base64'.", "encoding_format");
      }
      const dimensions = body.dimensions;
      if (dimensions !== undefined && !(Number.isInteger(dimensions) && Number(dimensions) > 0)) {
        return invalid("'dimensions' must be a positive integer.", "dimensions");
      }
      if (maxDimensions !== undefined && Number(dimensions) > maxDimensions) {
        return {
          ...invalid(
            `Invalid 'dimensions': integer above maximum value. Expected a value <= ${maxDimensions}, but got ${dimensions} instead.`,
            "dimensions",
          ),
          code: "integer_above_max_value",
        };
      }
      return undefined;
    },
    // A completion reply has no say over vectors: only its timing applies here.
    complete(request, reply) {
      const body = bodyOf(request);
      const dimensions = typeof body.dimensions === "number" ? body.dimensions : DEFAULT_DIMENSIONS;
      const texts = embeddingInputs(body).map((input) =>
        typeof input === "string" ? input : JSON.stringify(input),
      );
      const data = texts.map((text, index) => {
        const vector = deterministicEmbedding(text, dimensions);
        return {
          object: "embedding",
          index,
          embedding: body.encoding_format === "base64" ? encodeFloat32Base64(vector) : vector,
        };
      });
      const tokens = texts.reduce((sum, text) => sum + Math.max(1, estimateTokens(text)), 0);
      return completionJsonPlan(
        {
          object: "list",
          data,
          model: modelOf(request),
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        },
        reply,
      );
    },
  };
}

const embeddings = embeddingsRoute();

const models: Route = {
  method: "GET",
  path: "/models",
  complete: (_request, reply, context) =>
    completionJsonPlan(
      {
        object: "list",
        data: context.models.map((id) => ({
          id,
          object: "model",
          created: 1_700_000_000,
          owned_by: "testkit",
        })),
      },
      reply,
    ),
};

const transcriptions: Route = {
  method: "POST",
  path: "/audio/transcriptions",
  validate(request) {
    const form = request.raw.form;
    if (form === undefined) return invalid("Expected a multipart/form-data body.");
    if (!form.files.some((file) => file.field === "file"))
      return invalid("Missing required parameter: 'file'.", "file");
    if (form.fields.model === undefined) return invalid("Missing required parameter: 'model'.", "model");
    return undefined;
  },
  complete(request, reply) {
    const form = request.raw.form;
    const file = form?.files.find((part) => part.field === "file");
    const text = reply.text ?? `Transcript of ${file?.filename ?? "audio"} (${file?.size ?? 0} bytes)`;
    if (form?.fields.response_format === "text") {
      return {
        kind: "body",
        status: 200,
        headers: { "content-type": "text/plain; charset=utf-8" },
        body: text,
      };
    }
    return completionJsonPlan({ text }, reply);
  },
};

const ERROR_TYPES: Readonly<Record<number, string>> = {
  403: "permission_error",
  429: "requests",
};

const ERROR_CODES: Readonly<Record<number, string>> = {
  401: "invalid_api_key",
  429: "rate_limit_exceeded",
};

const openAIVendor: Vendor = {
  basePath: "/v1",
  clientPath: "/v1",
  routes: [chatCompletions, responses, embeddings, models, transcriptions],
  defaultModels: ["gpt-4o-mini", "gpt-4o", "text-embedding-3-small", "text-embedding-3-large", "whisper-1"],
  requestIdHeader: "x-request-id",
  // `api-key` is how the cloud-hosted variant (AzureOpenAI) sends it.
  presentedKey: (request) => request.headers["api-key"] ?? bearerToken(request),
  errorBody: (error) => ({
    error: {
      message: error.message,
      type:
        error.type ??
        ERROR_TYPES[error.status] ??
        (error.status >= 500 ? "server_error" : "invalid_request_error"),
      param: error.param ?? null,
      code: error.code === undefined ? (ERROR_CODES[error.status] ?? null) : error.code,
    },
  }),
};
