/** Starts the whole server in-process: store, first-start bootstrap, app, listener. */

import { createFastFetch } from "@groundwork/gateway";
import { openStore, type Store } from "@groundwork/store-sqlite";
import { createApp } from "./app.js";
import { type BootstrapResult, bootstrapIfEmpty } from "./bootstrap.js";
import { databaseFile, type ServerConfig } from "./config.js";
import { createStoreGateway } from "./gateway-wiring.js";
import { listen } from "./http-server.js";
import { createLogger, type Logger } from "./logger.js";
import { startConversionWorker } from "./routes/convert/conversion-service.js";
import { startExtractionWorker } from "./routes/extract/index.js";
import { knowledgeServiceFor } from "./routes/kb/knowledge-service.js";

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  /** Set on the first start of an empty database: the Admin key, shown once. */
  bootstrap: BootstrapResult | null;
  /** Finishes in-flight requests, then closes the database. */
  close(): Promise<void>;
}

export async function serveGroundwork(
  config: ServerConfig,
  logger: Logger = createLogger({ level: config.logLevel }),
): Promise<RunningServer> {
  const store = openStore({ file: databaseFile(config.dataDir), secret: config.secret });
  try {
    const bootstrap = bootstrapIfEmpty(store, config.dataDir);
    const builtin =
      config.builtinBaseUrl === null
        ? null
        : { baseUrl: config.builtinBaseUrl, apiKey: config.builtinApiKey ?? "" };
    const gateway = createStoreGateway(store, {
      builtin,
      fetch: createFastFetch(),
      byokConcurrency: config.byokConcurrency,
    });
    const app = createApp({ store, logger, gateway, builtinConfigured: builtin !== null });
    const http = await listen(app, { host: config.host, port: config.port });
    // Async conversion tasks, including ones a previous run left unfinished.
    const conversion = startConversionWorker(store);
    // Background extractions (large inputs and /async), including ones a previous run left unfinished.
    const extraction = startExtractionWorker(store, gateway);
    // Knowledge-base ingestion and reindex jobs, including ones a previous run left unfinished.
    const knowledge = knowledgeServiceFor(store, gateway);
    knowledge.startWorker();
    let closing: Promise<void> | null = null;
    return {
      url: http.url,
      port: http.port,
      store,
      bootstrap,
      close() {
        closing ??= http
          .close()
          .then(() => conversion.stop())
          .then(() => extraction.stop())
          .then(() => knowledge.stopWorker())
          .then(() => store.close());
        return closing;
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
