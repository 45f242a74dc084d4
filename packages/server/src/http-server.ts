/**
 * The Node listener around the fetch handler, with graceful shutdown: stop
 * accepting, let in-flight requests finish (idle keep-alive sockets are closed at
 * once), and force-close whatever is still open after the grace period.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { App } from "./app.js";

export interface RunningHttpServer {
  url: string;
  port: number;
  close(graceMs?: number): Promise<void>;
}

export function listen(app: App, options: { host: string; port: number }): Promise<RunningHttpServer> {
  return new Promise((resolveListening, reject) => {
    const server = serve({ fetch: app.fetch, hostname: options.host, port: options.port }) as Server;
    server.once("error", reject);
    server.once("listening", () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolveListening({
        url: `http://${host}:${port}`,
        port,
        close: (graceMs = 10_000) => closeGracefully(server, graceMs),
      });
    });
  });
}

function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolveClosed) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolveClosed();
    });
    server.closeIdleConnections();
  });
}
