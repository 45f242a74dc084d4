/**
 * Maps what a provider SDK throws to the gateway's errors: the provider refusing
 * the request (a 4xx: bad input, over-long input, bad dimensions, no vision) is
 * a 400 `upstream_error`; the provider failing (5xx, network, timeout) is a 502.
 * A provider rate limit stays a 429 so clients back off. Messages name the
 * provider's own message but never credentials.
 */
import { APIUserAbortError as AnthropicAbortError } from "@anthropic-ai/sdk";
import { type GroundworkError, isGroundworkError, rateLimited, upstreamError } from "@groundwork/core";
import { APIUserAbortError as OpenAIAbortError } from "openai";

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

export function toUpstreamError(error: unknown, provider: string): GroundworkError {
  if (isGroundworkError(error)) return error;
  if (isSdkApiError(error) && typeof error.status === "number") {
    const detail = `${provider} answered ${error.status}: ${error.message}`;
    if (error.status === 429) return rateLimited(detail, retryAfterSeconds(error.headers));
    if (error.status >= 400 && error.status < 500) return upstreamError(detail, "refused", { cause: error });
    return upstreamError(detail, "failed", { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return upstreamError(`${provider} could not be reached: ${message}`, "failed", { cause: error });
}

/** Rethrows anything from `fn` as a gateway error (aborts pass through untouched). */
export async function mapUpstream<T>(provider: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw toUpstreamError(error, provider);
  }
}
