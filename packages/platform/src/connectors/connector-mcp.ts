/**
 * The MCP side of connectors (PLATFORM.md §5.3): `tools/list` and `tools/call` on a remote
 * server over streamable HTTP with the official SDK client, every request through the
 * guarded (SSRF-safe) fetch, the member's bearer token in `Authorization`. A call that the
 * server interrupts with `elicitation/create` is held open in this process: the question
 * becomes an input request, the run pauses, and the answer (or `cancel` at the end of the
 * pause window) is sent back on the same call.
 */

import type { CachedTool } from "@groundwork/store-sqlite";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export const LIST_TIMEOUT_MS = 10_000;
export const CALL_TIMEOUT_MS = 60_000;

/** An upstream 401/403: the member's sign-in no longer works. */
export class ConnectorAuthError extends Error {}

export interface ElicitationQuestion {
  mode: "form" | "url" | "mixed" | "unknown";
  message: string;
  requestedSchema: Record<string, unknown> | null;
  url: string | null;
}

export interface ElicitationAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** What a call came to next: its result, or a question it waits on. */
export type CallOutcome =
  | { kind: "result"; output: string; failed: boolean }
  | { kind: "expired" }
  | { kind: "question"; question: ElicitationQuestion; answer: (answer: ElicitationAnswer) => void };

export interface McpEndpoint {
  url: string;
  token: string | null;
  fetch: typeof fetch;
}

function isAuthFailure(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = (cause as Error).cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 401 || code === 403) return true;
    if (cause.name === "UnauthorizedError") return true;
  }
  return false;
}

async function open(endpoint: McpEndpoint, withQuestions: boolean, timeoutMs: number): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    fetch: endpoint.fetch,
    ...(endpoint.token === null
      ? {}
      : { requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } } }),
  });
  const client = new Client(
    { name: "groundwork", version: "1.0.0" },
    { capabilities: withQuestions ? { elicitation: { form: {}, url: {} } } : {} },
  );
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    if (isAuthFailure(error)) throw new ConnectorAuthError("the connector refused the sign-in");
    throw error;
  }
  return client;
}

/**
 * `tools/list` (all pages) within the list timeout, which covers connecting too: a server
 * that never answers fails the listing after `timeoutMs` in all (an MCP request-timeout error).
 */
export async function listTools(endpoint: McpEndpoint, timeoutMs = LIST_TIMEOUT_MS): Promise<CachedTool[]> {
  const deadline = Date.now() + timeoutMs;
  const client = await open(endpoint, false, timeoutMs);
  try {
    const tools: CachedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: Math.max(1, deadline - Date.now()),
      });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? null,
          inputSchema: tool.inputSchema as Record<string, unknown>,
          readOnlyHint: tool.annotations?.readOnlyHint === true,
          destructiveHint: tool.annotations?.destructiveHint === true,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined && tools.length < 1000);
    return tools;
  } catch (error) {
    if (isAuthFailure(error)) throw new ConnectorAuthError("the connector refused the sign-in");
    throw error;
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * A `tools/call` in progress. `next()` answers the call's next outcome: its result, or a
 * question (the call then waits until the question's `answer` is called). The 60 s call
 * timeout does not run while a question waits.
 */
export class HeldCall {
  private readonly outcomes: CallOutcome[] = [];
  private wake: (() => void) | null = null;

  private constructor() {}

  static start(
    endpoint: McpEndpoint,
    toolName: string,
    args: Record<string, unknown>,
    options: { callTimeoutMs: number; questionWindowMs: number },
  ): HeldCall {
    const held = new HeldCall();
    void held.run(endpoint, toolName, args, options);
    return held;
  }

  private push(outcome: CallOutcome): void {
    this.outcomes.push(outcome);
    this.wake?.();
    this.wake = null;
  }

  async next(): Promise<CallOutcome> {
    for (;;) {
      const outcome = this.outcomes.shift();
      if (outcome !== undefined) return outcome;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private async run(
    endpoint: McpEndpoint,
    toolName: string,
    args: Record<string, unknown>,
    options: { callTimeoutMs: number; questionWindowMs: number },
  ): Promise<void> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Error("timeout")), options.callTimeoutMs);
    };
    let client: Client | null = null;
    try {
      client = await open(endpoint, true, LIST_TIMEOUT_MS);
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        clearTimeout(timer);
        const params = request.params as Record<string, unknown>;
        const requestedSchema =
          typeof params.requestedSchema === "object" && params.requestedSchema !== null
            ? (params.requestedSchema as Record<string, unknown>)
            : null;
        const url = typeof params.url === "string" ? params.url : null;
        const mode =
          requestedSchema !== null && url !== null
            ? "mixed"
            : requestedSchema !== null
              ? "form"
              : url !== null
                ? "url"
                : "unknown";
        const answer = await new Promise<ElicitationAnswer>((resolve) => {
          this.push({
            kind: "question",
            question: {
              mode,
              message: typeof params.message === "string" ? params.message : "",
              requestedSchema,
              url,
            },
            answer: resolve,
          });
        });
        arm();
        return answer.action === "accept" && answer.content !== undefined
          ? { action: "accept", content: answer.content as Record<string, string | number | boolean> }
          : { action: answer.action };
      });
      arm();
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
        signal: abort.signal,
        timeout: options.callTimeoutMs + options.questionWindowMs,
      });
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content
        .map((part) =>
          (part as { type?: string }).type === "text"
            ? String((part as { text?: unknown }).text ?? "")
            : JSON.stringify(part),
        )
        .join("\n");
      const output =
        text !== ""
          ? text
          : result.structuredContent !== undefined
            ? JSON.stringify(result.structuredContent)
            : "";
      this.push({ kind: "result", output, failed: result.isError === true });
    } catch (error) {
      if (isAuthFailure(error)) this.push({ kind: "expired" });
      else if (abort.signal.aborted) {
        this.push({
          kind: "result",
          output: `The connector did not answer within ${Math.round(options.callTimeoutMs / 1000)} s`,
          failed: true,
        });
      } else {
        this.push({
          kind: "result",
          output: `The connector call failed: ${error instanceof Error ? error.message : String(error)}`,
          failed: true,
        });
      }
    } finally {
      clearTimeout(timer);
      await client?.close().catch(() => {});
    }
  }
}
