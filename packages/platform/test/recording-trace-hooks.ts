/**
 * TraceHooks over the real OpenTelemetry SDK for tests: a BasicTracerProvider whose spans
 * land in an in-memory exporter, and the AsyncLocalStorage context manager registered
 * globally (as a composed tracer does), so spans started in nested async work find their
 * parents. `close()` shuts the provider and unregisters the context manager.
 */
import type { TraceHooks } from "@groundwork/observability";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export interface RecordingTraceHooks {
  hooks: TraceHooks;
  /** The finished spans, in the order they ended. */
  spans(): ReadableSpan[];
  /** The finished spans named `name`. */
  named(name: string): ReadableSpan[];
  /** Whether organizations capture content from now on. */
  setCaptureContent(capture: boolean): void;
  reset(): void;
  close(): Promise<void>;
}

export function recordingTraceHooks(options: { captureContent?: boolean } = {}): RecordingTraceHooks {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let capture = options.captureContent ?? false;
  return {
    hooks: { tracer: provider.getTracer("groundwork-test"), captureContent: () => capture },
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    setCaptureContent: (value) => {
      capture = value;
    },
    reset: () => exporter.reset(),
    async close() {
      await provider.shutdown();
      context.disable();
    },
  };
}

/** The span's parent span id (SDK 2 names it through `parentSpanContext`). */
export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Every attribute value of the spans as one string, to search for text that must (not) appear. */
export function allAttributeText(spans: readonly ReadableSpan[]): string {
  return spans.map((span) => JSON.stringify(span.attributes)).join("\n");
}
