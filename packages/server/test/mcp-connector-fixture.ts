/**
 * A real MCP server for connector tests: the SDK's `McpServer` over a stateful
 * `StreamableHTTPServerTransport` on a loopback port. Tools: `echo` (read-only),
 * `whoami` (says whether a bearer token came), `sleep`, `delete_all` (destructive),
 * `ask` (asks the client a form question and answers with the reply), and one
 * whose prefixed name is too long to offer. With `token`
 * set, requests without `Authorization: Bearer <token>` get 401. With `silentList`, the
 * server accepts `tools/list` and never answers it (the request stays open).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export interface McpFixture {
  url: string;
  /** Authorization headers of every request received. */
  authorizations: Array<string | undefined>;
  /** The JSON-RPC method of every POST received. */
  methods: string[];
  /** Changes the token the server accepts (null: any). */
  setToken(token: string | null): void;
  /** Answers 401 to `tools/call` of this tool (a sign-in revoked between listing and call); null: none. */
  revokeOnCall(tool: string | null): void;
  close(): Promise<void>;
}

function buildServer(silentList: boolean): McpServer {
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Echo the text back",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
  );
  server.registerTool(
    "whoami",
    { description: "Tell who is calling", annotations: { readOnlyHint: true } },
    async (extra) => ({
      content: [
        { type: "text", text: `token seen: ${extra.requestInfo?.headers.authorization ? "yes" : "no"}` },
      ],
    }),
  );
  server.registerTool(
    "sleep",
    {
      description: "Wait ms milliseconds",
      inputSchema: { ms: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: "text", text: "slept" }] };
    },
  );
  server.registerTool(
    "delete_all",
    { description: "Delete everything", annotations: { destructiveHint: true } },
    async () => ({ content: [{ type: "text", text: "deleted" }] }),
  );
  server.registerTool(
    "ask",
    { description: "Ask the user for a colour", annotations: { readOnlyHint: true } },
    async () => {
      const answer = await server.server.elicitInput({
        mode: "form",
        message: "Which colour?",
        requestedSchema: {
          type: "object",
          properties: { colour: { type: "string", enum: ["red", "blue"] } },
          required: ["colour"],
        },
      });
      if (answer.action !== "accept") {
        return { content: [{ type: "text", text: `no answer (${answer.action})` }], isError: true };
      }
      return { content: [{ type: "text", text: `colour: ${String(answer.content?.colour)}` }] };
    },
  );
  server.registerTool(
    // 60 characters: a valid MCP name, but over 64 once prefixed with the server label.
    "a_tool_whose_name_is_far_too_long_to_be_offered_with_a_prefix",
    { description: "A name the platform cannot offer", annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: "text", text: "never" }] }),
  );
  if (silentList) server.server.setRequestHandler(ListToolsRequestSchema, () => new Promise(() => {}));
  return server;
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

export async function startMcpFixture(
  options: { token?: string | null; silentList?: boolean } = {},
): Promise<McpFixture> {
  let token = options.token ?? null;
  let revokedTool: string | null = null;
  const authorizations: Array<string | undefined> = [];
  const methods: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer(async (req, res) => {
    authorizations.push(req.headers.authorization);
    if (token !== null && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    try {
      const sessionId = req.headers["mcp-session-id"];
      const body = req.method === "POST" ? await readJsonBody(req) : undefined;
      const message = body as { method?: string; params?: { name?: string } } | undefined;
      if (typeof message?.method === "string") methods.push(message.method);
      if (revokedTool !== null && message?.method === "tools/call" && message.params?.name === revokedTool) {
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"revoked"}');
        return;
      }
      let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        if (req.method !== "POST") {
          res.writeHead(400).end();
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
        };
        await buildServer(options.silentList === true).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    methods,
    setToken(next) {
      token = next;
    },
    revokeOnCall(tool) {
      revokedTool = tool;
    },
    async close() {
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
