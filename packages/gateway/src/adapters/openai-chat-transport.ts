/**
 * Chat completions on an OpenAI-compatible endpoint without the SDK's request machinery: one
 * POST, the JSON answer parsed once, a stream's `data:` events parsed as they arrive. The SDK
 * built each request through several promise layers, an AbortController, header merging and
 * debug-log formatting done even with logging off — a visible share of a gateway call that
 * only passes a body through (docs/perf/gateway-profile.md).
 *
 * Failures are the SDK's own error classes, built the way the SDK builds them, so mapping
 * them to gateway errors (upstream-errors.ts) is unchanged: `APIError.generate` for an error
 * status, `APIConnectionError` / `APIConnectionTimeoutError` when nothing came back,
 * `APIUserAbortError` when the caller gave up.
 *
 * With the fast fetch (fast-fetch.ts) the request goes straight to its undici pool and the
 * body is read as Node buffers; any other fetch (tests, a guarded fetch) is used as it is.
 */
import type { Cancellation, ChatCompletion, ChatCompletionChunk } from "@groundwork/core";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { type RawRequest, type RawTarget, rawRequestOf, rawTargetOf } from "../fast-fetch.js";
import { rememberUpstreamText } from "../upstream-text.js";
import { SseDataParser } from "./sse-data.js";

export interface ChatTransportOptions {
  baseUrl: string;
  apiKey: string;
  organizationId?: string | undefined;
  fetch?: typeof fetch | undefined;
  timeoutMs: number;
  /**
   * What a failure becomes (the adapter's upstream error), applied here rather than by a wrapper
   * around each call: a wrapping async generator cost every streamed chunk its own promise hops.
   */
  mapError?: (error: unknown) => unknown;
}

/** An upstream answer, whichever way it was fetched. */
interface Answer {
  status: number;
  header(name: string): string | undefined;
  headers(): Headers;
  text(): Promise<string>;
  chunks(): AsyncIterable<Uint8Array>;
  discard(): void;
}

export interface ChatTransport {
  complete(body: object, signal: Cancellation | undefined): Promise<ChatCompletion>;
  stream(body: object, signal: Cancellation | undefined): AsyncIterable<ChatCompletionChunk>;
}

export function createChatTransport(options: ChatTransportOptions): ChatTransport {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
    authorization: `Bearer ${options.apiKey}`,
    "user-agent": "groundwork-gateway",
  };
  if (options.organizationId !== undefined) headers["openai-organization"] = options.organizationId;
  const raw = rawRequestOf(options.fetch);
  // Parsed on the first call (a bad URL fails that call, as it always did), then kept.
  let target: RawTarget | null = null;
  const targetOf = () => {
    target ??= rawTargetOf(url);
    return target;
  };
  const post = (body: object, signal: Cancellation | undefined): Promise<Answer> =>
    raw === null
      ? postWithFetch(
          options.fetch ?? globalThis.fetch,
          url,
          headers,
          JSON.stringify(body),
          signal,
          options.timeoutMs,
        )
      : postRaw(raw, targetOf, headers, JSON.stringify(body), signal, options.timeoutMs);

  const mapError = options.mapError ?? ((error: unknown) => error);
  return {
    async complete(body, signal) {
      try {
        const answer = await post(body, signal);
        if (!succeeded(answer)) await throwFailure(answer);
        const text = await readOrAbort(answer, signal);
        const completion = JSON.parse(text) as ChatCompletion;
        rememberUpstreamText(completion, text);
        return completion;
      } catch (error) {
        throw mapError(error);
      }
    },

    async *stream(body, signal) {
      let answer: Answer;
      try {
        answer = await post(body, signal);
        if (!succeeded(answer)) await throwFailure(answer);
      } catch (error) {
        throw mapError(error);
      }
      const chunks = answer.chunks()[Symbol.asyncIterator]();
      // The events of each chunk are parsed in one go (no generator per event), with one decoder.
      const parser = new SseDataParser();
      let finished = false;
      try {
        for (;;) {
          const next = await chunks.next();
          for (const data of next.done === true ? parser.end() : parser.push(next.value)) {
            if (data.startsWith("[DONE]")) {
              // The answer is whole: the caller finishes now (its last bytes leave with this tick's),
              // and the rest is read in the background, so the connection goes back to the pool whole.
              finished = true;
              if (next.done !== true) void readToEnd(chunks, answer);
              return;
            }
            const parsed = JSON.parse(data) as ChatCompletionChunk & { error?: unknown };
            if (parsed?.error) {
              throw new APIError(undefined, parsed.error as object, undefined, answer.headers());
            }
            // The event's own text, answered as it is while the gateway changes nothing in it.
            if (typeof parsed === "object" && parsed !== null) rememberUpstreamText(parsed, data);
            yield parsed;
          }
          if (next.done === true) break;
        }
        finished = true;
      } catch (error) {
        // The caller going away ends the stream quietly, as the SDK's stream does.
        if (signal?.aborted === true || isAbort(error)) return;
        throw mapError(error);
      } finally {
        if (!finished) answer.discard();
      }
    },
  };
}

/** Reads what follows `[DONE]` (normally only the end of the body); a failure just drops the connection. */
async function readToEnd(chunks: AsyncIterator<Uint8Array>, answer: Answer): Promise<void> {
  try {
    while ((await chunks.next()).done !== true);
  } catch {
    answer.discard();
  }
}

/** A 2xx answer; anything else goes to throwFailure (checked first: no async call for a success). */
function succeeded(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** An error status becomes the SDK's error for it (message, body and headers as the SDK reads them). */
async function throwFailure(answer: Answer): Promise<never> {
  const text = await answer.text().catch((error: unknown) => String(error));
  let json: object | undefined;
  try {
    json = JSON.parse(text) as object;
  } catch {
    json = undefined;
  }
  throw APIError.generate(answer.status, json, json === undefined ? text : undefined, answer.headers());
}

async function readOrAbort(answer: Answer, signal: Cancellation | undefined): Promise<string> {
  try {
    return await answer.text();
  } catch (error) {
    if (signal?.aborted === true) throw new APIUserAbortError();
    throw new APIConnectionError({ cause: error as Error });
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error instanceof APIUserAbortError);
}

/** What nothing-came-back looks like to the caller: aborted, timed out, or a connection error. */
function connectionFailure(error: unknown, signal: Cancellation | undefined): Error {
  if (signal?.aborted === true) return new APIUserAbortError();
  const code = (error as { code?: string } | null)?.code;
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT" || isAbort(error)) {
    return new APIConnectionTimeoutError();
  }
  return new APIConnectionError({ cause: error as Error });
}

async function postRaw(
  raw: RawRequest,
  target: () => RawTarget,
  headers: Record<string, string>,
  body: string,
  signal: Cancellation | undefined,
  timeoutMs: number,
): Promise<Answer> {
  if (signal?.aborted === true) throw new APIUserAbortError();
  let response: Awaited<ReturnType<RawRequest>>;
  try {
    // Like the SDK's timeout, the limit is on the answer's headers; a long stream may run on.
    response = await raw(target(), {
      method: "POST",
      headers,
      body,
      signal: signal ?? null,
      headersTimeout: timeoutMs,
    });
  } catch (error) {
    throw connectionFailure(error, signal);
  }
  const answerHeaders = response.headers;
  return {
    status: response.statusCode,
    header: (name) => {
      const value = answerHeaders[name];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    headers: () => {
      const result = new Headers();
      for (const [name, value] of Object.entries(answerHeaders)) {
        if (Array.isArray(value)) for (const v of value) result.append(name, v);
        else if (value !== undefined) result.set(name, value);
      }
      return result;
    },
    text: () => response.body.text(),
    chunks: () => response.body,
    discard: () => response.body.destroy(),
  };
}

async function postWithFetch(
  fetchImpl: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: Cancellation | undefined,
  timeoutMs: number,
): Promise<Answer> {
  if (signal?.aborted === true) throw new APIUserAbortError();
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetchImpl(url, { method: "POST", headers, body, signal: controller.signal });
  } catch (error) {
    throw connectionFailure(error, signal);
  } finally {
    clearTimeout(timer);
  }
  const release = () => signal?.removeEventListener("abort", abort);
  return {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    headers: () => response.headers,
    text: () => response.text().finally(release),
    async *chunks() {
      try {
        if (response.body === null) return;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) yield chunk;
      } finally {
        release();
      }
    },
    discard: () => {
      release();
      controller.abort();
    },
  };
}
