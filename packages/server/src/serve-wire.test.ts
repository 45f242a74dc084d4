/**
 * The exact bytes the server answers on the wire (status line, header names, their case and
 * order, body), for the gateway's hot routes and the answers around them. The hot paths write
 * some answers straight to the Node response instead of through Hono's Response (HP50–HP59);
 * these snapshots were taken before that change and hold it to the same bytes. Only the `Date`
 * header and the upstream's per-call ids and times are masked.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { type RunningServer, serveGroundwork } from "./serve.js";

let upstream: Upstream;
let directory: string;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  directory = mkdtempSync(join(tmpdir(), "gw-wire-"));
  const config = loadConfig(
    { dataDir: directory, host: "127.0.0.1", port: "0" },
    {
      GROUNDWORK_BUILTIN_BASE_URL: upstream.url,
      GROUNDWORK_BUILTIN_API_KEY: "upstream-key",
      GROUNDWORK_SECRET: "wire-test-secret-0123456789",
      GROUNDWORK_LOG_LEVEL: "error",
    },
  );
  server = await serveGroundwork(config);
  key = server.bootstrap?.key ?? "";
});
afterAll(async () => {
  await server.close();
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

/** One request on its own connection (`Connection: close`), answered bytes as text, masked. */
function exchange(method: string, path: string, headers: Record<string, string>, body = ""): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const done = () => resolve(mask(Buffer.concat(chunks).toString("utf8")));
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      // A chunked answer (SSE asks for keep-alive) is whole at its last chunk.
      if (Buffer.concat(chunks).toString("utf8").endsWith("\r\n0\r\n\r\n")) {
        socket.destroy();
        done();
      }
    });
    socket.on("error", reject);
    socket.on("end", done);
    const lines = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, "Connection: close"];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (body !== "") lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    // Not `end`: a client that half-closes its side is a client that went away.
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
  });
}

/**
 * The `Date` header and the upstream's ids and times masked; a chunked body joined (how events
 * fall into chunks depends on timing, not on what the server answers).
 */
function mask(answer: string): string {
  const split = answer.indexOf("\r\n\r\n");
  let text = answer;
  if (/^Transfer-Encoding: chunked$/im.test(answer.slice(0, split))) {
    let body = "";
    let rest = answer.slice(split + 4);
    for (;;) {
      const line = rest.indexOf("\r\n");
      const size = Number.parseInt(rest.slice(0, line), 16);
      if (!(size > 0)) break;
      body += Buffer.from(rest.slice(line + 2))
        .subarray(0, size)
        .toString("utf8");
      rest = Buffer.from(rest.slice(line + 2))
        .subarray(size + 2)
        .toString("utf8");
    }
    text = `${answer.slice(0, split + 4)}${body}`;
  }
  return text
    .replace(/^Date: .*$/m, "Date: <date>")
    .replace(/"id":"chatcmpl-[^"]*"/g, '"id":"<id>"')
    .replace(/"created":\d+/g, '"created":<created>')
    .replace(/"system_fingerprint":"[^"]*"/g, '"system_fingerprint":"<fp>"');
}

const auth = () => ({ Authorization: `Bearer ${key}`, "X-Request-Id": "req-wire-1" });
const chatBody = (stream: boolean) =>
  JSON.stringify({ model: "gw-chat-1", messages: [{ role: "user", content: "hello" }], stream });

describe("answers on the wire", () => {
  it("a chat completion", async () => {
    upstream.enqueue({ text: "Hi", usage: { inputTokens: 3, outputTokens: 1 } });
    const answer = await exchange(
      "POST",
      "/v1/chat/completions",
      { ...auth(), "Content-Type": "application/json" },
      chatBody(false),
    );
    expect(answer).toMatchInlineSnapshot(`
      "HTTP/1.1 200 OK
      content-type: application/json
      x-request-id: req-wire-1
      Content-Length: 328
      Date: <date>
      Connection: close

      {"id":"<id>","object":"chat.completion","created":<created>,"model":"gw-chat-1","choices":[{"index":0,"message":{"role":"assistant","content":"Hi","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4},"system_fingerprint":null}"
    `);
  });

  it("a streamed chat completion", async () => {
    upstream.enqueue({ text: "Hello world", usage: { inputTokens: 4, outputTokens: 2 } });
    const answer = await exchange(
      "POST",
      "/v1/chat/completions",
      { ...auth(), "Content-Type": "application/json" },
      chatBody(true),
    );
    expect(answer).toMatchInlineSnapshot(`
      "HTTP/1.1 200 OK
      x-request-id: req-wire-1
      content-type: text/event-stream; charset=utf-8
      cache-control: no-cache
      connection: keep-alive
      Date: <date>
      Transfer-Encoding: chunked

      data: {"id":"<id>","object":"chat.completion.chunk","created":<created>,"model":"gw-chat-1","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}

      data: {"id":"<id>","object":"chat.completion.chunk","created":<created>,"model":"gw-chat-1","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}]}

      data: {"id":"<id>","object":"chat.completion.chunk","created":<created>,"model":"gw-chat-1","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" world"},"logprobs":null,"finish_reason":null}]}

      data: {"id":"<id>","object":"chat.completion.chunk","created":<created>,"model":"gw-chat-1","system_fingerprint":null,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}

      data: [DONE]

      "
    `);
  });

  it("a refused chat body, an unknown key, no key, an unknown endpoint", async () => {
    const refused = await exchange(
      "POST",
      "/v1/chat/completions",
      { ...auth(), "Content-Type": "application/json" },
      JSON.stringify({ model: "gw-chat-1", messages: [] }),
    );
    expect(refused).toMatchInlineSnapshot(`
      "HTTP/1.1 400 Bad Request
      content-type: application/json
      x-request-id: req-wire-1
      Content-Length: 152
      Date: <date>
      Connection: close

      {"error":{"message":"messages: Too small: expected array to have >=1 items","type":"invalid_request_error","param":"messages","code":"invalid_request"}}"
    `);
    expect(
      await exchange("POST", "/v1/chat/completions", {
        Authorization: "Bearer gw_nope",
        "X-Request-Id": "r2",
      }),
    ).toMatchInlineSnapshot(`
      "HTTP/1.1 401 Unauthorized
      content-type: application/json
      x-request-id: r2
      Content-Length: 118
      Date: <date>
      Connection: close

      {"error":{"message":"Invalid or revoked API key","type":"authentication_error","param":null,"code":"invalid_api_key"}}"
    `);
    expect(await exchange("GET", "/v1/models", { "X-Request-Id": "r3" })).toMatchInlineSnapshot(`
      "HTTP/1.1 401 Unauthorized
      www-authenticate: Bearer realm="groundwork"
      x-request-id: r3
      content-type: text/plain; charset=UTF-8
      Date: <date>
      Connection: close
      Transfer-Encoding: chunked

      "
    `);
    expect(await exchange("GET", "/v1/nothing-here", auth())).toMatchInlineSnapshot(`
      "HTTP/1.1 404 Not Found
      content-type: application/json
      x-request-id: req-wire-1
      Content-Length: 124
      Date: <date>
      Connection: close

      {"error":{"message":"Unknown endpoint GET /v1/nothing-here","type":"invalid_request_error","param":null,"code":"not_found"}}"
    `);
  });

  it("an ordinary JSON route and the health check", async () => {
    expect(await exchange("GET", "/v1/me", auth())).toMatch(
      /^HTTP\/1\.1 200 OK\r\ncontent-type: application\/json\r\nx-request-id: req-wire-1\r\nContent-Length: \d+\r\n/,
    );
    expect(await exchange("GET", "/health", { "X-Request-Id": "r4" })).toMatchInlineSnapshot(`
      "HTTP/1.1 200 OK
      content-type: application/json
      x-request-id: r4
      Content-Length: 15
      Date: <date>
      Connection: close

      {"status":"ok"}"
    `);
  });
});
