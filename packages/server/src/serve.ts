/**
 * Starts the whole server in-process: store, first-start bootstrap, platform, app, listener, and
 * (unless turned off) the background workers. `runWorkers` is the `groundwork worker` process:
 * the same platform over the same database, its job workers only.
 */

import { createFastFetch } from "@groundwork/gateway";
import {
  createGroundwork,
  type Groundwork,
  type PlatformStore,
  storePlanAllowance,
} from "@groundwork/platform";
import { flushAtExit } from "@groundwork/store-sqlite";
import { createApp } from "./app.js";
import { type BootstrapResult, bootstrapIfEmpty } from "./bootstrap.js";
import { DEFAULT_KB_WARM_MIN_CHUNKS, type ServerConfig } from "./config.js";
import { listen } from "./http-server.js";
import { createLogger, type Logger } from "./logger.js";
import { openServerStore, type ServerStore } from "./open-server-store.js";

export interface RunningServer {
  url: string;
  port: number;
  store: PlatformStore;
  /** The database, for people (a file, or PostgreSQL's host and database). */
  database: string;
  /** Set on the first start of an empty database: the Admin key, shown once. */
  bootstrap: BootstrapResult | null;
  /** Finishes in-flight requests, then stops the workers and closes the database. */
  close(): Promise<void>;
}

export async function serveGroundwork(
  config: ServerConfig,
  logger: Logger = createLogger({ level: config.logLevel }),
): Promise<RunningServer> {
  const opened = await openServerStore(config.database, {
    secret: config.secret,
    backgroundCheckpoints: true,
  });
  const { store } = opened;
  try {
    const bootstrap = await bootstrapIfEmpty(store, config.dataDir);
    const groundwork = composeGroundwork(config, opened);
    const app = createApp({ groundwork, logger, console: config.console });
    const http = await listen(app, { host: config.host, port: config.port });
    // Background jobs, including ones a previous run left unfinished (unless they run elsewhere).
    await groundwork.start({ workers: config.workers });
    // Finished spans wait a few milliseconds for their batch, like usage rows: a process that ends
    // without closing (an uncaught exception) still stores them (HP14).
    const stopTraceFlush = flushAtExit(groundwork.tracing);
    // Large knowledge bases load their indexes now rather than on their first search (HP68).
    const warming = warmKnowledgeBases(
      groundwork,
      config.kbWarmMinChunks ?? DEFAULT_KB_WARM_MIN_CHUNKS,
      logger,
    );
    let closing: Promise<void> | null = null;
    return {
      url: http.url,
      port: http.port,
      store,
      database: opened.description,
      bootstrap,
      close() {
        closing ??= http
          .close()
          .then(() => warming)
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

/**
 * Warms, in the background, the knowledge bases serving at least `minChunks` vectors (0: none),
 * one line each in the log. Never rejects: a failure is logged, and the knowledge base then loads
 * on its first search as it always could.
 */
async function warmKnowledgeBases(groundwork: Groundwork, minChunks: number, logger: Logger): Promise<void> {
  if (minChunks <= 0) return;
  try {
    for (const kb of await groundwork.knowledge.warmServed(minChunks)) {
      const fields = {
        knowledgeBaseId: kb.id,
        organizationId: kb.organizationId,
        chunks: kb.chunks,
        ms: kb.ms,
      };
      if (kb.error === null) logger.info("knowledge base warmed", fields);
      else logger.warn("knowledge base not warmed", { ...fields, error: kb.error });
    }
  } catch (error) {
    logger.warn("knowledge bases not warmed", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The platform as the server composes it: the plans enforced, the limits counted where the store says. */
function composeGroundwork(config: ServerConfig, opened: ServerStore): Groundwork {
  const { store, limits } = opened;
  return createGroundwork({
    store,
    config: config.platform,
    // The server enforces the plans; a library user passes no allowance and is unlimited.
    allowance: storePlanAllowance(store, limits.requests === undefined ? {} : { requests: limits.requests }),
    limits,
    fetch: createFastFetch(),
  });
}

export interface RunningWorkers {
  database: string;
  /** Lets running jobs finish (or leaves them to another worker), then closes the database. */
  close(): Promise<void>;
}

/** `groundwork worker`: the background workers over the configured database, without HTTP. */
export async function runWorkers(config: ServerConfig): Promise<RunningWorkers> {
  const opened = await openServerStore(config.database, { secret: config.secret });
  const { store } = opened;
  try {
    const groundwork = composeGroundwork(config, opened);
    await groundwork.start();
    const stopTraceFlush = flushAtExit(groundwork.tracing);
    let closing: Promise<void> | null = null;
    return {
      database: opened.description,
      close() {
        closing ??= (async () => {
          stopTraceFlush();
          await groundwork.close();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
