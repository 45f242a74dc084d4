/**
 * The request body and the client's disconnect, read from Node's own objects when
 * the app runs under the Node listener.
 *
 * @hono/node-server hands handlers a lightweight Request that becomes a full web
 * Request (a body stream and an AbortController) the first time its body or
 * signal is touched. That conversion costs more than the rest of a gateway call:
 * a route that parses a small JSON body serves about 3,000 req/s here through
 * `c.req.text()` and about 8,000 when it reads the Node stream. So the hot paths
 * read `c.env.incoming` and watch `c.env.outgoing`, and fall back to the web
 * Request wherever there are no Node objects (`app.request()` in tests, other
 * runtimes) or the body was already wrapped (chunked uploads under the body limit).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { invalidRequest, payloadTooLarge } from "@groundwork/core";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ClientDisconnect } from "./client-disconnect.js";
import type { AppEnv } from "./env.js";

const utf8 = new TextDecoder(); // strips a leading BOM, as Request.text() does

/**
 * The body-size limit. A declared Content-Length is checked from the header alone
 * (Node's parser never delivers more than it declares), so the body stays unread
 * for the handler; a chunked body is counted as it streams, by Hono's middleware.
 */
export function requestBodyLimit(maxSize: number): MiddlewareHandler<AppEnv> {
  const tooLarge = () => payloadTooLarge(`Request body is larger than ${maxSize} bytes`);
  const counted = bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge();
    },
  });
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = requestHeader(c, "content-length");
    if (length !== undefined && requestHeader(c, "transfer-encoding") === undefined) {
      if (Number.parseInt(length, 10) > maxSize) throw tooLarge();
      c.set("bodyUnread", true);
      return next();
    }
    return counted(c, next);
  };
}

function nodeIncoming(c: Context<AppEnv>): IncomingMessage | undefined {
  const incoming = c.env?.incoming;
  return incoming !== undefined && c.get("bodyUnread") === true && !incoming.readableDidRead
    ? incoming
    : undefined;
}

/** The body as text: straight from the socket under Node, else through the web Request. */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  const incoming = nodeIncoming(c);
  if (incoming === undefined) return c.req.text();
  c.set("bodyUnread", false);
  let bytes: Buffer;
  try {
    bytes = await readAll(incoming);
  } catch {
    throw invalidRequest("The request body could not be read");
  }
  return utf8.decode(bytes);
}

/**
 * The whole stream, by its events: a stream's async iterator costs a visible share of a small
 * request (end-of-stream tracking, a promise per chunk). A request whose client goes away before
 * the end of its body rejects.
 */
function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    incoming.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
    });
    incoming.once("end", () => {
      ended = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    incoming.once("error", reject);
    incoming.once("close", () => {
      if (!ended) reject(new Error("The request closed before its body ended"));
    });
  });
}

/**
 * Aborts when the client goes away before its answer is complete, so upstream
 * calls stop with it. Under Node that is the response closing unfinished.
 */
export function clientSignal(c: Context<AppEnv>): AbortSignal {
  return clientDisconnect(c)?.signal ?? c.req.raw.signal;
}

/** The client's disconnect without an AbortSignal made yet; undefined outside the Node listener. */
export function clientDisconnect(c: Context<AppEnv>): ClientDisconnect | undefined {
  const outgoing: ServerResponse | undefined = c.env?.outgoing;
  return outgoing === undefined ? undefined : new ClientDisconnect(outgoing);
}

/**
 * A request header as `c.req.header(name)` answers it (the web Headers' `get`: every occurrence,
 * joined by ", "), read from Node's raw header list. The first `c.req.header` call builds a web
 * Headers object of every header the client sent, about 1 % of a gateway call (HP15); the hot
 * middleware read the few headers they need here instead. `name` is lower case.
 */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const incoming: IncomingMessage | undefined = c.env?.incoming;
  if (incoming === undefined) return c.req.header(name);
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length === name.length && key.toLowerCase() === name) {
      const next = raw[i + 1] as string;
      value = value === undefined ? next : `${value}, ${next}`;
    }
  }
  return value;
}
