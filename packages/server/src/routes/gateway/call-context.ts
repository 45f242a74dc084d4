/**
 * What a direct model call hands the gateway. The request id goes in the call's context rather
 * than in an ambient one: on Node 20 an AsyncLocalStorage context turns on promise hooks, which
 * cost every promise of the process a few percent of a gateway call (HP55). Routes that run
 * engines which start traces of their own (agents, extraction, …) keep the ambient context.
 */
import type { Principal } from "@groundwork/core";
import type { CallContext } from "@groundwork/gateway";
import type { Context } from "hono";
import type { ClientDisconnect } from "../../http/client-disconnect.js";
import type { AppEnv } from "../../http/env.js";
import { clientDisconnect } from "../../http/node-request.js";

/** The routes whose handlers pass the request id in the call's context (see `callContext`). */
const DIRECT_MODEL_CALLS = new Set(["/v1/chat/completions", "/v1/embeddings"]);

/** Whether this request's handler hands the request id to the gateway itself. */
export function passesRequestId(method: string, path: string): boolean {
  return method === "POST" && DIRECT_MODEL_CALLS.has(path);
}

/** The caller, the client's disconnect and the request id, for one gateway call. */
export function callContext(c: Context<AppEnv>): CallContext {
  const principal = c.get("principal");
  const requestId = c.get("requestId");
  const cancel = clientDisconnect(c);
  if (cancel === undefined) return { principal, signal: c.req.raw.signal, requestId };
  return new DisconnectContext(principal, requestId, cancel);
}

/**
 * The gateway's own transport takes `cancel`; an AbortSignal is made only if an SDK adapter reads
 * `signal`. A class, so the getter is the prototype's (an object literal with one made an accessor
 * per call).
 */
class DisconnectContext implements CallContext {
  constructor(
    readonly principal: Principal,
    readonly requestId: string,
    readonly cancel: ClientDisconnect,
  ) {}

  get signal(): AbortSignal {
    return this.cancel.signal;
  }
}
