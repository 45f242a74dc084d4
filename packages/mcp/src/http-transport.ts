/**
 * The `http` transport: `POST /mcp` (streamable HTTP, stateless — a fresh server
 * and transport per request, so any number of clients can call concurrently)
 * and `GET /health`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

export interface RunningMcpHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function startMcpHttp(
  options: McpServerOptions & { port: number; host?: string },
): Promise<RunningMcpHttp> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    if (path !== "/mcp") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    if (req.method !== "POST") {
      // Stateless: there is no session stream to open with GET or to end with DELETE.
      res.writeHead(405, { allow: "POST", "content-type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed" }, id: null }),
      );
      return;
    }
    const mcp = createMcpServer(options);
    // An explicitly undefined generator is how the SDK is told to run stateless.
    const stateless = { sessionIdGenerator: undefined } as unknown as ConstructorParameters<
      typeof StreamableHTTPServerTransport
    >[0];
    const transport = new StreamableHTTPServerTransport(stateless);
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: String(error) }, id: null }),
        );
      });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${options.host ?? "127.0.0.1"}:${port}`,
        port,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
