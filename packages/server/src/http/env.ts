import type { Principal } from "@groundwork/core";
import type { Store } from "@groundwork/store-sqlite";
import type { Logger } from "../logger.js";

/** What every handler can read from the Hono context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
    store: Store;
    logger: Logger;
  };
}
