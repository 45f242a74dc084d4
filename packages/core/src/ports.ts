/**
 * The contracts engines take as constructor arguments. Adapters implement them:
 * the gateway implements the model ports, store-sqlite the storage ports, and
 * tests may pass their own.
 */
import type { Principal } from "./access.js";

/** Time source; engines never read the system clock themselves. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

// ---- Models (chat-completions wire format, spec document 1) ----

export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ChatToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  top_p?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  stop?: string[];
  response_format?:
    | { type: "text" }
    | { type: "json_object" }
    | {
        type: "json_schema";
        json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean };
      };
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  prompt_cache_key?: string;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] };
    finish_reason: string | null;
  }>;
  usage?: ChatUsage;
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: "assistant";
      content?: string | null;
      tool_calls?: Array<{
        index: number;
        id?: string;
        type?: "function";
        function?: { name?: string; arguments?: string };
      }>;
    };
    finish_reason: string | null;
  }>;
  usage?: ChatUsage | null;
}

/**
 * A call's cancellation, as the gateway's own transport reads it: an AbortSignal has every member,
 * and so does the server's client-disconnect source, which makes an AbortSignal only when one is
 * read (on Node 20 making one costs ~5 µs, a visible share of a gateway call: HP59).
 */
export interface Cancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** The same cancellation as `signal`, for a transport that needs no AbortSignal (`signal` is then made on first read). */
  cancel?: Cancellation;
}

/** A chat model reached through the gateway: routing, credentials and limits are the adapter's business. */
export interface ChatModel {
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatCompletion>;
  stream(request: ChatRequest, options?: CallOptions): AsyncIterable<ChatCompletionChunk>;
}

export interface EmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
  user?: string;
}

export interface EmbeddingResult {
  /** One vector per input, in input order. */
  vectors: Float32Array[];
  promptTokens: number;
}

export interface EmbeddingModel {
  embed(request: EmbeddingRequest, options?: CallOptions): Promise<EmbeddingResult>;
}

// ---- Storage: the durable job queue ----

export type JobStatus = "queued" | "running" | "succeeded" | "failed";

export interface Job {
  id: string;
  kind: string;
  organizationId: string | null;
  payload: unknown;
  status: JobStatus;
  /** How many times a worker has claimed the job (a crashed claim counts). */
  attempts: number;
  maxAttempts: number;
  result: unknown;
  lastError: string | null;
  createdAt: number;
  runAt: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
}

export interface EnqueueOptions {
  organizationId?: string;
  maxAttempts?: number;
  /** Epoch ms before which the job is not claimed. */
  runAt?: number;
}

export type FailOutcome = "retrying" | "failed" | "lost";

export interface FailOptions {
  retryInMs?: number;
  permanent?: boolean;
}

/**
 * A durable queue with leases: a claimed job belongs to its worker until the lease
 * expires; a worker that dies without completing loses it, and the next `claim`
 * after the expiry hands it out again (until `maxAttempts` claims were made).
 */
export interface JobQueue {
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<Job>;
  claim(kinds: readonly string[], workerId: string, leaseMs: number): Promise<Job | null>;
  /** Extends the lease; false when the worker no longer holds the job. */
  heartbeat(jobId: string, workerId: string, leaseMs: number): Promise<boolean>;
  /** Records success; false when the worker no longer holds the job (its result is discarded). */
  complete(jobId: string, workerId: string, result?: unknown): Promise<boolean>;
  /**
   * Records a failure: the job is queued again after `retryInMs` while attempts remain
   * and the failure is not `permanent`; otherwise it is failed for good.
   */
  fail(jobId: string, workerId: string, error: string, options?: FailOptions): Promise<FailOutcome>;
  get(jobId: string): Promise<Job | null>;
}

// ---- Usage metering ----

/** What a port may answer: a value at once (in-process stores) or later (a networked database). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Requests per organization per time window (the plan's requests per minute, PLATFORM.md §15),
 * counted once for every process that admits requests: in memory for one process, a table shared
 * through the database for several (issue #24). Admission is one atomic step, so processes
 * racing for the last request of a window never admit more than the limit between them.
 */
export interface RequestCounter {
  /**
   * Counts one request in the window starting at `windowStart` unless `limit` requests are
   * already counted there (`null`: no limit). Answers the window's new count, or null when refused.
   */
  admit(organizationId: string, windowStart: number, limit: number | null): MaybePromise<number | null>;
  /** Requests counted in the window starting at `windowStart`. */
  count(organizationId: string, windowStart: number): MaybePromise<number>;
}

/**
 * Slots of concurrent work per key (calls to an organization's own providers), shared by every
 * process that takes them. A slot of a process that died is given back when its lease lapses.
 */
export interface ConcurrencySlots {
  /** Takes a slot unless `limit` are taken; answers the function that gives it back (once), or null. */
  acquire(key: string, limit: number): MaybePromise<(() => void) | null>;
  /** Slots taken for the key. */
  inUse(key: string): MaybePromise<number>;
}

/** The analytics surface of a model call (spec document 1, rule 4: images make a call VISION). */
export type UsageSurface = "CHAT" | "VISION" | "EMBEDDINGS" | "RESPONSES" | "AUDIO";

/** One metered model call, as the gateway reports it and the store records it. */
export interface UsageEvent {
  organizationId: string;
  apiKeyId: string | null;
  /** The model string as the caller sent it. */
  model: string;
  surface: UsageSurface;
  byok: boolean;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number | null;
  /** What the call costs against the plan (0 for BYOK). */
  costEur: number;
  latencyMs: number;
  outcome: "ok" | "error" | "aborted";
  endUser: string | null;
  /**
   * For a failed call (`outcome: "error"`), the error code and HTTP status the caller received
   * (e.g. `upstream_error` / 502 for an upstream 500); null or absent otherwise (PLATFORM.md §14).
   */
  errorCode?: string | null;
  status?: number | null;
}

/**
 * What an organization may use, asked before work that is gated by a plan or
 * billed against one. The server passes one over plans and metered usage; a
 * library user may pass none (`UNLIMITED_ALLOWANCE`): everything is allowed.
 */
export interface Allowance {
  /** Null when the organization may call models of its own providers; otherwise why not (a 402). */
  ownProvidersRefusal(principal: Principal): string | null;
  /** Throws a 402 error (`usage_exhausted`) when the organization's included usage is used up. */
  checkUsage(principal: Principal): void | Promise<void>;
  /**
   * Throws a 402 error (`storage_exhausted`) when storing `addedBytes` more would take the
   * organization past its plan's stored bytes. Absent: storage is not limited.
   */
  checkStorage?(organizationId: string, addedBytes: number): MaybePromise<void>;
  /**
   * Throws a 402 error (`pages_exhausted`) when converting `pages` more would take the
   * organization past its plan's pages of the month (PLATFORM.md §15). Absent: not limited.
   */
  checkPages?(organizationId: string, pages: number): MaybePromise<void>;
  /**
   * Counts one `/v1` request of the caller's organization and throws a 429 error
   * (`rate_limit_exceeded`, with `retryAfter`) when its plan's requests per minute are used
   * up (PLATFORM.md §15). Absent: requests are not limited. Answers a Promise when the count is
   * shared through a database (several processes, issue #24).
   */
  admitRequest?(principal: Principal): MaybePromise<void>;
}

export const UNLIMITED_ALLOWANCE: Allowance = {
  ownProvidersRefusal: () => null,
  checkUsage: () => {},
};
