/**
 * Requests per minute of each organization (PLATFORM.md §15): every authenticated `/v1`
 * request is counted by the platform, which answers `429 rate_limit_exceeded` with
 * `Retry-After` (seconds to the next UTC minute) once the plan's rate is used up.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";

export function requestRateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await c.var.groundwork.billing.admitRequest(c.var.principal);
    await next();
  };
}
