/**
 * The recording implementation behind {@link TraceHooks}: an OpenTelemetry SDK tracer
 * provider (sdk-trace-base's BasicTracerProvider) with Groundwork's own sampler and span
 * processor. Spans become Groundwork traces:
 * - sampling is decided once per trace, at its root, from the root's
 *   `groundwork.organization_id` and that organization's settings (`enabled`,
 *   `samplingRate`); children follow their parent;
 * - finished spans are queued and handed to the sink in batches a few milliseconds later
 *   (off the request path), or at once on {@link RecordingTracing.flush};
 * - defense in depth: whatever instrumented code set, the sink never receives
 *   `gen_ai.input.messages` / `gen_ai.output.messages` of an organization that does not
 *   capture content, and never a string attribute longer than CONTENT_ATTRIBUTE_LIMIT.
 *
 * The provider is not registered globally (the application's own OpenTelemetry setup stays
 * as it is): instrumented code gets this tracer through the hooks. Parent/child links need a
 * context manager, so an AsyncLocalStorage one is registered unless the application
 * registered its own, which is then used.
 */

import { defaultIdGenerator, type IdGenerator } from "@groundwork/core";
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  createTraceState,
  type SpanContext,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { hrTimeToMilliseconds } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { CONTENT_ATTRIBUTE_LIMIT, GEN_AI, GROUNDWORK } from "./gen-ai-attributes.js";
import { traceRequestId } from "./request-id-context.js";
import type { TraceHooks } from "./trace-hooks.js";

/** What the recorder needs to know of an organization (its tracing settings). */
export interface TracingPolicy {
  enabled: boolean;
  /** 0–1: the share of traces recorded. */
  samplingRate: number;
  captureContent: boolean;
}

/** A finished span as the sink receives it: plain fields for the store, the SDK span for export. */
export interface FinishedSpan {
  organizationId: string;
  /**
   * The Groundwork trace (`trc_…`) this span belongs to, named when its root started: the
   * store files later batches of a trace under it without looking the OTel trace id up.
   */
  traceRecordId: string;
  /** 32 hex. */
  traceId: string;
  /** 16 hex. */
  spanId: string;
  /** The parent's OTel span id; null for the trace's root (also when its parent is not ours). */
  parentSpanId: string | null;
  name: string;
  /** Epoch ms. */
  startTime: number;
  endTime: number;
  durationMs: number;
  status: "ok" | "error";
  statusMessage: string | null;
  /** Filtered as the organization's settings say. */
  attributes: Attributes;
  /**
   * The same span for OTLP export, with the filtered attributes; built on demand, since most
   * organizations do not export.
   */
  readable(): ReadableSpan;
}

/** Stores a batch; may answer a Promise (an asynchronous store), which `forceFlush` awaits. */
export type SpanSink = (spans: FinishedSpan[]) => void | Promise<void>;

export interface RecordingTracingOptions {
  /** The organization's settings; called once per trace root and once per finished span (cache it). */
  policy(organizationId: string): TracingPolicy;
  sink: SpanSink;
  /** Finished spans are handed over this long after the first of a batch (default 50 ms, as usage rows). */
  flushDelayMs?: number;
  /** Or at once when this many are queued (default 256). */
  flushAtSpans?: number;
  /** Called when the sink throws (the batch is dropped: a trace must never break a request). */
  onSinkError?: (error: unknown) => void;
  /** Names the Groundwork trace of each recorded root (`trc_…`); the core generator by default. */
  ids?: IdGenerator;
}

export interface RecordingTracing {
  readonly hooks: TraceHooks;
  /** Hands every queued finished span to the sink now; settles when an asynchronous sink stored them. */
  flush(): Promise<void>;
  /** Flushes and stops recording. */
  shutdown(): Promise<void>;
}

const CONTENT_KEYS: ReadonlySet<string> = new Set([GEN_AI.inputMessages, GEN_AI.outputMessages]);

let contextManagerChecked = false;

/**
 * Registers an AsyncLocalStorage context manager unless one is registered already
 * (the application's, or ours from an earlier composition): parent/child links need one.
 */
export function ensureContextManager(): void {
  if (contextManagerChecked) return;
  contextManagerChecked = true;
  const probe = createContextKey("groundwork.context-manager-probe");
  // A registered manager keeps a value set with context.with(); the no-op default does not.
  const registered = context.with(context.active().setValue(probe, true), () =>
    context.active().getValue(probe),
  );
  if (registered === true) return;
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
}

/** The deterministic ratio decision of a trace id (as TraceIdRatioBasedSampler does). */
export function sampledByRate(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const value = Number.parseInt(traceId.slice(-8), 16) >>> 0;
  return value / 0x1_0000_0000 < rate;
}

interface OpenTrace {
  organizationId: string;
  recordId: string;
  open: number;
}

/**
 * Marks the traces whose root we decided not to record, in the W3C trace state the
 * non-recording spans carry: a child inside one (a gateway call within an unsampled agent
 * response) must not start a trace of its own.
 */
const UNSAMPLED = { key: "groundwork", value: "0" } as const;
const UNSAMPLED_STATE = createTraceState(`${UNSAMPLED.key}=${UNSAMPLED.value}`);

class GroundworkSampler implements Sampler {
  constructor(
    private readonly policy: RecordingTracingOptions["policy"],
    private readonly openTraces: Map<string, OpenTrace>,
  ) {}

  shouldSample(parent: Context, traceId: string, _name: string, _kind: unknown, attributes: Attributes) {
    const parentSpan = trace.getSpanContext(parent);
    // A child of one of our open traces follows the decision made at its root.
    if (parentSpan !== undefined && this.openTraces.has(parentSpan.traceId)) {
      return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    }
    if (parentSpan?.traceState?.get(UNSAMPLED.key) === UNSAMPLED.value) {
      return { decision: SamplingDecision.NOT_RECORD };
    }
    const organizationId = attributes[GROUNDWORK.organizationId];
    if (typeof organizationId !== "string") return { decision: SamplingDecision.NOT_RECORD };
    const policy = this.policy(organizationId);
    if (!policy.enabled || !sampledByRate(traceId, policy.samplingRate)) {
      // Entries of an application's own trace state are kept.
      const traceState = parentSpan?.traceState?.set(UNSAMPLED.key, UNSAMPLED.value) ?? UNSAMPLED_STATE;
      return { decision: SamplingDecision.NOT_RECORD, traceState };
    }
    return { decision: SamplingDecision.RECORD_AND_SAMPLED };
  }

  toString(): string {
    return "GroundworkSampler";
  }
}

class GroundworkSpanProcessor implements SpanProcessor {
  private pending: FinishedSpan[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Batches handed to an asynchronous sink and not yet stored. */
  private readonly sinking = new Set<Promise<void>>();
  private readonly flushDelayMs: number;
  private readonly flushAtSpans: number;
  /** The trace roots (no parent, or a parent that is not ours) among the open spans. */
  private readonly roots = new WeakSet<object>();
  private readonly ids: IdGenerator;

  constructor(
    private readonly options: RecordingTracingOptions,
    private readonly openTraces: Map<string, OpenTrace>,
  ) {
    this.flushDelayMs = options.flushDelayMs ?? 50;
    this.flushAtSpans = options.flushAtSpans ?? 256;
    this.ids = options.ids ?? defaultIdGenerator;
  }

  onStart(span: Span, parentContext: Context): void {
    const traceId = span.spanContext().traceId;
    const open = this.openTraces.get(traceId);
    if (open !== undefined) {
      open.open += 1;
      return;
    }
    // The root (the sampler recorded it, so it names an organization).
    const organizationId = span.attributes[GROUNDWORK.organizationId] as string;
    this.openTraces.set(traceId, { organizationId, recordId: this.ids("trc"), open: 1 });
    this.roots.add(span);
    const requestId = traceRequestId(parentContext);
    if (requestId !== undefined && span.attributes[GROUNDWORK.requestId] === undefined) {
      span.setAttribute(GROUNDWORK.requestId, requestId);
    }
  }

  onEnd(span: ReadableSpan): void {
    const spanContext = span.spanContext();
    const open = this.openTraces.get(spanContext.traceId);
    if (open === undefined) return;
    open.open -= 1;
    if (open.open <= 0) this.openTraces.delete(spanContext.traceId);
    const organizationId = open.organizationId;
    const isRoot = this.roots.has(span);
    const attributes = this.filter(organizationId, span.attributes);
    const parent = isRoot ? undefined : span.parentSpanContext;
    const startTime = hrTimeToMilliseconds(span.startTime);
    const endTime = hrTimeToMilliseconds(span.endTime);
    this.pending.push({
      organizationId,
      traceRecordId: open.recordId,
      traceId: spanContext.traceId,
      spanId: spanContext.spanId,
      parentSpanId: parent?.spanId ?? null,
      name: span.name,
      startTime,
      endTime,
      durationMs: Math.round((endTime - startTime) * 1000) / 1000,
      status: span.status.code === SpanStatusCode.ERROR ? "error" : "ok",
      statusMessage: span.status.message ?? null,
      attributes,
      readable: () => exportable(span, attributes, parent),
    });
    if (this.pending.length >= this.flushAtSpans) this.flush();
    else if (this.timer === null) this.timer = setTimeout(() => this.flush(), this.flushDelayMs);
  }

  private filter(organizationId: string, source: Attributes): Attributes {
    let capture: boolean | undefined;
    const attributes: Attributes = {};
    // Keys, not entries: a span ends on every model call, and each entry was an array of its own.
    for (const key of Object.keys(source)) {
      const value = source[key];
      if (CONTENT_KEYS.has(key)) {
        capture ??= this.options.policy(organizationId).captureContent;
        if (!capture) continue;
      }
      attributes[key] =
        typeof value === "string" && value.length > CONTENT_ATTRIBUTE_LIMIT
          ? value.slice(0, CONTENT_ATTRIBUTE_LIMIT)
          : value;
    }
    return attributes;
  }

  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      const sunk = this.options.sink(batch);
      if (sunk instanceof Promise) {
        const tracked: Promise<void> = sunk
          .catch((error: unknown) => this.options.onSinkError?.(error))
          .finally(() => this.sinking.delete(tracked));
        this.sinking.add(tracked);
      }
    } catch (error) {
      this.options.onSinkError?.(error);
    }
  }

  async forceFlush(): Promise<void> {
    this.flush();
    await Promise.all(this.sinking);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
  }
}

function exportable(
  span: ReadableSpan,
  attributes: Attributes,
  parent: SpanContext | undefined,
): ReadableSpan {
  const spanContext = span.spanContext();
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => spanContext,
    ...(parent === undefined ? {} : { parentSpanContext: parent }),
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes,
    links: span.links,
    events: span.events,
    duration: span.duration,
    ended: true,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Builds the recording tracer; see the file comment. */
export function createRecordingTracing(options: RecordingTracingOptions): RecordingTracing {
  ensureContextManager();
  const openTraces = new Map<string, OpenTrace>();
  const processor = new GroundworkSpanProcessor(options, openTraces);
  const provider = new BasicTracerProvider({
    sampler: new GroundworkSampler(options.policy, openTraces),
    spanProcessors: [processor],
    spanLimits: { attributeValueLengthLimit: CONTENT_ATTRIBUTE_LIMIT },
    resource: resourceFromAttributes({ "service.name": "groundwork" }),
  });
  const tracer = provider.getTracer("@groundwork/platform");
  return {
    hooks: {
      tracer,
      captureContent: (organizationId) => options.policy(organizationId).captureContent,
    },
    flush: () => processor.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
