/**
 * Bearer authentication in front of every /v1 route. No credentials at all is a
 * bare 401 (the security layer answers before the API does); credentials that
 * are malformed, unknown or revoked get a 401 with the error envelope.
 */
import { unauthorized } from "@groundwork/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";
import { requestHeader } from "./node-request.js";

export function bearerAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = requestHeader(c, "authorization");
    if (header === undefined || header.trim() === "") {
      return c.body(null, 401, { "WWW-Authenticate": 'Bearer realm="groundwork"' });
    }
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (match === null) {
      throw unauthorized("The Authorization header must be 'Bearer <API key>'");
    }
    const principal = await c.get("store").apiKeys.authenticate(match[1] ?? "");
    if (principal === null) throw unauthorized("Invalid or revoked API key");
    c.set("principal", principal);
    await next();
  };
}
