/**
 * Tracing (PLATFORM.md §13): the organization's tracing settings, its traces with their span
 * trees, and sessions (conversations with traces).
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const instant = (what: string) =>
  z.string().describe(`${what}: an ISO 8601 instant with an offset or Z, e.g. 2025-01-31T09:15:00.000Z`);

export const tracingTools = [
  defineTool({
    name: "get_tracing_settings",
    group: "Tracing",
    title: "Get tracing settings",
    description:
      "Reads the organization's tracing settings: enabled, samplingRate, captureContent, retentionDays, export (endpoint and header names) and export failures.",
    readOnly: true,
    input: {},
    run: (client) => client.tracing.getSettings(),
  }),
  defineTool({
    name: "update_tracing_settings",
    group: "Tracing",
    title: "Update tracing settings",
    description:
      "Changes the organization's tracing settings (Admin); only the fields sent change, export replaces the OTLP export (headers are stored encrypted and shown only by name).",
    readOnly: false,
    input: {
      enabled: z.boolean().optional().describe("whether traces are recorded at all"),
      samplingRate: z.number().min(0).max(1).optional().describe("share of traces recorded, 0-1"),
      captureContent: z
        .boolean()
        .optional()
        .describe("whether prompt and completion text is stored in spans (off by default)"),
      retentionDays: z.number().int().min(1).max(365).optional().describe("days traces are kept, 1-365"),
      export: z
        .object({
          endpoint: z.string().describe("a full OTLP/HTTP JSON traces URL, e.g. https://collector/v1/traces"),
          headers: z
            .record(z.string(), z.string())
            .optional()
            .describe("at most 10 headers sent with each export, e.g. an API key"),
        })
        .nullable()
        .optional()
        .describe("the OTLP export, or null to turn it off"),
    },
    run: (client, args) => client.tracing.updateSettings(defined(args)),
  }),
  defineTool({
    name: "list_traces",
    group: "Tracing",
    title: "List traces",
    description:
      "Lists the organization's traces newest first (spans not included); by default the last 24 hours, at most 31 days, filtered by kind, status, model, agent and session.",
    readOnly: true,
    input: {
      from: instant("started at or after (default 24 h before to)").optional(),
      to: instant("started before (default now)").optional(),
      kind: z
        .enum(["gateway", "agent", "extraction", "conversion", "kb_search", "experiment"])
        .optional()
        .describe("only traces of this kind"),
      status: z.enum(["ok", "error"]).optional().describe("only traces with this status"),
      model: z.string().min(1).optional().describe("only traces of this model"),
      agentId: z.string().min(1).optional().describe("only traces of this agent"),
      sessionId: z.string().min(1).optional().describe("only traces of this session (conversation id)"),
      ...page,
    },
    run: (client, args) => client.tracing.listTraces(defined(args)),
  }),
  defineTool({
    name: "get_trace",
    group: "Tracing",
    title: "Get a trace",
    description: "Reads one trace with its spans as a tree (root spans with their children, by start time).",
    readOnly: true,
    input: { traceId: z.string().min(1).describe("the trace id (trc_…)") },
    run: (client, args) => client.tracing.getTrace(args.traceId),
  }),
  defineTool({
    name: "list_trace_sessions",
    group: "Tracing",
    title: "List trace sessions",
    description:
      "Lists sessions (conversations with traces) by their last trace, newest first, with trace counts, tokens, cost and errors.",
    readOnly: true,
    input: {
      from: instant("last trace at or after").optional(),
      to: instant("last trace before").optional(),
      agentId: z.string().min(1).optional().describe("only sessions of this agent"),
      ...page,
    },
    run: (client, args) => client.tracing.listSessions(defined(args)),
  }),
  defineTool({
    name: "get_trace_session",
    group: "Tracing",
    title: "Get a trace session",
    description: "Reads one session with its traces, oldest first (at most 100).",
    readOnly: true,
    input: { sessionId: z.string().min(1).describe("the session id (the conversation id)") },
    run: (client, args) => client.tracing.getSession(args.sessionId),
  }),
];
