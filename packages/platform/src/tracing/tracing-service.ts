/**
 * Tracing (PLATFORM.md §13): the recording tracer behind the platform's {@link TraceHooks}
 * (per-organization settings, sampling, content capture), the trace store it writes to,
 * retention, OTLP export, and the reads of traces and sessions. Roles are the HTTP guards'
 * business (Viewer reads, Admin updates settings).
 */
import {
  type Clock,
  invalidRequest,
  notFound,
  type PageRequest,
  type Principal,
  systemClock,
} from "@groundwork/core";
import {
  createRecordingTracing,
  type FinishedSpan,
  OtlpTraceExporter,
  type RecordingTracing,
  type TraceHooks,
  type TracingPolicy,
} from "@groundwork/observability";
import {
  DEFAULT_TRACING_SETTINGS,
  type SpanRecord,
  type TraceFilter,
  type TraceRecord,
  type TraceSessionRecord,
  type TracingSettingsRecord,
} from "@groundwork/store-sqlite";
import { z } from "zod";
import { checkPublicHttpUrl, guardedFetch } from "../network/guarded-network.js";
import type { PlatformStore } from "../store-port.js";
import { isoInstant, validate } from "../validate.js";

export const TRACE_KINDS = [
  "gateway",
  "agent",
  "extraction",
  "conversion",
  "kb_search",
  "experiment",
] as const;
export const MAX_EXPORT_HEADERS = 10;
/** `GET /v1/traces` covers the last 24 h by default and at most 31 days. */
export const DEFAULT_TRACE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_TRACE_WINDOW_MS = 31 * 24 * 60 * 60 * 1000;
/** A session's detail shows page 0 of its traces, oldest first, up to this many. */
export const SESSION_TRACES_LIMIT = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** How long an organization's settings are trusted before they are read again (other processes may change them). */
const SETTINGS_CACHE_MS = 5000;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const HEADER_VALUE = /^[^\r\n\0]{0,4096}$/;

export const tracingSettingsBody = z.object({
  enabled: z.boolean({ error: "enabled must be a boolean" }).optional(),
  samplingRate: z
    .number({ error: "samplingRate must be a number from 0 to 1" })
    .min(0, "samplingRate must be from 0 to 1")
    .max(1, "samplingRate must be from 0 to 1")
    .optional(),
  captureContent: z.boolean({ error: "captureContent must be a boolean" }).optional(),
  retentionDays: z
    .number({ error: "retentionDays must be an integer from 1 to 365" })
    .int("retentionDays must be an integer from 1 to 365")
    .min(1, "retentionDays must be an integer from 1 to 365")
    .max(365, "retentionDays must be an integer from 1 to 365")
    .optional(),
  export: z
    .object(
      {
        endpoint: z.string({ error: "export.endpoint must be a URL string" }).max(2048),
        headers: z
          .record(
            z.string().regex(HEADER_NAME, "header names must be HTTP tokens"),
            z
              .string({ error: "header values must be strings" })
              .regex(HEADER_VALUE, "header values must be one line of at most 4096 characters"),
          )
          .refine((headers) => Object.keys(headers).length <= MAX_EXPORT_HEADERS, {
            message: `at most ${MAX_EXPORT_HEADERS} headers`,
          })
          .optional(),
      },
      { error: "export must be an object {endpoint, headers?} or null" },
    )
    .nullable()
    .optional(),
});
export type TracingSettingsInput = z.input<typeof tracingSettingsBody>;

export const traceListQuery = z.object({
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  kind: z.enum(TRACE_KINDS, { error: `kind must be one of ${TRACE_KINDS.join(", ")}` }).optional(),
  status: z.enum(["ok", "error"], { error: "status must be ok or error" }).optional(),
  model: z.string().min(1, "model must not be empty").optional(),
  agentId: z.string().min(1, "agentId must not be empty").optional(),
  sessionId: z.string().min(1, "sessionId must not be empty").optional(),
});
export type TraceListQuery = z.input<typeof traceListQuery>;

export const traceSessionListQuery = z
  .object({
    from: isoInstant.optional(),
    to: isoInstant.optional(),
    agentId: z.string().min(1, "agentId must not be empty").optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ["from"],
    message: "from must not be after to",
  });
export type TraceSessionListQuery = z.input<typeof traceSessionListQuery>;

/** A span of a trace's detail with its children (by start time). */
export interface SpanNode extends SpanRecord {
  /** The parent's `spn_` id; null for the root spans. */
  parentSpanId: string | null;
  children: SpanNode[];
}

export interface TraceDetail extends TraceRecord {
  spans: SpanNode[];
}

export interface TracingServiceOptions {
  allowPrivateNetwork?: boolean;
  allowPrivateNetworkSetting?: string;
  clock?: Clock;
  /** The export transport (tests); by default the guarded fetch. */
  fetch?: typeof fetch;
  /** Export timings (tests); see OtlpTraceExporter. */
  exportBatchDelayMs?: number;
  exportRetryDelaysMs?: readonly number[];
  /** Called when a batch of spans could not be stored (the request goes on regardless). */
  onError?: (error: unknown) => void;
}

export class TracingService {
  /** What instrumented code traces with (the gateway, agents, extractions, …). */
  readonly hooks: TraceHooks;
  private readonly recording: RecordingTracing;
  private readonly exporter: OtlpTraceExporter;
  private readonly clock: Clock;
  private readonly cache = new Map<string, { settings: TracingSettingsRecord; readAt: number }>();
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly store: Pick<PlatformStore, "traces">,
    private readonly options: TracingServiceOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.exporter = new OtlpTraceExporter({
      fetch: options.fetch ?? guardedFetch(options.allowPrivateNetwork === true),
      target: async (organizationId) => await this.store.traces.exportTarget(organizationId),
      onFailure: async (organizationId, message) => {
        await this.store.traces.recordExportFailure(organizationId, message);
        this.cache.delete(organizationId);
      },
      ...(options.exportBatchDelayMs === undefined ? {} : { batchDelayMs: options.exportBatchDelayMs }),
      ...(options.exportRetryDelaysMs === undefined ? {} : { retryDelaysMs: options.exportRetryDelaysMs }),
    });
    this.recording = createRecordingTracing({
      policy: (organizationId) => this.policyOf(organizationId),
      sink: async (spans) => await this.ingest(spans),
      ...(options.onError === undefined ? {} : { onSinkError: options.onError }),
    });
    this.hooks = this.recording.hooks;
  }

  /**
   * The recorder asks synchronously when a span starts (a hot path of every traced call): the
   * cached settings, else the store's answer when it answers synchronously (SQLite). An
   * asynchronous store's first answer is awaited in the background; until it lands the
   * organization's spans follow the default policy (decision PG27).
   */
  private policyOf(organizationId: string): TracingPolicy {
    const cached = this.cache.get(organizationId);
    if (cached !== undefined && Date.now() - cached.readAt < SETTINGS_CACHE_MS) return cached.settings;
    const answer = this.store.traces.settings(organizationId);
    if (!(answer instanceof Promise)) {
      this.cache.set(organizationId, { settings: answer, readAt: Date.now() });
      return answer;
    }
    answer.then(
      (settings) => this.cache.set(organizationId, { settings, readAt: Date.now() }),
      // A failed read leaves the cache as it was; the next span asks again.
      () => undefined,
    );
    return (
      cached?.settings ?? {
        enabled: DEFAULT_TRACING_SETTINGS.enabled,
        samplingRate: DEFAULT_TRACING_SETTINGS.samplingRate,
        captureContent: DEFAULT_TRACING_SETTINGS.captureContent,
      }
    );
  }

  private async cachedSettings(organizationId: string): Promise<TracingSettingsRecord> {
    const now = Date.now();
    const cached = this.cache.get(organizationId);
    if (cached !== undefined && now - cached.readAt < SETTINGS_CACHE_MS) return cached.settings;
    const settings = await this.store.traces.settings(organizationId);
    this.cache.set(organizationId, { settings, readAt: now });
    return settings;
  }

  /** Stores a batch of finished spans and queues them for the organizations that export. */
  private async ingest(spans: FinishedSpan[]): Promise<void> {
    await this.store.traces.write(spans);
    const exported = new Map<string, ReturnType<FinishedSpan["readable"]>[]>();
    for (const span of spans) {
      if ((await this.cachedSettings(span.organizationId)).export === null) continue;
      const list = exported.get(span.organizationId);
      if (list === undefined) exported.set(span.organizationId, [span.readable()]);
      else list.push(span.readable());
    }
    for (const [organizationId, list] of exported) this.exporter.enqueue(organizationId, list);
  }

  // ---- settings ----

  async getSettings(principal: Principal): Promise<TracingSettingsRecord> {
    return await this.store.traces.settings(principal.organizationId);
  }

  /** `PUT /v1/tracing/settings`: the fields sent change; `export` replaces the export (headers included). */
  async updateSettings(
    principal: Principal,
    raw: TracingSettingsInput | unknown,
  ): Promise<TracingSettingsRecord> {
    const body = validate(tracingSettingsBody, raw ?? {});
    let exportChange: { endpoint: string; headers: Record<string, string> } | null | undefined;
    if (body.export === null) exportChange = null;
    else if (body.export !== undefined) {
      const url = await checkPublicHttpUrl(body.export.endpoint, {
        param: "export.endpoint",
        allowPrivateNetwork: this.options.allowPrivateNetwork === true,
        allowPrivateNetworkSetting: this.options.allowPrivateNetworkSetting,
      });
      const headers = body.export.headers ?? {};
      if (Object.keys(headers).length > 0 && !this.store.traces.canSealHeaders) {
        throw invalidRequest("Export headers are stored encrypted and need the server's master secret", {
          param: "export.headers",
        });
      }
      exportChange = { endpoint: url.toString(), headers };
    }
    const settings = await this.store.traces.updateSettings(principal.organizationId, {
      ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      ...(body.samplingRate === undefined ? {} : { samplingRate: body.samplingRate }),
      ...(body.captureContent === undefined ? {} : { captureContent: body.captureContent }),
      ...(body.retentionDays === undefined ? {} : { retentionDays: body.retentionDays }),
      ...(exportChange === undefined ? {} : { export: exportChange }),
    });
    // The new settings apply at once in this process, whether the store answers synchronously or not.
    this.cache.set(principal.organizationId, { settings, readAt: Date.now() });
    return settings;
  }

  // ---- traces and sessions ----

  /** Newest first; by default the last 24 h, at most 31 days (else 400 naming `from`). */
  async listTraces(
    principal: Principal,
    raw: TraceListQuery | unknown,
    page: PageRequest,
  ): Promise<{ items: TraceRecord[]; total: number }> {
    const query = validate(traceListQuery, raw ?? {});
    const now = this.clock.now();
    const to = query.to ?? (query.from === undefined ? now : Math.max(now, query.from));
    const from = query.from ?? to - DEFAULT_TRACE_WINDOW_MS;
    if (from > to) throw invalidRequest("from must not be after to", { param: "from" });
    if (to - from > MAX_TRACE_WINDOW_MS) {
      throw invalidRequest("from and to may be at most 31 days apart", { param: "from" });
    }
    await this.recording.flush();
    const filter: TraceFilter = { ...query, from, to };
    return await this.store.traces.list(
      principal.organizationId,
      filter,
      await this.horizon(principal),
      page,
    );
  }

  /** One trace with its span tree (roots, then children, by start time). */
  async getTrace(principal: Principal, traceId: string): Promise<TraceDetail> {
    await this.recording.flush();
    const found = await this.store.traces.get(
      principal.organizationId,
      traceId,
      await this.horizon(principal),
    );
    if (found === null) throw notFound(`No trace ${traceId}`, { param: "traceId" });
    return { ...found, spans: spanTree(await this.store.traces.spans(found.id)) };
  }

  /** Sessions (conversations with traces) by their last trace, newest first. */
  async listSessions(
    principal: Principal,
    raw: TraceSessionListQuery | unknown,
    page: PageRequest,
  ): Promise<{ items: TraceSessionRecord[]; total: number }> {
    const query = validate(traceSessionListQuery, raw ?? {});
    await this.recording.flush();
    return await this.store.traces.listSessions(
      principal.organizationId,
      query,
      await this.horizon(principal),
      page,
    );
  }

  async getSession(
    principal: Principal,
    sessionId: string,
  ): Promise<TraceSessionRecord & { traces: TraceRecord[] }> {
    await this.recording.flush();
    const found = await this.store.traces.session(
      principal.organizationId,
      sessionId,
      await this.horizon(principal),
      SESSION_TRACES_LIMIT,
    );
    if (found === null) throw notFound(`No trace session ${sessionId}`, { param: "sessionId" });
    return { ...found.session, traces: found.traces };
  }

  /** Traces that started before this are past the organization's retention and never returned. */
  private async horizon(principal: Principal): Promise<number> {
    return (
      this.clock.now() - (await this.store.traces.settings(principal.organizationId)).retentionDays * DAY_MS
    );
  }

  // ---- lifecycle ----

  /** Deletes the traces past their organization's retention; returns how many. */
  async sweep(): Promise<number> {
    await this.recording.flush();
    return await this.store.traces.deleteExpired(this.clock.now());
  }

  /** Sweeps now and then hourly. */
  async start(): Promise<void> {
    if (this.sweeper !== null) return;
    await this.sweepSafely();
    this.sweeper = setInterval(async () => await this.sweepSafely(), SWEEP_INTERVAL_MS);
    this.sweeper.unref?.();
  }

  private async sweepSafely(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** Hands every finished span to the store now (reads do this themselves). */
  async flush(): Promise<void> {
    await this.recording.flush();
  }

  /** Stops the sweep, stores the finished spans and sends what is queued for export. */
  async close(): Promise<void> {
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.recording.flush();
    await this.exporter.close();
  }
}

/** Builds the span tree: each span under its parent (by OTel id), orphans as roots, by start time. */
export function spanTree(spans: readonly SpanRecord[]): SpanNode[] {
  const byOtelId = new Map<string, SpanNode>();
  const nodes = spans.map((span) => {
    const node: SpanNode = { ...span, parentSpanId: null, children: [] };
    byOtelId.set(span.otelSpanId, node);
    return node;
  });
  const roots: SpanNode[] = [];
  for (const node of nodes) {
    const parent = node.parentOtelSpanId === null ? undefined : byOtelId.get(node.parentOtelSpanId);
    if (parent === undefined || parent === node) roots.push(node);
    else {
      node.parentSpanId = parent.id;
      parent.children.push(node);
    }
  }
  return roots;
}
