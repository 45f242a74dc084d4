import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { jsonPlan, pause, type ResponsePlan, readBody, sendPlan } from "./http-util.js";
import type { JsonValue } from "./json.js";
import { type MutableRecordedRequest, type RecordedRequest, recordRequest } from "./recorded-request.js";
import type { CompletionReply, Reply, ReplyHandler } from "./reply.js";

/** A scripted model server on 127.0.0.1 that records every request it receives. */
export interface Upstream {
  /** The base URL to hand to the vendor's SDK as `baseURL`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request so far, in arrival order (a live view: it grows as requests arrive). */
  readonly requests: readonly RecordedRequest[];
  /** How many enqueued replies are still waiting for a request. */
  readonly queued: number;
  /** Answers requests once the queue is empty; `reset()` restores the one given at start. */
  handler: ReplyHandler | undefined;
  /** Model ids listed by `GET …/models`. */
  models: string[];
  /**
   * Queues replies; each request to a known route takes the next one. Requests the upstream
   * refuses before looking at the script (unknown path, wrong key, malformed body) take none.
   */
  enqueue(...replies: readonly Reply[]): void;
  /**
   * Resolves with `requests` once `predicate` holds for them (checked now and whenever a request
   * arrives or an outcome changes); rejects after `timeoutMs` (default 5000) or on `close()`.
   */
  waitFor(
    predicate: (requests: readonly RecordedRequest[]) => boolean,
    timeoutMs?: number,
  ): Promise<readonly RecordedRequest[]>;
  /** Forgets recorded requests and queued replies, and restores the start options' handler. */
  reset(): void;
  /** Stops listening and cuts idle and active connections, so no test waits on a socket. */
  close(): Promise<void>;
}

/** Options every scripted upstream takes. */
export interface UpstreamOptions {
  /** Replies queued at start (see {@link Upstream.enqueue}). */
  readonly script?: readonly Reply[];
  readonly handler?: ReplyHandler;
  /** When set, requests without this key get the vendor's 401; when unset, any key is accepted. */
  readonly apiKey?: string;
  /**
   * How that 401 quotes the key it received, as some vendors do: `whole`, or `masked` in the
   * middle the vendor's way (`sk-li****ARY`); unset, it does not quote it. Lets a gateway test
   * prove a relayed refusal never carries the customer's key.
   */
  readonly echoKey?: "whole" | "masked";
  /** Model ids listed by `GET …/models`. */
  readonly models?: readonly string[];
}

/** An error as a vendor route reports it; the vendor fills in its defaults by status. */
export interface VendorError {
  readonly status: number;
  readonly message: string;
  readonly type?: string | undefined;
  readonly code?: string | null | undefined;
  readonly param?: string | null | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** What a route may use besides the request and the reply. */
export interface RouteContext {
  /** A fresh id with the vendor's prefix, e.g. `newId("chatcmpl-")`; unique per upstream. */
  newId(prefix: string): string;
  readonly models: readonly string[];
}

/** One endpoint of a vendor. */
export interface Route {
  readonly method: "GET" | "POST";
  /** The path below the vendor's base path, e.g. `/chat/completions`. */
  readonly path: string;
  /** Rejects a malformed request the way the vendor does, before the script is consulted. */
  validate?(request: RecordedRequest): VendorError | undefined;
  /** Renders a completion reply (routes without a model answer use only its timing). */
  complete(request: RecordedRequest, reply: CompletionReply, context: RouteContext): ResponsePlan;
}

/** What makes an upstream speak one vendor's protocol. */
export interface Vendor {
  /** The prefix of every route, e.g. `/v1`. */
  readonly basePath: string;
  /** What `url` adds to the origin (the Anthropic SDK appends `/v1` itself). */
  readonly clientPath: string;
  readonly routes: readonly Route[];
  readonly defaultModels: readonly string[];
  /** The response header that carries a request id, e.g. `x-request-id`. */
  readonly requestIdHeader: string;
  /** The key the request carries where this vendor reads it; undefined when it carries none. */
  presentedKey(request: RecordedRequest): string | undefined;
  /** Rejects a request the vendor refuses whatever the route (e.g. a missing version header). */
  precheck?(request: RecordedRequest): VendorError | undefined;
  /** The vendor's error body for an error; fills in type and code from the status. */
  errorBody(error: VendorError, requestId: string): JsonValue;
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(request: RecordedRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith("Bearer ") === true ? header.slice("Bearer ".length) : undefined;
}

/** The vendor's message for a wrong key, quoting it as `echo` says. */
function keyRefusal(presented: string | undefined, echo: UpstreamOptions["echoKey"]): string {
  if (echo === undefined || presented === undefined) return "Incorrect API key provided";
  return `Incorrect API key provided: ${echo === "whole" ? presented : maskKey(presented)}. You can find your API key in your account settings.`;
}

/** The vendor's masking: the first five and last three characters around `****` (all stars when short). */
function maskKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 5)}****${key.slice(-3)}` : "****";
}

/** Starts an upstream speaking `vendor`'s protocol on an ephemeral loopback port. */
export async function startScriptedUpstream(
  vendor: Vendor,
  options: UpstreamOptions = {},
): Promise<Upstream> {
  const upstream = new ScriptedUpstream(vendor, options);
  await upstream.listen();
  return upstream;
}

class ScriptedUpstream implements Upstream {
  handler: ReplyHandler | undefined;
  models: string[];
  readonly #requests: MutableRecordedRequest[] = [];
  readonly #queue: Reply[];
  readonly #waiters = new Set<{ check(): void; fail(error: Error): void }>();
  readonly #server = createServer((message, response) => void this.#handle(message, response));
  #origin = "";
  #ids = 0;

  constructor(
    private readonly vendor: Vendor,
    private readonly options: UpstreamOptions,
  ) {
    this.handler = options.handler;
    this.models = [...(options.models ?? vendor.defaultModels)];
    this.#queue = [...(options.script ?? [])];
  }

  get origin(): string {
    return this.#origin;
  }

  get url(): string {
    return this.#origin + this.vendor.clientPath;
  }

  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  get queued(): number {
    return this.#queue.length;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(0, "127.0.0.1", () => resolve());
    });
    this.#origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  enqueue(...replies: readonly Reply[]): void {
    this.#queue.push(...replies);
  }

  waitFor(
    predicate: (requests: readonly RecordedRequest[]) => boolean,
    timeoutMs = 5000,
  ): Promise<readonly RecordedRequest[]> {
    return new Promise((resolve, reject) => {
      const waiter = {
        check: () => {
          if (!predicate(this.#requests)) return;
          this.#waiters.delete(waiter);
          clearTimeout(timer);
          resolve(this.#requests);
        },
        fail: (error: Error) => {
          this.#waiters.delete(waiter);
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        const seen = this.#requests.map((request) => `${request.method} ${request.path} ${request.outcome}`);
        waiter.fail(
          new Error(`upstream.waitFor timed out after ${timeoutMs} ms; requests: [${seen.join(", ")}]`),
        );
      }, timeoutMs);
      this.#waiters.add(waiter);
      waiter.check();
    });
  }

  reset(): void {
    this.#requests.length = 0;
    this.#queue.length = 0;
    this.#ids = 0;
    this.handler = this.options.handler;
  }

  async close(): Promise<void> {
    for (const waiter of [...this.#waiters]) waiter.fail(new Error("upstream closed"));
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter.check();
  }

  async #handle(message: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = new Date();
    const controller = new AbortController();
    let record: MutableRecordedRequest | undefined;
    // A write racing a client that just left must not crash the test process.
    response.on("error", () => {});
    response.on("close", () => {
      controller.abort();
      if (record?.outcome !== "pending") return;
      record.outcome = response.writableFinished ? "completed" : "aborted";
      this.#notify();
    });
    let bytes: Buffer;
    try {
      bytes = await readBody(message);
    } catch {
      return; // the client left while sending; there is nothing to record
    }
    record = await recordRequest(message, bytes, receivedAt);
    if (controller.signal.aborted) record.outcome = "aborted";
    this.#requests.push(record);
    this.#notify();
    const current = record;
    const plan = await this.#plan(current, controller.signal);
    if (plan === undefined) return;
    await sendPlan(response, plan, controller.signal, () => {
      current.outcome = "hung-up";
      this.#notify();
    });
  }

  async #plan(request: RecordedRequest, signal: AbortSignal): Promise<ResponsePlan | undefined> {
    const requestId = this.#newId("req_");
    const fail = (error: VendorError) =>
      jsonPlan(error.status, this.vendor.errorBody(error, requestId), {
        [this.vendor.requestIdHeader]: requestId,
        ...error.headers,
      });
    const { basePath, routes } = this.vendor;
    const relative = request.path.startsWith(basePath) ? request.path.slice(basePath.length) : undefined;
    const route = routes.find((r) => r.path === relative && r.method === request.method);
    if (route === undefined) {
      return fail({ status: 404, message: `Invalid URL (${request.method} ${request.path})` });
    }
    const apiKey = this.options.apiKey;
    const presented = this.vendor.presentedKey(request);
    if (apiKey !== undefined && presented !== apiKey) {
      return fail({ status: 401, message: keyRefusal(presented, this.options.echoKey) });
    }
    const refusal = this.vendor.precheck?.(request) ?? route.validate?.(request);
    if (refusal !== undefined) return fail(refusal);
    let reply: Reply;
    let plan: ResponsePlan;
    try {
      reply = this.#queue.shift() ?? (await this.handler?.(request)) ?? {};
      plan = this.#render(request, route, reply, fail);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return fail({ status: 500, message: `testkit script error: ${reason}`, type: "testkit_script_error" });
    }
    if (!(await pause(reply.delayMs ?? 0, signal))) return undefined;
    if (plan.kind === "hang-up") return plan;
    return { ...plan, headers: { [this.vendor.requestIdHeader]: requestId, ...plan.headers } };
  }

  #render(
    request: RecordedRequest,
    route: Route,
    reply: Reply,
    fail: (error: VendorError) => ResponsePlan,
  ): ResponsePlan {
    switch (reply.kind) {
      case "hang-up":
        return { kind: "hang-up" };
      case "error":
        return fail({
          status: reply.status,
          message: reply.message ?? `Scripted ${reply.status} error`,
          type: reply.type,
          code: reply.code,
          headers: reply.headers,
        });
      case "json":
        return jsonPlan(reply.status ?? 200, reply.body, reply.headers);
      case "sse":
        return {
          kind: "sse",
          status: reply.status ?? 200,
          headers: reply.headers ?? {},
          events: reply.events,
          ...(reply.chunkDelayMs === undefined ? {} : { chunkDelayMs: reply.chunkDelayMs }),
          ...(reply.hangUpAfterEvents === undefined ? {} : { hangUpAfterEvents: reply.hangUpAfterEvents }),
        };
      default:
        return route.complete(request, reply, {
          newId: (prefix) => this.#newId(prefix),
          models: this.models,
        });
    }
  }

  #newId(prefix: string): string {
    this.#ids += 1;
    return `${prefix}testkit${this.#ids}`;
  }
}
