import type { Principal } from "@groundwork/core";
import type { Groundwork, PlatformStore } from "@groundwork/platform";
import type { HttpBindings } from "@hono/node-server";
import type { Logger } from "../logger.js";

/** What every handler can read from the Hono context. */
export interface AppEnv {
  /** The Node request and response under the Node listener; `app.request()` has no env at all. */
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** The body is still unread on the Node request (see node-request.ts). */
    bodyUnread?: boolean;
    requestId: string;
    principal: Principal;
    /** The platform the routes call. */
    groundwork: Groundwork;
    store: PlatformStore;
    logger: Logger;
  };
}
