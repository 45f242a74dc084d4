/**
 * Maps what a provider SDK throws to the gateway's errors: the provider refusing
 * the request (a 4xx: bad input, over-long input, bad dimensions, no vision) is
 * a 400 `upstream_error`; the provider failing (5xx, network, timeout) is a 502.
 * A provider rate limit stays a 429 so clients back off. Messages name the
 * provider's own message but never credentials: this is the one place provider
 * text enters gateway errors, so the account's key is redacted here (see
 * `redact-secret.ts`), and everything downstream (responses, logs, usage,
 * task and run errors) only ever sees the redacted text.
 */
import { APIUserAbortError as AnthropicAbortError } from "@anthropic-ai/sdk";
import {
  type Cancellation,
  GroundworkError,
  isGroundworkError,
  rateLimited,
  upstreamError,
} from "@groundwork/core";
import { APIUserAbortError as OpenAIAbortError } from "openai";
import { redactSecret } from "./redact-secret.js";

/**
 * The account a call went out with: its provider's name for messages, and the key it sent,
 * which providers may quote back when they refuse it (null when it sends none).
 */
export interface UpstreamAccount {
  readonly provider: string;
  readonly secret: string | null;
}

interface SdkApiError {
  status?: number | undefined;
  message: string;
  headers?: unknown;
}

function isSdkApiError(error: unknown): error is SdkApiError & Error {
  return error instanceof Error && "status" in error;
}

function retryAfterSeconds(headers: unknown): number {
  const value =
    headers instanceof Headers
      ? headers.get("retry-after")
      : typeof headers === "object" && headers !== null
        ? (headers as Record<string, string | undefined>)["retry-after"]
        : undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1;
}

/** The caller's own cancellation: the SDKs name their abort errors plain "Error", so check the classes. */
export function isAbortError(error: unknown): boolean {
  return (
    error instanceof OpenAIAbortError ||
    error instanceof AnthropicAbortError ||
    (error instanceof Error && error.name === "AbortError")
  );
}

/** Connection failures that prove the request never reached the provider. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

function neverSent(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    if (NOT_SENT.has((current as Error & { code?: string }).code ?? "")) return true;
    current = current.cause;
  }
  return false;
}

/**
 * `details.retryable` marks failures where the provider certainly did not process
 * the request (refused connection, 503, a 429 asking for a short wait): only
 * those may be retried without risking a double call.
 */
export function toUpstreamError(error: unknown, account: UpstreamAccount): GroundworkError {
  const { provider, secret } = account;
  if (isGroundworkError(error)) return withoutSecret(error, secret);
  const cause = redactedCause(error, secret);
  if (isSdkApiError(error) && typeof error.status === "number") {
    const detail = redactSecret(`${provider} answered ${error.status}: ${error.message}`, secret);
    if (error.status === 429) {
      const wait = retryAfterSeconds(error.headers);
      return rateLimited(detail, wait, { cause, details: { retryable: wait <= 2, retryAfter: wait } });
    }
    if (error.status >= 400 && error.status < 500) return upstreamError(detail, "refused", { cause });
    return upstreamError(detail, "failed", { cause, details: { retryable: error.status === 503 } });
  }
  const message = error instanceof Error ? error.message : String(error);
  return upstreamError(redactSecret(`${provider} could not be reached: ${message}`, secret), "failed", {
    cause,
    details: { retryable: neverSent(error) },
  });
}

/** A gateway error raised on provider text (e.g. a failed response's reason), with the key taken out. */
function withoutSecret(error: GroundworkError, secret: string | null): GroundworkError {
  const message = redactSecret(error.message, secret);
  if (message === error.message && error.cause === undefined) return error;
  return new GroundworkError(message, {
    status: error.status,
    type: error.type,
    code: error.code,
    param: error.param,
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    details: error.details,
    cause: redactedCause(error.cause, secret),
  });
}

/**
 * The SDK's error chain as plain errors with the key taken out of messages and stacks: the SDK
 * error itself keeps the provider's text verbatim (message, stack, body), and anything that
 * prints a gateway error (`console.error`, a logger's inspect) prints its causes too.
 */
function redactedCause(error: unknown, secret: string | null, depth = 0): unknown {
  if (!(error instanceof Error) || depth >= 6) return undefined;
  const copy = new Error(redactSecret(error.message, secret), {
    cause: redactedCause(error.cause, secret, depth + 1),
  });
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = redactSecret(error.stack, secret);
  const { code, status } = error as Error & { code?: unknown; status?: unknown };
  Object.assign(copy, code === undefined ? {} : { code }, status === undefined ? {} : { status });
  return copy;
}

export const MAX_SAFE_RETRIES = 2;

/**
 * Runs a call again when its failure was safe to retry (see toUpstreamError),
 * at most twice, waiting 100 ms, then 300 ms (or the provider's short Retry-After).
 * Streams use it only to open the stream: never after the first byte.
 */
export async function withSafeRetry<T>(fn: () => Promise<T>, signal?: Cancellation): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const retryable = isGroundworkError(error) && error.details.retryable === true;
      if (!retryable || attempt >= MAX_SAFE_RETRIES || signal?.aborted === true) throw error;
      const hinted = Number(error.details.retryAfter ?? 0) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(hinted, attempt === 0 ? 100 : 300)));
    }
  }
}

/** What a failure of an upstream call becomes: a gateway error (an abort stays as it is). */
export function upstreamFailure(error: unknown, account: UpstreamAccount): unknown {
  return isAbortError(error) ? error : toUpstreamError(error, account);
}

/** Rethrows anything from `fn` as a gateway error (aborts pass through untouched). */
export async function mapUpstream<T>(account: UpstreamAccount, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw upstreamFailure(error, account);
  }
}

/**
 * Runs an SDK call, mapping its failures to gateway errors. A call the caller aborted rejects
 * with the caller's own abort reason (an `AbortError`) instead of the SDK's abort error.
 */
export async function callUpstream<T>(
  account: UpstreamAccount,
  signal: AbortSignal | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    signal?.throwIfAborted();
    throw toUpstreamError(error, account);
  }
}

/** The SDKs' per-request options for a call: its abort signal, when it has one. */
export function requestOptions(options: { signal?: AbortSignal } | undefined): { signal?: AbortSignal } {
  return options?.signal === undefined ? {} : { signal: options.signal };
}
