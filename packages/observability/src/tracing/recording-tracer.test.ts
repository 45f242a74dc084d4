/**
 * The recording tracer on its own: sampling per trace at the root, children following it,
 * content dropped or cut as the organization's settings say, the request id on roots, and
 * batches handed to the sink only after the spans end.
 */
import { context, trace } from "@opentelemetry/api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTENT_ATTRIBUTE_LIMIT, GEN_AI, GROUNDWORK } from "./gen-ai-attributes.js";
import {
  createRecordingTracing,
  type FinishedSpan,
  sampledByRate,
  type TracingPolicy,
} from "./recording-tracer.js";
import { withTraceRequestId } from "./request-id-context.js";

function recorder(policies: Record<string, Partial<TracingPolicy>> = {}) {
  const batches: FinishedSpan[][] = [];
  const recording = createRecordingTracing({
    policy: (org) => ({ enabled: true, samplingRate: 1, captureContent: false, ...policies[org] }),
    sink: (spans) => {
      batches.push(spans);
    },
  });
  const spans = () => {
    recording.flush();
    return batches.flat();
  };
  return { recording, tracer: recording.hooks.tracer, batches, spans };
}

const root = (org: string, kind = "agent") => ({
  attributes: { [GROUNDWORK.organizationId]: org, [GROUNDWORK.traceKind]: kind },
});

describe("the recording tracer", () => {
  it("records a root and its children as one trace, children linked to their parent", () => {
    const { tracer, spans } = recorder();
    tracer.startActiveSpan("invoke_agent a", root("org_a"), (parent) => {
      tracer.startSpan("chat m").end();
      tracer.startActiveSpan("execute_tool t", (tool) => tool.end());
      parent.end();
    });
    const finished = spans();
    expect(finished.map((s) => s.name).sort()).toEqual(["chat m", "execute_tool t", "invoke_agent a"]);
    const rootSpan = finished.find((s) => s.name === "invoke_agent a");
    expect(rootSpan?.parentSpanId).toBeNull();
    for (const child of finished.filter((s) => s !== rootSpan)) {
      expect(child.traceId).toBe(rootSpan?.traceId);
      expect(child.parentSpanId).toBe(rootSpan?.spanId);
      expect(child.organizationId).toBe("org_a");
    }
  });

  it("hands spans to the sink in a batch after they end, not while the request runs", async () => {
    const { tracer, batches } = recorder();
    tracer.startSpan("chat m", root("org_a", "gateway")).end();
    expect(batches).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(batches).toHaveLength(1);
  });

  it("records nothing for a disabled organization, a rate of 0, or a root without an organization", () => {
    const { tracer, spans } = recorder({ off: { enabled: false }, zero: { samplingRate: 0 } });
    for (const org of ["off", "zero"]) {
      tracer.startActiveSpan("invoke_agent a", root(org), (span) => {
        const child = tracer.startSpan("chat m", { attributes: { [GROUNDWORK.organizationId]: "org_a" } });
        expect(child.isRecording()).toBe(false);
        child.end();
        span.end();
      });
    }
    tracer.startSpan("no organization").end();
    expect(spans()).toEqual([]);
  });

  it("drops content attributes unless the organization captures content, and cuts long values", () => {
    const { tracer, spans } = recorder({ capture: { captureContent: true } });
    const long = "x".repeat(CONTENT_ATTRIBUTE_LIMIT + 100);
    for (const org of ["plain", "capture"]) {
      const span = tracer.startSpan("chat m", root(org, "gateway"));
      span.setAttribute(GEN_AI.inputMessages, "PROMPT TEXT");
      span.setAttribute(GEN_AI.outputMessages, long);
      span.end();
    }
    const [plain, capture] = ["plain", "capture"].map((org) => spans().find((s) => s.organizationId === org));
    expect(plain?.attributes[GEN_AI.inputMessages]).toBeUndefined();
    expect(plain?.attributes[GEN_AI.outputMessages]).toBeUndefined();
    expect(plain?.readable().attributes[GEN_AI.inputMessages]).toBeUndefined();
    expect(capture?.attributes[GEN_AI.inputMessages]).toBe("PROMPT TEXT");
    expect(String(capture?.attributes[GEN_AI.outputMessages]).length).toBe(CONTENT_ATTRIBUTE_LIMIT);
  });

  it("puts the request id on the root span only", () => {
    const { tracer, spans } = recorder();
    withTraceRequestId("req_123", () =>
      tracer.startActiveSpan("invoke_agent a", root("org_a"), (span) => {
        tracer.startSpan("chat m").end();
        span.end();
      }),
    );
    const finished = spans();
    expect(finished.find((s) => s.parentSpanId === null)?.attributes[GROUNDWORK.requestId]).toBe("req_123");
    expect(finished.find((s) => s.parentSpanId !== null)?.attributes[GROUNDWORK.requestId]).toBeUndefined();
  });

  it("makes a span whose parent is not ours the root of its own trace", () => {
    const { tracer, spans } = recorder();
    const foreign = trace.wrapSpanContext({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: 1,
    });
    context.with(trace.setSpan(context.active(), foreign), () => {
      tracer.startSpan("chat m", root("org_a", "gateway")).end();
    });
    const [span] = spans();
    expect(span?.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(span?.parentSpanId).toBeNull();
    expect(span?.readable().parentSpanContext).toBeUndefined();
  });
});

describe("sampledByRate", () => {
  const traceId = fc.stringMatching(/^[0-9a-f]{32}$/);

  it("is monotonic in the rate and exact at 0 and 1", () => {
    fc.assert(
      fc.property(
        traceId,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (id, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          if (sampledByRate(id, low)) expect(sampledByRate(id, high)).toBe(true);
          expect(sampledByRate(id, 0)).toBe(false);
          expect(sampledByRate(id, 1)).toBe(true);
        },
      ),
    );
  });

  it("samples about the rate's share of random trace ids", () => {
    fc.assert(
      fc.property(fc.array(traceId, { minLength: 2000, maxLength: 2000 }), (ids) => {
        const share = ids.filter((id) => sampledByRate(id, 0.25)).length / ids.length;
        expect(share).toBeGreaterThan(0.18);
        expect(share).toBeLessThan(0.32);
      }),
      { numRuns: 5 },
    );
  });
});
