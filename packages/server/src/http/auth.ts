/**
 * Bearer authentication in front of every /v1 route. No credentials at all is a
 * bare 401 (the security layer answers before the API does); credentials that
 * are malformed, unknown or revoked get a 401 with the error envelope.
 */
import { type Principal, unauthorized } from "@groundwork/core";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./env.js";
import { requestHeader } from "./node-request.js";

export function bearerAuth(): MiddlewareHandler<AppEnv> {
  // Not an async function: a store that answers at once (SQLite, or a key verified a moment ago)
  // costs the request no promise of its own here.
  return (c, next) => {
    const header = requestHeader(c, "authorization");
    if (header === undefined || header.trim() === "") {
      return Promise.resolve(c.body(null, 401, { "WWW-Authenticate": 'Bearer realm="groundwork"' }));
    }
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (match === null) {
      throw unauthorized("The Authorization header must be 'Bearer <API key>'");
    }
    const found = c.get("store").apiKeys.authenticate(match[1] ?? "");
    if (found instanceof Promise) return found.then((principal) => admit(c, principal, next));
    return admit(c, found, next);
  };
}

function admit(c: Context<AppEnv>, principal: Principal | null, next: Next): Promise<void> {
  if (principal === null) throw unauthorized("Invalid or revoked API key");
  c.set("principal", principal);
  return next();
}
