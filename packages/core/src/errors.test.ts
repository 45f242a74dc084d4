import { describe, expect, it } from "vitest";
import {
  billingRequired,
  forbidden,
  GroundworkError,
  invalidRequest,
  isGroundworkError,
  notFound,
  rateLimited,
  toErrorEnvelope,
  unauthorized,
  upstreamError,
} from "./errors.js";

describe("GroundworkError", () => {
  it("renders the envelope with message, type, param and code only", () => {
    const error = invalidRequest("temperature must be between 0 and 2", {
      param: "temperature",
      details: { secret: "never shown" },
    });
    expect(toErrorEnvelope(error)).toEqual({
      error: {
        message: "temperature must be between 0 and 2",
        type: "invalid_request_error",
        param: "temperature",
        code: "invalid_request",
      },
    });
  });

  it.each([
    [invalidRequest("x"), 400, "invalid_request_error", "invalid_request"],
    [unauthorized("x"), 401, "authentication_error", "invalid_api_key"],
    [billingRequired("x"), 402, "billing_error", "plan_required"],
    [forbidden("x"), 403, "invalid_request_error", "forbidden"],
    [notFound("x"), 404, "invalid_request_error", "not_found"],
    [rateLimited("x", 3), 429, "rate_limit_error", "rate_limit_exceeded"],
    [upstreamError("x", "refused"), 400, "upstream_error", "upstream_error"],
    [upstreamError("x", "failed"), 502, "upstream_error", "upstream_error"],
  ])("factory %# gives status %i, type %s, code %s", (error, status, type, code) => {
    expect(error).toBeInstanceOf(GroundworkError);
    expect(isGroundworkError(error)).toBe(true);
    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
    expect(error.code).toBe(code);
  });

  it("keeps Retry-After seconds on rate limits and lets callers override the code", () => {
    expect(rateLimited("slow down", 7).retryAfter).toBe(7);
    expect(invalidRequest("x", { code: "empty_input" }).code).toBe("empty_input");
  });

  it("is not confused with other errors", () => {
    expect(isGroundworkError(new Error("x"))).toBe(false);
  });
});
