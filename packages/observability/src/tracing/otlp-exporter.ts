/**
 * Sends an organization's finished spans to its OTLP/HTTP JSON endpoint (PLATFORM.md §13):
 * batches of at most 100 spans, each sent within 5 s of its first span; a failed batch is
 * tried again at most twice, within 10 s of the first attempt; every failed attempt is
 * reported (the settings count it). The body is otlp-transformer's JSON serialization.
 * Nothing here waits on or throws into a request: spans are queued and sent on timers.
 */
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

export const EXPORT_BATCH_SPANS = 100;

export interface ExportTarget {
  endpoint: string;
  headers: Readonly<Record<string, string>>;
}

export interface OtlpExporterOptions {
  /** The transport (the platform passes its guarded, SSRF-safe fetch). */
  fetch: typeof fetch;
  /** Where an organization exports to (headers decrypted), or null. */
  target(organizationId: string): ExportTarget | null | Promise<ExportTarget | null>;
  /** One failed attempt (counted in `exportFailures`, the message kept as `lastExportError`). */
  onFailure(organizationId: string, message: string): void | Promise<void>;
  /** A batch is sent this long after its first span (default 1 s; at most 5 s by the contract). */
  batchDelayMs?: number;
  /** Waits before the retries (default 2 s and 4 s: both within 10 s of the first attempt). */
  retryDelaysMs?: readonly number[];
  /** One attempt gives up after this long (default 2 s). */
  attemptTimeoutMs?: number;
}

interface Queue {
  spans: ReadableSpan[];
  timer: ReturnType<typeof setTimeout> | null;
}

export class OtlpTraceExporter {
  private readonly queues = new Map<string, Queue>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(private readonly options: OtlpExporterOptions) {}

  /** Queues finished spans of one organization. */
  enqueue(organizationId: string, spans: readonly ReadableSpan[]): void {
    if (this.closed || spans.length === 0) return;
    let queue = this.queues.get(organizationId);
    if (queue === undefined) {
      queue = { spans: [], timer: null };
      this.queues.set(organizationId, queue);
    }
    queue.spans.push(...spans);
    if (queue.spans.length >= EXPORT_BATCH_SPANS) this.sendQueued(organizationId);
    else if (queue.timer === null) {
      queue.timer = setTimeout(() => this.sendQueued(organizationId), this.options.batchDelayMs ?? 1000);
      queue.timer.unref?.();
    }
  }

  private sendQueued(organizationId: string): void {
    const queue = this.queues.get(organizationId);
    if (queue === undefined) return;
    if (queue.timer !== null) clearTimeout(queue.timer);
    this.queues.delete(organizationId);
    for (let at = 0; at < queue.spans.length; at += EXPORT_BATCH_SPANS) {
      this.attempt(organizationId, queue.spans.slice(at, at + EXPORT_BATCH_SPANS), 0);
    }
  }

  private attempt(organizationId: string, batch: ReadableSpan[], retry: number): void {
    const sending = this.send(organizationId, batch).then(
      () => undefined,
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        try {
          // The store may be closing; the failure is not counted then.
          Promise.resolve(this.options.onFailure(organizationId, message)).catch(() => undefined);
        } catch {
          // (a synchronous store throws instead)
        }
        const delay = (this.options.retryDelaysMs ?? [2000, 4000])[retry];
        if (delay === undefined || this.closed) return;
        const timer = setTimeout(() => {
          this.retryTimers.delete(timer);
          this.attempt(organizationId, batch, retry + 1);
        }, delay);
        timer.unref?.();
        this.retryTimers.add(timer);
      },
    );
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  private async send(organizationId: string, batch: ReadableSpan[]): Promise<void> {
    const target = await this.options.target(organizationId);
    if (target === null) return; // export turned off meanwhile
    const body = JsonTraceSerializer.serializeRequest(batch);
    if (body === undefined) throw new Error("The spans could not be serialized");
    const response = await this.options.fetch(target.endpoint, {
      method: "POST",
      headers: { ...target.headers, "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(this.options.attemptTimeoutMs ?? 2000),
    });
    // The body is read so the connection is released.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new Error(`The collector answered HTTP ${response.status}`);
  }

  /** Sends what is queued (once, without retries) and waits for the attempts under way. */
  async close(): Promise<void> {
    for (const organizationId of [...this.queues.keys()]) this.sendQueued(organizationId);
    this.closed = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
