/**
 * The SDK-free chat transport answers exactly what the SDK answered on the same upstream —
 * completions, streamed chunks, and the same error classes, statuses and messages — through
 * the fast fetch's raw pool and through a plain fetch alike.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFastFetch } from "../fast-fetch.js";
import { createChatTransport } from "./openai-chat-transport.js";
import { sseData } from "./sse-data.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ apiKey: "sk-upstream" });
});
afterAll(() => upstream.close());

const body = { model: "m", messages: [{ role: "user", content: "hi there" }] };
const fetches = { "fast fetch": createFastFetch(), "plain fetch": globalThis.fetch } as const;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Whatever a call throws, as the comparison sees it. */
async function failureOf(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    return {
      class: (error as Error).constructor.name,
      status: (error as APIError).status,
      message: (error as Error).message,
      // Every answer has its own id: compare only that one was read.
      requestId: /^req_/.test(String((error as APIError).requestID)),
    };
  }
  throw new Error("the call succeeded");
}

for (const [name, fetchImpl] of Object.entries(fetches)) {
  describe(`chat transport (${name})`, () => {
    // Built per test: the upstream's URL is known only once it listens.
    const lazy = () =>
      createChatTransport({
        baseUrl: upstream.url,
        apiKey: "sk-upstream",
        fetch: fetchImpl,
        timeoutMs: 5_000,
      });
    const sdk = () =>
      new OpenAI({ apiKey: "sk-upstream", baseURL: upstream.url, maxRetries: 0, fetch: fetchImpl });

    it("answers the completion the SDK answers, and sends the key", async () => {
      upstream.reset();
      upstream.enqueue({ text: "pong", usage: { inputTokens: 3, outputTokens: 1 } });
      const ours = await lazy().complete(body, undefined);
      upstream.enqueue({ text: "pong", usage: { inputTokens: 3, outputTokens: 1 } });
      const theirs = await sdk().chat.completions.create(
        body as OpenAI.ChatCompletionCreateParamsNonStreaming,
      );
      expect({ ...ours, id: "", created: 0 }).toEqual({ ...theirs, id: "", created: 0 });
      expect(upstream.requests[0]?.headers.authorization).toBe("Bearer sk-upstream");
      expect(upstream.requests[0]?.body).toEqual({ ...body });
    });

    it("streams the chunks the SDK streams, usage included", async () => {
      upstream.reset();
      const streamed = { ...body, stream: true, stream_options: { include_usage: true } };
      upstream.enqueue({ text: "a longer answer in pieces" });
      const ours = await collect(lazy().stream(streamed, undefined));
      upstream.enqueue({ text: "a longer answer in pieces" });
      const theirs = await collect(
        await sdk().chat.completions.create(streamed as OpenAI.ChatCompletionCreateParamsStreaming),
      );
      const strip = (chunks: unknown[]) =>
        chunks.map((chunk) => ({ ...(chunk as object), id: "", created: 0 }));
      expect(ours.length).toBeGreaterThan(2);
      expect(strip(ours)).toEqual(strip(theirs));
    });

    it("fails with the SDK's error class, status, message and request id", async () => {
      for (const reply of [
        { kind: "error" as const, status: 400, message: "bad things" },
        { kind: "error" as const, status: 429, headers: { "retry-after": "3" } },
        { kind: "error" as const, status: 503 },
        { kind: "json" as const, status: 502, body: "not an error object" },
      ]) {
        upstream.reset();
        upstream.enqueue(reply);
        const ours = await failureOf(() => lazy().complete(body, undefined));
        upstream.enqueue(reply);
        const theirs = await failureOf(() =>
          sdk().chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming),
        );
        expect(ours).toEqual(theirs);
        expect(ours.status).toBe(reply.status);
      }
      // A wrong key is the vendor's 401, before any script.
      const wrongKey = createChatTransport({
        baseUrl: upstream.url,
        apiKey: "sk-wrong",
        fetch: fetchImpl,
        timeoutMs: 5_000,
      });
      expect(await failureOf(() => wrongKey.complete(body, undefined))).toMatchObject({ status: 401 });
    });

    it("ends a stream with the SDK's error when the upstream sends one mid-stream", async () => {
      upstream.reset();
      upstream.enqueue({
        kind: "sse",
        events: [
          { data: { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [] } },
          { data: { error: { message: "overloaded", type: "server_error" } } },
        ],
      });
      const seen: unknown[] = [];
      await expect(
        (async () => {
          for await (const chunk of lazy().stream({ ...body, stream: true }, undefined)) seen.push(chunk);
        })(),
      ).rejects.toBeInstanceOf(APIError);
      expect(seen).toHaveLength(1);
    });

    it("reports an unreachable upstream as a connection error whose cause says it was never sent", async () => {
      const closed = createChatTransport({
        baseUrl: "http://127.0.0.1:1/v1",
        apiKey: "k",
        fetch: fetchImpl,
        timeoutMs: 5_000,
      });
      const codes = (error: unknown) => {
        const found: unknown[] = [];
        for (let at = error, depth = 0; at instanceof Error && depth < 6; depth++) {
          found.push((at as Error & { code?: string }).code);
          at = at.cause;
        }
        return found;
      };
      const ours = await closed.complete(body, undefined).catch((caught: unknown) => caught);
      expect(ours).toBeInstanceOf(APIConnectionError);
      const unreachable = new OpenAI({
        apiKey: "k",
        baseURL: "http://127.0.0.1:1/v1",
        maxRetries: 0,
        fetch: fetchImpl,
      });
      const theirs = await unreachable.chat.completions
        .create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((caught: unknown) => caught);
      expect((ours as Error).message).toBe((theirs as Error).message);
      // The fast fetch's own error carries the code the retry rule reads (upstream-errors.ts).
      if (fetchImpl !== globalThis.fetch) expect(codes(ours)).toContain("ECONNREFUSED");
      else expect(codes(ours)).toEqual(codes(theirs));
    });

    it("stops when the caller aborts", async () => {
      upstream.reset();
      upstream.enqueue({ text: "slow", delayMs: 2_000 });
      const controller = new AbortController();
      const pending = lazy().complete(body, controller.signal);
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    });
  });
}

describe("a stream's end", () => {
  it("comes at [DONE], while the rest of the body is read behind it and the connection is reused", async () => {
    const ports: number[] = [];
    const server = createServer((request, response) => {
      ports.push(request.socket.remotePort ?? 0);
      request.resume();
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [] };
      response.write(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
      // Whatever an upstream sends after [DONE] comes later; the caller must not wait for it.
      setTimeout(() => response.end(": done\n\n"), 1_500);
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    try {
      const { port } = server.address() as AddressInfo;
      const transport = createChatTransport({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: "k",
        fetch: createFastFetch({ connections: 1 }),
        timeoutMs: 5_000,
      });
      for (let call = 0; call < 2; call++) {
        const started = performance.now();
        const chunks = await collect(transport.stream({ ...body, stream: true }, undefined));
        expect(chunks).toHaveLength(1);
        expect(performance.now() - started).toBeLessThan(1_000);
        // The pool's one connection is free again once the body has ended.
        await new Promise((resolve) => setTimeout(resolve, 1_600));
      }
      expect(ports).toHaveLength(2);
      expect(ports[1]).toBe(ports[0]);
    } finally {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    }
  });
});

describe("sseData", () => {
  it("yields the same events however the bytes are split and whichever line ending is used", async () => {
    const payload = fc.string({ maxLength: 12 }).filter((s) => !/[\r\n]/.test(s));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(payload, { minLength: 1, maxLength: 3 }), { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        async (events, eol, cuts) => {
          const text = events
            .map((lines) => `: comment${eol}${lines.map((line) => `data: ${line}`).join(eol)}${eol}${eol}`)
            .join("");
          const bytes = new TextEncoder().encode(text);
          const pieces: Uint8Array[] = [];
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const size = cuts[i % cuts.length] ?? 1;
            pieces.push(bytes.slice(at, at + size));
            at += size;
          }
          const got = await collect(
            sseData(
              (async function* () {
                yield* pieces;
              })(),
            ),
          );
          expect(got).toEqual(events.map((lines) => lines.join("\n")));
        },
      ),
      { numRuns: 300 },
    );
  });
});
