/** Starts the whole server in-process: store, first-start bootstrap, platform, app, listener. */

import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, storePlanAllowance } from "@groundwork/platform";
import { flushAtExit, openStore, type Store } from "@groundwork/store-sqlite";
import { createApp } from "./app.js";
import { type BootstrapResult, bootstrapIfEmpty } from "./bootstrap.js";
import { databaseFile, type ServerConfig } from "./config.js";
import { listen } from "./http-server.js";
import { createLogger, type Logger } from "./logger.js";

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  /** Set on the first start of an empty database: the Admin key, shown once. */
  bootstrap: BootstrapResult | null;
  /** Finishes in-flight requests, then stops the workers and closes the database. */
  close(): Promise<void>;
}

export async function serveGroundwork(
  config: ServerConfig,
  logger: Logger = createLogger({ level: config.logLevel }),
): Promise<RunningServer> {
  const store = openStore({ file: databaseFile(config.dataDir), secret: config.secret });
  try {
    const bootstrap = await bootstrapIfEmpty(store, config.dataDir);
    const groundwork = createGroundwork({
      store,
      config: config.platform,
      // The server enforces the plans; a library user passes no allowance and is unlimited.
      allowance: storePlanAllowance(store),
      fetch: createFastFetch(),
    });
    const app = createApp({ groundwork, logger, console: config.console });
    const http = await listen(app, { host: config.host, port: config.port });
    // Background jobs, including ones a previous run left unfinished.
    await groundwork.start();
    // Finished spans wait a few milliseconds for their batch, like usage rows: a process that ends
    // without closing (an uncaught exception) still stores them (HP14).
    const stopTraceFlush = flushAtExit(groundwork.tracing);
    let closing: Promise<void> | null = null;
    return {
      url: http.url,
      port: http.port,
      store,
      bootstrap,
      close() {
        closing ??= http
          .close()
          .then(() => {
            stopTraceFlush();
            return groundwork.close();
          })
          .then(async () => await store.close());
        return closing;
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
