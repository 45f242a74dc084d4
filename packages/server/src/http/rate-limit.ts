/**
 * Requests per minute of each organization (PLATFORM.md §15): every authenticated `/v1`
 * request is counted by the platform, which answers `429 rate_limit_exceeded` with
 * `Retry-After` (seconds to the next UTC minute) once the plan's rate is used up.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";

export function requestRateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // c.get, not c.var: every c.var access builds an object of all the request's variables.
    await c.get("groundwork").billing.admitRequest(c.get("principal"));
    await next();
  };
}
