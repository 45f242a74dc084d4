import { messagesPrompt, renderMessage, renderMessageEvents } from "./anthropic-wire.js";
import { resolveCompletion } from "./completion.js";
import { completionJsonPlan, ssePlan } from "./http-util.js";
import { isJsonObject, type JsonObject } from "./json.js";
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

/**
 * Starts an Anthropic-compatible upstream on 127.0.0.1 (ephemeral port). `url` is the SDK's
 * `baseURL` (`http://127.0.0.1:<port>`; the SDK adds `/v1`). Routes: `POST /v1/messages` (JSON
 * or SSE, `text` and `tool_use` blocks) and `GET /v1/models`. Like the vendor it refuses a
 * request without an `anthropic-version` header; errors use
 * `{type:"error",error:{type,message},request_id}` and every answer carries `request-id`.
 */
export function startAnthropicUpstream(options: UpstreamOptions = {}): Promise<Upstream> {
  return startScriptedUpstream(anthropicVendor, options);
}

function bodyOf(request: RecordedRequest): JsonObject {
  return isJsonObject(request.body) ? request.body : {};
}

function invalid(message: string): VendorError {
  return { status: 400, message, type: "invalid_request_error" };
}

const messages: Route = {
  method: "POST",
  path: "/messages",
  validate(request) {
    if (!isJsonObject(request.body)) return invalid("Request body is not valid JSON.");
    const body = bodyOf(request);
    if (typeof body.model !== "string") return invalid("model: Field required");
    if (typeof body.max_tokens !== "number") return invalid("max_tokens: Field required");
    if (!Array.isArray(body.messages)) return invalid("messages: Field required");
    if (body.messages.length === 0) return invalid("messages: at least one message is required");
    return undefined;
  },
  complete(request, reply, context) {
    const body = bodyOf(request);
    // The vendor always reports usage, so a script's `usage: null` falls back to the estimate.
    const { usage, ...rest } = reply;
    const completion = resolveCompletion(usage === null ? rest : reply, messagesPrompt(body), () =>
      context.newId("toolu_"),
    );
    const meta = {
      id: context.newId("msg_"),
      model: typeof body.model === "string" ? body.model : "",
      created: Math.floor(Date.now() / 1000),
    };
    if (body.stream === true) return ssePlan(renderMessageEvents(completion, meta), reply);
    return completionJsonPlan(renderMessage(completion, meta), reply);
  },
};

const models: Route = {
  method: "GET",
  path: "/models",
  complete: (_request, reply, context) =>
    completionJsonPlan(
      {
        data: context.models.map((id) => ({
          type: "model",
          id,
          display_name: id,
          created_at: "2025-01-01T00:00:00Z",
        })),
        has_more: false,
        first_id: context.models[0] ?? null,
        last_id: context.models.at(-1) ?? null,
      },
      reply,
    ),
};

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

const anthropicVendor: Vendor = {
  basePath: "/v1",
  clientPath: "",
  routes: [messages, models],
  defaultModels: ["claude-sonnet-4-5", "claude-haiku-4-5"],
  requestIdHeader: "request-id",
  presentedKey: (request) => request.headers["x-api-key"] ?? bearerToken(request),
  precheck: (request) =>
    request.headers["anthropic-version"] === undefined
      ? invalid("anthropic-version: header is required")
      : undefined,
  errorBody: (error, requestId) => ({
    type: "error",
    error: {
      type:
        error.type ??
        ERROR_TYPES[error.status] ??
        (error.status >= 500 ? "api_error" : "invalid_request_error"),
      message: error.message,
    },
    request_id: requestId,
  }),
};
