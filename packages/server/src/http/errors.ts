/** The one mapping from errors to HTTP responses (Hono's onError). */
import {
  GroundworkError,
  internalError,
  isGroundworkError,
  payloadTooLarge,
  toErrorEnvelope,
} from "@groundwork/core";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env.js";

export function toGroundworkError(error: unknown): GroundworkError {
  if (isGroundworkError(error)) return error;
  if (error instanceof HTTPException && error.status === 413) {
    return payloadTooLarge("Request body is too large");
  }
  if (error instanceof HTTPException && error.status < 500) {
    return new GroundworkError(error.message || "Bad request", {
      status: error.status,
      type: "invalid_request_error",
      code: "invalid_request",
    });
  }
  return internalError();
}

export function errorResponse(c: Context<AppEnv>, error: GroundworkError): Response {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["Retry-After"] = String(error.retryAfter);
  return c.json(toErrorEnvelope(error), error.status as 400, headers);
}

export function onError(error: unknown, c: Context<AppEnv>): Response {
  const mapped = toGroundworkError(error);
  if (!isGroundworkError(error) && mapped.status >= 500) {
    // Unexpected: a bug or a broken dependency. The client sees a generic 500; the log has the detail.
    c.var.logger.error("request failed", {
      requestId: c.var.requestId,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  } else if (mapped.status >= 500) {
    c.var.logger.warn("request answered with a server-side error", {
      requestId: c.var.requestId,
      status: mapped.status,
      code: mapped.code,
      error: mapped.message,
    });
  }
  return errorResponse(c, mapped);
}
