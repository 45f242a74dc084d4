/**
 * Answers written straight to the Node response, for the gateway's hot routes (HP50).
 *
 * Through Hono an answer is a web Response: the request id set with `c.header` makes a web
 * Headers object, the route's content type is set on it, the request-id middleware sets the id
 * again on `c.res.headers`, and @hono/node-server checks it for a Content-Length and copies it
 * into a plain object for `writeHead` (a streamed answer also built a Response of its own to
 * carry the middleware's headers). Written here, the same header names, in the same order and
 * letter case, go to `writeHead` as one plain object, and the handler returns
 * `RESPONSE_ALREADY_SENT`. Without Node objects (`app.request()` in tests, other runtimes) the
 * answer goes through Hono as before.
 */
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** Whether the handler wrote its answer itself (the request-id middleware then sets nothing). */
export function answeredDirectly(response: Response): boolean {
  return response === RESPONSE_ALREADY_SENT;
}

/**
 * A 200 JSON answer of `text` (already serialised). The headers are those Hono's path wrote:
 * `content-type`, then the request id (a web Headers object iterates by name), then Node's
 * `Content-Length`. The access log reads status 200 from `RESPONSE_ALREADY_SENT`, which is why
 * only a 200 is written here.
 */
export function answerJson(c: Context<AppEnv>, text: string): Response {
  const outgoing = c.env?.outgoing;
  if (outgoing === undefined) return c.body(text, 200, { "Content-Type": "application/json" });
  outgoing.writeHead(200, {
    "content-type": "application/json",
    [REQUEST_ID_HEADER]: c.get("requestId"),
    "Content-Length": Buffer.byteLength(text),
  });
  outgoing.end(text);
  return RESPONSE_ALREADY_SENT;
}

/** The headers middleware gives every answer (the request id), for an answer written here. */
export function middlewareHeaders(c: Context<AppEnv>): Record<string, string> {
  return { [REQUEST_ID_HEADER]: c.get("requestId") };
}
