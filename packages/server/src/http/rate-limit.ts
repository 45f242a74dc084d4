/**
 * Requests per minute of each organization (PLATFORM.md §15): every authenticated `/v1`
 * request is counted by the platform, which answers `429 rate_limit_exceeded` with
 * `Retry-After` (seconds to the next UTC minute) once the plan's rate is used up.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";

export function requestRateLimit(): MiddlewareHandler<AppEnv> {
  // Not an async function: a count kept in memory admits the request with no promise of its own.
  return (c, next) => {
    // c.get, not c.var: every c.var access builds an object of all the request's variables.
    const admitted = c.get("groundwork").billing.admitRequest(c.get("principal"));
    return admitted instanceof Promise ? admitted.then(next) : next();
  };
}
