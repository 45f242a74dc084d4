import type { JsonObject, JsonValue } from "./json.js";
import type { RecordedRequest } from "./recorded-request.js";

/**
 * Why the model stopped, in one vocabulary for every route: rendered as `finish_reason` on chat
 * completions, as `status`/`incomplete_details` on responses and as `stop_reason`
 * (`end_turn`, `max_tokens`, `tool_use`, `refusal`) on Anthropic messages.
 */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/** A function call the scripted model makes. */
export interface ScriptedToolCall {
  readonly name: string;
  /**
   * An object is serialised with `JSON.stringify`; a string is sent as is, so malformed
   * arguments can be scripted (the Anthropic upstream must parse it into `input`).
   */
  readonly arguments: string | JsonObject;
  /** Defaults to a generated `call_…` / `toolu_…` id. */
  readonly id?: string;
}

/**
 * Token counts, rendered as given (no conversion between vendors): `inputTokens` is OpenAI's
 * `prompt_tokens`/`input_tokens` (which include cached tokens) and Anthropic's `input_tokens`
 * (which exclude cache reads).
 */
export interface ScriptedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** OpenAI `prompt_tokens_details.cached_tokens` / Anthropic `cache_read_input_tokens`. */
  readonly cachedInputTokens?: number;
}

/** Timing shared by every reply. */
export interface ReplyTiming {
  /** Milliseconds to wait before the status line, e.g. to trip a client timeout. */
  readonly delayMs?: number;
}

/** Controls for answers sent as Server-Sent Events. */
export interface StreamControl {
  /** Milliseconds to wait between two events. */
  readonly chunkDelayMs?: number;
  /**
   * Cut the connection after this many events (`0`: right after the headers), so the client
   * fails after the first byte. A completion sent as one JSON body instead sends the headers
   * and half the body, then cuts.
   */
  readonly hangUpAfterEvents?: number;
}

/**
 * A model answer described once and rendered into the wire format of the route that receives
 * it (chat completion, responses object, Anthropic message, transcription `{text}`), streamed
 * when the request asked for `stream: true`. `{}` is the default echo answer.
 */
export interface CompletionReply extends ReplyTiming, StreamControl {
  readonly kind?: "completion";
  /**
   * Assistant text. Omitted with no tool calls: `"Echo: "` followed by the last user text.
   * Omitted with tool calls: no text part.
   */
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /**
   * Omitted: estimated from the characters (4 per token). `null`: the OpenAI routes report no
   * usage at all (no usage object, no usage chunk); Anthropic always reports it, so there
   * `null` falls back to the estimate.
   */
  readonly usage?: ScriptedUsage | null;
  /** Defaults to `tool_calls` when there are tool calls, `stop` otherwise. */
  readonly finishReason?: FinishReason;
}

/** An error in the vendor's own error shape (OpenAI `{error:{…}}`, Anthropic `{type:"error",…}`). */
export interface ErrorReply extends ReplyTiming {
  readonly kind: "error";
  readonly status: number;
  /** Defaults to `Scripted <status> error`. */
  readonly message?: string;
  /** The vendor's error type; defaults to the one the vendor uses for the status. */
  readonly type?: string;
  /** OpenAI only: `error.code` (defaults by status, e.g. `rate_limit_exceeded`). */
  readonly code?: string | null;
  /** Extra response headers, e.g. `{ "retry-after": "3" }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Any JSON body with any status. */
export interface JsonReply extends ReplyTiming {
  readonly kind: "json";
  /** Defaults to 200. */
  readonly status?: number;
  readonly body: JsonValue;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One Server-Sent Event. */
export interface SseEvent {
  /** Written as an `event:` line when present. */
  readonly event?: string;
  /** A string is written as is (e.g. `"[DONE]"`); anything else as JSON. */
  readonly data: JsonValue;
}

/** A stream written exactly as listed, whatever the request asked for. */
export interface SseReply extends ReplyTiming, StreamControl {
  readonly kind: "sse";
  readonly events: readonly SseEvent[];
  /** Defaults to 200. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Close the connection without sending a single byte. */
export interface HangUpReply extends ReplyTiming {
  readonly kind: "hang-up";
}

/** What a scripted upstream answers to one request. */
export type Reply = CompletionReply | ErrorReply | JsonReply | SseReply | HangUpReply;

/**
 * Chooses the reply for a request once the queue is empty. Returning `undefined` falls back to
 * the default echo answer. A thrown error is answered with a 500 naming it.
 */
export type ReplyHandler = (request: RecordedRequest) => Reply | undefined | Promise<Reply | undefined>;
