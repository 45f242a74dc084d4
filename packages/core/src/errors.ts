/**
 * The one error type of Groundwork. Engines throw it, the server maps it to the
 * HTTP envelope `{error:{message,type,param,code}}` in exactly one place.
 */

/** The `type` field of the error envelope (the chat-completions wire format's vocabulary). */
export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "conflict_error"
  | "billing_error"
  | "rate_limit_error"
  | "upstream_error"
  | "api_error";

export interface GroundworkErrorOptions {
  status: number;
  type: ErrorType;
  code: string;
  param?: string | null;
  /** Seconds the client should wait before retrying (429, 503). */
  retryAfter?: number;
  /** Typed, non-secret details for logs and callers; never rendered in the envelope. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class GroundworkError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly retryAfter: number | undefined;
  readonly details: Record<string, unknown>;

  constructor(message: string, options: GroundworkErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GroundworkError";
    this.status = options.status;
    this.type = options.type;
    this.code = options.code;
    this.param = options.param ?? null;
    this.retryAfter = options.retryAfter;
    this.details = options.details ?? {};
  }
}

export function isGroundworkError(value: unknown): value is GroundworkError {
  return value instanceof GroundworkError;
}

export interface ErrorEnvelope {
  error: {
    message: string;
    type: ErrorType;
    param: string | null;
    code: string;
  };
}

export function toErrorEnvelope(error: GroundworkError): ErrorEnvelope {
  return {
    error: { message: error.message, type: error.type, param: error.param, code: error.code },
  };
}

interface FactoryOptions {
  param?: string | null;
  code?: string;
  details?: Record<string, unknown>;
  cause?: unknown;
}

function make(
  message: string,
  status: number,
  type: ErrorType,
  defaultCode: string,
  options: FactoryOptions = {},
  retryAfter?: number,
): GroundworkError {
  return new GroundworkError(message, {
    status,
    type,
    code: options.code ?? defaultCode,
    param: options.param ?? null,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    ...(options.details === undefined ? {} : { details: options.details }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

/** 400: the request is malformed or fails validation. */
export function invalidRequest(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 400, "invalid_request_error", "invalid_request", options);
}

/** 401 with an envelope: credentials were sent but are unknown or revoked. */
export function unauthorized(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 401, "authentication_error", "invalid_api_key", options);
}

/** 402: the organization's plan does not include the feature, or its usage is used up. */
export function billingRequired(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 402, "billing_error", "plan_required", options);
}

/** 403: the caller's role may not do this. The spec's embeddings table fixes type and code. */
export function forbidden(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 403, "invalid_request_error", "forbidden", options);
}

/** 404: no such resource in the caller's organization. */
export function notFound(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 404, "invalid_request_error", "not_found", options);
}

/** 406: the Accept header excludes the only representation we produce. */
export function notAcceptable(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 406, "invalid_request_error", "not_acceptable", options);
}

/** 409: the resource is in a state that forbids the operation. */
export function conflict(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 409, "invalid_request_error", "conflict", options);
}

/** 410: the resource existed and was deleted. */
export function gone(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 410, "invalid_request_error", "gone", options);
}

/** 413: a body or file exceeds a size limit. */
export function payloadTooLarge(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 413, "invalid_request_error", "payload_too_large", options);
}

/** 429 with `Retry-After`. */
export function rateLimited(message: string, retryAfter: number, options?: FactoryOptions): GroundworkError {
  return make(message, 429, "rate_limit_error", "rate_limit_exceeded", options, retryAfter);
}

/** 400 (`refused`) or 502 (`failed`): what a provider answered. */
export function upstreamError(
  message: string,
  kind: "refused" | "failed",
  options?: FactoryOptions,
): GroundworkError {
  return make(message, kind === "refused" ? 400 : 502, "upstream_error", "upstream_error", options);
}

/** 501: a feature of the spec that this build does not implement yet. */
export function notImplemented(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 501, "api_error", "not_implemented", options);
}

/** 503: a dependency the request needs is not configured or not available. */
export function serviceUnavailable(message: string, options?: FactoryOptions): GroundworkError {
  return make(message, 503, "api_error", "service_unavailable", options);
}

/** 500: a bug or an unexpected failure; the message must not leak internals. */
export function internalError(message = "Internal server error", options?: FactoryOptions): GroundworkError {
  return make(message, 500, "api_error", "internal_error", options);
}
