/** Request ids and access logs. */
import { newId } from "@groundwork/core";
import { withTraceRequestId } from "@groundwork/platform";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";
import { answeredDirectly, REQUEST_ID_HEADER } from "./node-answer.js";
import { requestHeader } from "./node-request.js";

export { REQUEST_ID_HEADER } from "./node-answer.js";

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Keeps a sane client-sent request id (for tracing across services), else makes one. Traces
 * started while handling the request carry it through an ambient context. Reads (GET, HEAD)
 * start no trace, and the routes `passesRequestId` names hand the id to the engine themselves:
 * neither opens that context, whose AsyncLocalStorage turns on Node 20's promise hooks for the
 * whole process (HP55).
 */
export function requestContext(
  passesRequestId: (method: string, path: string) => boolean = () => false,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const sent = requestHeader(c, REQUEST_ID_HEADER);
    const requestId = sent !== undefined && CLIENT_REQUEST_ID.test(sent) ? sent : newId("req");
    c.set("requestId", requestId);
    const started = performance.now();
    // Traces started while handling the request carry its id (one context value, no span).
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || passesRequestId(method, c.req.path)) await next();
    else await withTraceRequestId(requestId, next);
    // Set on whatever was answered, errors included, and only here: a `c.header` before the
    // handler made a web Headers object for every answer (HP50). An answer the handler wrote to
    // the Node response itself carries the id already (node-answer.ts).
    if (!answeredDirectly(c.res)) c.res.headers.set(REQUEST_ID_HEADER, requestId);
    // Path only: query strings and headers may carry secrets.
    c.get("logger").info("request", {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      organizationId: c.get("principal")?.organizationId,
    });
  };
}
