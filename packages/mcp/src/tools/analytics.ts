/**
 * Analytics (PLATFORM.md §14): usage, latency, providers, errors and extraction quality of the
 * organization over a time range; every tool reads (any role).
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined } from "./common.js";

const instant = (what: string) =>
  z.string().describe(`${what}: an ISO 8601 instant with an offset or Z, e.g. 2025-01-31T09:15:00.000Z`);

/** The common query: range (≤ 92 days, default the last 7 days), bucket and call filters. */
const common = {
  from: instant("start of the range, inclusive (default: to − 7 days)").optional(),
  to: instant("end of the range, exclusive (default: now)").optional(),
  bucket: z
    .enum(["hour", "day"])
    .optional()
    .describe(
      "series bucket, aligned to UTC: default hour for spans up to 48 h, else day; hour allows at most 7 days",
    ),
  model: z.string().min(1).optional().describe("only calls (or extractions) with this model string"),
  surface: z
    .enum(["CHAT", "VISION", "EMBEDDINGS", "RESPONSES", "AUDIO"])
    .optional()
    .describe("only calls of this surface"),
  byok: z
    .boolean()
    .optional()
    .describe("true: only calls to the organization's own providers; false: only built-in"),
};
const schemaId = z.string().min(1).optional().describe("only extractions of this schema");

export const analyticsTools = [
  defineTool({
    name: "analytics_summary",
    group: "Analytics",
    title: "Usage summary",
    description:
      "Calls, errors, error rate, tokens, cost (EUR) and p50/p95 latency (nearest rank, ms) of the organization's model calls in a time range.",
    readOnly: true,
    input: common,
    run: (client, args) => client.analytics.summary(defined(args)),
  }),
  defineTool({
    name: "analytics_time_series",
    group: "Analytics",
    title: "Usage time series",
    description:
      "Calls, errors, tokens, cost and p50/p95 latency per UTC hour or day of a range; every bucket is present, empty ones as zeros.",
    readOnly: true,
    input: common,
    run: (client, args) => client.analytics.timeseries(defined(args)),
  }),
  defineTool({
    name: "analytics_schemas",
    group: "Analytics",
    title: "Extraction analytics per schema",
    description:
      "Per schema: extractions, completed, failed, mean composite confidence, share flagged and schema-validation failure rate in a range.",
    readOnly: true,
    input: { ...common, schemaId },
    run: (client, args) => client.analytics.schemas(defined(args)),
  }),
  defineTool({
    name: "analytics_providers",
    group: "Analytics",
    title: "Usage per provider",
    description:
      "Calls, errors, tokens, cost and p50/p95 latency per provider (the model prefix; builtin for bare model names), most calls first.",
    readOnly: true,
    input: common,
    run: (client, args) => client.analytics.providers(defined(args)),
  }),
  defineTool({
    name: "analytics_errors",
    group: "Analytics",
    title: "Errors by code and status",
    description:
      "Failed model calls grouped by the error code and HTTP status the caller received (e.g. upstream_error 502), most frequent first, with the last occurrence.",
    readOnly: true,
    input: common,
    run: (client, args) => client.analytics.errors(defined(args)),
  }),
  defineTool({
    name: "analytics_quality",
    group: "Analytics",
    title: "Extraction quality",
    description:
      "Extractions, mean confidence, flagged share, validation failure rate and failure rate in a range, with human score counts and means per name (BOOLEAN as 0/1, CATEGORICAL mean null).",
    readOnly: true,
    input: { ...common, schemaId },
    run: (client, args) => client.analytics.quality(defined(args)),
  }),
  defineTool({
    name: "analytics_quality_trend",
    group: "Analytics",
    title: "Extraction quality trend",
    description:
      "Per UTC hour or day: extractions, mean confidence, flagged share, validation failure rate and the mean of human NUMERIC/BOOLEAN scores.",
    readOnly: true,
    input: {
      ...common,
      schemaId,
      scoreName: z.string().min(1).optional().describe("only human scores with this name in humanScoreMean"),
    },
    run: (client, args) => client.analytics.qualityTrend(defined(args)),
  }),
];
